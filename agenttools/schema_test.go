package agenttools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// The definitions use only the keywords ValidateArgs reads, so what the
// client is shown is what is enforced.
func TestSchemaKeywords(t *testing.T) {
	for _, file := range []string{"tools.json", "tools_foreground.json"} {
		all, _ := definitionFiles.ReadFile(file)
		var raw []Definition
		if err := json.Unmarshal(all, &raw); err != nil {
			t.Fatal(err)
		}
		for _, d := range raw {
			var walk func(v any, inProps bool)
			walk = func(v any, inProps bool) {
				m, ok := v.(map[string]any)
				if !ok {
					return
				}
				for k, sub := range m {
					if !inProps && !schemaKeywords[k] {
						t.Errorf("%s %s uses %q, which ValidateArgs does not enforce", file, d.Name, k)
					}
					switch k {
					case "properties":
						for _, p := range sub.(map[string]any) {
							walk(p, false)
						}
					case "items":
						walk(sub, false)
					}
				}
			}
			var schema any
			if err := json.Unmarshal(d.Parameters, &schema); err != nil {
				t.Fatal(err)
			}
			walk(schema, false)
		}
	}
}

// ValidateArgs accepts and refuses exactly what a general JSON Schema
// validator does, on the MCP tools' schemas, and says why in the tool's
// words — with one documented difference: null for an optional argument
// is that argument left out (strict-mode providers send them so), so the
// general validator is given the arguments without their null optional
// keys.
func TestValidateArgsAgreesWithJSONSchema(t *testing.T) {
	defs, err := ForegroundDefinitions([]string{SkillsList, SkillView, SkillManage, Memory})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		SkillsList: {`{}`, `{"limit":1}`, `{"limit":500}`, `{"limit":0}`, `{"limit":501}`, `{"limit":2.5}`, `{"limit":"3"}`, `{"offset":-1}`, `{"category":7}`, `{"category":"devops","offset":3}`, `[]`, `{"unknown":1}`},
		SkillView:  {`{"name":"x"}`, `{}`, `{"name":3}`, `{"name":"x","file_path":null}`, `{"name":"x","file_path":"references/a.md"}`},
		SkillManage: {`{"operations":[{"action":"edit","name":"a","content":"c"}]}`, `{"operations":[]}`, `{"operations":"x"}`,
			`{"operations":[{"action":"patch"}]}`, `{"operations":[{"action":"rename","name":"a"}]}`, `{"operations":[{"action":"patch","name":"a","replace_all":"yes"}]}`,
			`{"action":"create","name":"a","content":"c"}`, `{"action":"patch","name":"a","old_string":"x","new_string":"y","operations":null}`,
			`{"action":"rename","name":"a"}`, `{"action":"patch","name":"a","replace_all":"yes"}`, `{"action":"patch","name":null}`,
			`{}`, `{"operations":[` + strings.Repeat(`{"action":"patch","name":"a"},`, 20) + `{"action":"patch","name":"a"}]}`},
		Memory: {`{"action":"add","content":"x"}`, `{"action":"add","target":null,"content":"x"}`, `{"action":null}`, `{"action":"delete"}`, `{"target":"team"}`, `{"operations":[{"content":"x"}]}`, `{"operations":[{"action":"remove","old_text":"x"}]}`},
	}
	for _, d := range defs {
		var s jsonschema.Schema
		if err := json.Unmarshal(d.Parameters, &s); err != nil {
			t.Fatal(err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range cases[d.Name] {
			var v any
			if err := json.Unmarshal([]byte(in), &v); err != nil {
				t.Fatal(err)
			}
			want := rs.Validate(withoutNullOptionals(v, d.Parameters))
			got := ValidateArgs(d, []byte(in))
			if (got == nil) != (want == nil) {
				t.Errorf("%s %s: ValidateArgs %v, jsonschema %v", d.Name, in, got, want)
			}
			if got != nil && (!strings.HasPrefix(got.Error(), d.Name+": ") || strings.Contains(got.Error(), "/properties")) {
				t.Errorf("%s %s: message %q is not in the tool's words", d.Name, in, got)
			}
		}
	}
}

// withoutNullOptionals is v without its null values at keys the schema
// does not require (at the top level, where the tools take them).
func withoutNullOptionals(v any, schema json.RawMessage) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	var s map[string]any
	_ = json.Unmarshal(schema, &s)
	out := map[string]any{}
	for k, x := range m {
		if x == nil && !isRequired(s, k) {
			continue
		}
		out[k] = x
	}
	return out
}

// A type error the review's tools decode is said in JSON's words.
func TestDecodeArgsSpeaksJSON(t *testing.T) {
	tb := newFixture(t).box(Options{Tools: []string{SkillManage}})
	r := tb.Call(context.Background(), SkillManage, `{"operations":"patch it"}`)
	if r.OK || !strings.Contains(r.Text, "operations must be an array, not a string") || strings.Contains(r.Text, "skillrepo.") {
		t.Errorf("type error: %s", r.Text)
	}
	r = tb.Call(context.Background(), SkillManage, `{"operations":[{"action":"patch","old_string":"a","new_string":"b"}]}`)
	if r.OK || !strings.Contains(r.Text, "name is required") {
		t.Errorf("missing name: %s", r.Text)
	}
}
