package agenttools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// ValidateArgs checks a call's arguments against the tool's schema, the
// one its client was shown, so schema and behaviour agree: a value the
// schema forbids is refused before the tool runs, in the tool's words
// ("skills_list: limit must be at most 500, not 501"). It reads the part
// of JSON Schema the definitions use: type, properties, required, enum,
// minimum, maximum, minItems, maxItems and items (TestSchemaKeywords
// keeps the definitions inside it). A general validator's messages speak
// JSON pointers and Go numbers, which a model cannot act on.
func ValidateArgs(d Definition, args []byte) error {
	var schema map[string]any
	if err := json.Unmarshal(d.Parameters, &schema); err != nil {
		return fmt.Errorf("%s: the tool's schema does not parse: %w", d.Name, err)
	}
	if len(bytes.TrimSpace(args)) == 0 {
		args = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("%s: the arguments are not a JSON object: %v", d.Name, err)
	}
	if msg := check(schema, v, ""); msg != "" {
		return fmt.Errorf("%s: %s", d.Name, msg)
	}
	return nil
}

// schemaKeywords are the keywords check reads; a definition using any
// other would be only partly enforced.
var schemaKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "enum": true, "minimum": true, "maximum": true,
	"minItems": true, "maxItems": true, "items": true, "description": true,
}

// check returns what is wrong with v under schema s, at path p ("" for
// the arguments, "limit", "operations[0].action"), or "".
func check(s map[string]any, v any, p string) string {
	what := p
	if what == "" {
		what = "the arguments"
	}
	if t, ok := s["type"].(string); ok && !hasType(v, t) {
		return fmt.Sprintf("%s must be %s, not %s", what, typeWords(t), describeJSON(v))
	}
	if enum, ok := s["enum"].([]any); ok {
		found := false
		var names []string
		for _, e := range enum {
			names = append(names, fmt.Sprint(e))
			if fmt.Sprint(e) == fmt.Sprint(v) {
				found = true
			}
		}
		if !found {
			return fmt.Sprintf("%s must be one of %s, not %s", what, strings.Join(names, ", "), describeJSON(v))
		}
	}
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		if min, ok := s["minimum"].(float64); ok && f < min {
			return fmt.Sprintf("%s must be at least %s, not %s", what, num(min), n)
		}
		if max, ok := s["maximum"].(float64); ok && f > max {
			return fmt.Sprintf("%s must be at most %s, not %s", what, num(max), n)
		}
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if _, ok := v[r.(string)]; !ok {
					return fmt.Sprintf("%s is required", join(p, r.(string)))
				}
			}
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if v[k] == nil && !isRequired(s, k) {
				// null for an optional argument is the argument left out:
				// strict-mode providers send every optional field, as
				// null, and the reference takes them so (target: null is
				// memory; docs/reference-behaviour.md §4.1).
				continue
			}
			if sub, ok := props[k].(map[string]any); ok {
				if msg := check(sub, v[k], join(p, k)); msg != "" {
					return msg
				}
			}
		}
	case []any:
		if min, ok := s["minItems"].(float64); ok && float64(len(v)) < min {
			return fmt.Sprintf("%s needs at least %s %s, not %d", what, num(min), plural(int(min), "entry", "entries"), len(v))
		}
		if max, ok := s["maxItems"].(float64); ok && float64(len(v)) > max {
			return fmt.Sprintf("%s takes at most %s entries, not %d", what, num(max), len(v))
		}
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range v {
				if msg := check(items, e, fmt.Sprintf("%s[%d]", what, i)); msg != "" {
					return msg
				}
			}
		}
	}
	return ""
}

// isRequired tells whether schema s lists key k as required.
func isRequired(s map[string]any, k string) bool {
	req, _ := s["required"].([]any)
	for _, r := range req {
		if r == k {
			return true
		}
	}
	return false
}

func join(p, k string) string {
	if p == "" {
		return k
	}
	return p + "." + k
}

func hasType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		f, err := n.Float64()
		return err == nil && f == math.Trunc(f)
	case "number":
		_, ok := v.(json.Number)
		return ok
	}
	return true
}

func typeWords(t string) string {
	switch t {
	case "object":
		return "an object"
	case "array":
		return "an array"
	case "integer":
		return "a whole number"
	case "boolean":
		return "true or false"
	}
	return "a " + t
}

// describeJSON names a JSON value as the model wrote it.
func describeJSON(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", clip(v, 40))
	case json.Number:
		return v.String()
	case bool:
		return fmt.Sprint(v)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprint(v)
}

func num(f float64) string { return fmt.Sprint(f) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
