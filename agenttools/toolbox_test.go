package agenttools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

var allTools = []string{SkillsList, SkillView, SkillManage, Memory, ReadFile, SearchFiles}

const freshSkill = "---\nname: fresh\ndescription: Use when testing a fresh skill.\n---\n# Fresh\n\nbody\n"

type fixture struct {
	t   *testing.T
	lib *skillrepo.Library
	env map[string]string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	if _, err := testlib.GitErr(".", nil, "--version"); err != nil {
		t.Skip("the git binary is needed to check what the tools write")
	}
	lib, env := testlib.ExampleLibrary(t)
	return &fixture{t: t, lib: lib, env: env}
}

func (f *fixture) git(args ...string) string { return testlib.Git(f.t, f.lib.Root, f.env, args...) }

func (f *fixture) box(opts Options) *Toolbox {
	if opts.Tools == nil {
		opts.Tools = allTools
	}
	return New(Open(f.lib), opts)
}

// call runs a tool with args built from v and decodes the result.
func callTool(t *testing.T, tb *Toolbox, name string, v any) (Result, map[string]any) {
	t.Helper()
	args, _ := json.Marshal(v)
	r := tb.Call(context.Background(), name, string(args))
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Text), &m); err != nil {
		t.Fatalf("%s result is not JSON: %v\n%s", name, err, r.Text)
	}
	if ok, _ := m["success"].(bool); ok != r.OK {
		t.Fatalf("%s: OK %v but success %v", name, r.OK, m["success"])
	}
	return r, m
}

func create(name string) map[string]any {
	return map[string]any{"operations": []map[string]any{{"action": "create", "name": name, "content": strings.ReplaceAll(freshSkill, "fresh", name)}}}
}

func patch(name, old, new string) map[string]any {
	return map[string]any{"operations": []map[string]any{{"action": "patch", "name": name, "old_string": old, "new_string": new}}}
}

// TestPolicies runs the same calls from each origin: the foreground
// agent may write the user's skills, an autonomous one may not.
func TestPolicies(t *testing.T) {
	const fg, bg = skillrepo.OriginForeground, skillrepo.OriginBackgroundReview
	tests := []struct {
		name      string
		origin    string
		args      map[string]any
		wantOK    bool
		wantError string
	}{
		{"foreground patches a user skill unread", fg, patch("ci-debugging", "Pitfalls", "Traps"), true, ""},
		{"autonomous may not patch a user skill", bg, patch("ci-debugging", "Pitfalls", "Traps"), false, "Refusing background review patch for 'ci-debugging': it is not curator-managed"},
		{"foreground deletes without absorbed_into", fg, map[string]any{"operations": []map[string]any{{"action": "delete", "name": "git-bisect-regressions"}}}, true, ""},
		{"autonomous may not delete a user skill", bg, map[string]any{"operations": []map[string]any{{"action": "delete", "name": "git-bisect-regressions", "absorbed_into": "ci-debugging"}}}, false, "Refusing background review delete for 'git-bisect-regressions': it is not curator-managed"},
		{"both refuse a secret", fg, map[string]any{"operations": []map[string]any{{"action": "create", "name": "leak", "content": "---\nname: leak\ndescription: Use when leaking.\n---\nkey AKIAIOSFODNN7ABCDEFG\n"}}}, false, "AWS access key id on line 5"},
		{"both refuse a batch over 20", fg, map[string]any{"operations": make([]map[string]any, 21)}, false, "the limit is 20 per call"},
		{"both refuse a mixed call", fg, map[string]any{"operations": []map[string]any{{"action": "patch", "name": "ci-debugging", "content": "x", "old_string": "a", "new_string": "b"}}}, false, "EITHER content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			before := f.git("rev-parse", "main")
			tb := f.box(Options{Provenance: skillrepo.Provenance{Origin: tt.origin, SessionID: "s-1"}, BranchExists: true})
			r, m := callTool(t, tb, SkillManage, tt.args)
			if r.OK != tt.wantOK {
				t.Fatalf("OK = %v, want %v: %s", r.OK, tt.wantOK, r.Text)
			}
			testlib.GitClean(t, f.lib.Root, f.env)
			if !tt.wantOK {
				if msg, _ := m["error"].(string); !strings.Contains(msg, tt.wantError) {
					t.Errorf("error %q lacks %q", msg, tt.wantError)
				}
				if r.Refusal == nil || len(tb.Refusals()) != 1 {
					t.Errorf("refusal not recorded: %+v", r.Refusal)
				}
				if got := f.git("rev-parse", "main"); got != before {
					t.Errorf("a refused call moved main")
				}
				return
			}
			if len(r.Changes) != 1 || r.Changes[0].Commit != f.git("rev-parse", "main") {
				t.Fatalf("changes %+v do not name main's new tip", r.Changes)
			}
			if got := testlib.Trailer(t, f.lib.Root, f.env, "main", "Skill-Origin"); got != tt.origin {
				t.Errorf("Skill-Origin %q, want %q", got, tt.origin)
			}
			if got := testlib.Trailer(t, f.lib.Root, f.env, "main", "Session-Id"); got != "s-1" {
				t.Errorf("Session-Id %q", got)
			}
		})
	}
}

// TestReadBeforeWrite: an autonomous caller must view a file before it
// patches it; the foreground agent need not; a shared Reads map carries
// what one toolbox read to the next (one per MCP call).
func TestReadBeforeWrite(t *testing.T) {
	f := newFixture(t)
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).Adopt(context.Background(), "ci-debugging", skillrepo.MetaOptions{}); err != nil {
		t.Fatal(err)
	}
	reads := map[string]bool{}
	opts := Options{Provenance: skillrepo.Provenance{Origin: skillrepo.OriginCurator}, BranchExists: true, Reads: reads}
	r, m := callTool(t, f.box(opts), SkillManage, patch("ci-debugging", "Pitfalls", "Traps"))
	if r.OK || m["read_before_write_required"] != true || !strings.Contains(m["error"].(string), "Refusing background curator patch for 'ci-debugging': SKILL.md has not been read in this curator") {
		t.Fatalf("unread patch not refused as it should be: %s", r.Text)
	}
	if r, _ := callTool(t, f.box(opts), SkillView, map[string]any{"name": "ci-debugging"}); !r.OK {
		t.Fatalf("view: %s", r.Text)
	}
	if r, _ := callTool(t, f.box(opts), SkillManage, patch("ci-debugging", "Pitfalls", "Traps")); !r.OK {
		t.Fatalf("patch after a view in another toolbox sharing Reads: %s", r.Text)
	}
	if got := testlib.Trailer(t, f.lib.Root, f.env, "main", "Skill-Origin"); got != "curator" {
		t.Errorf("Skill-Origin %q", got)
	}
	// A managed skill still needs absorbed_into to be deleted.
	r, m = callTool(t, f.box(opts), SkillManage, map[string]any{"operations": []map[string]any{{"action": "delete", "name": "ci-debugging"}}})
	if r.OK || !strings.Contains(m["error"].(string), "a curator may only archive a skill whose content it has absorbed") {
		t.Errorf("delete without absorbed_into: %s", r.Text)
	}
	testlib.GitClean(t, f.lib.Root, f.env)
}

// TestDryRun: every guard and the engine run, nothing is written, and the
// change is recorded as what would have happened.
func TestDryRun(t *testing.T) {
	f := newFixture(t)
	before := f.git("rev-parse", "main")
	tb := f.box(Options{Provenance: skillrepo.Provenance{Origin: skillrepo.OriginCurator}, BranchExists: true, DryRun: true})
	r, m := callTool(t, tb, SkillManage, create("fresh"))
	if !r.OK || m["dry_run"] != true || !strings.HasPrefix(m["message"].(string), "dry run: not written") {
		t.Fatalf("dry-run create: %s", r.Text)
	}
	if len(r.Changes) != 1 || !r.Changes[0].DryRun || r.Changes[0].Commit != "" || r.Changes[0].Skill != "fresh" {
		t.Errorf("change %+v", r.Changes)
	}
	if got := f.git("rev-parse", "main"); got != before {
		t.Errorf("a dry-run create moved main")
	}
	// The engine still validates: a patch that matches nothing fails.
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).Adopt(context.Background(), "ci-debugging", skillrepo.MetaOptions{}); err != nil {
		t.Fatal(err)
	}
	before = f.git("rev-parse", "main")
	callTool(t, tb, SkillView, map[string]any{"name": "ci-debugging"})
	if r, _ := callTool(t, tb, SkillManage, patch("ci-debugging", "no such text anywhere", "x")); r.OK {
		t.Errorf("a dry-run patch that matches nothing passed: %s", r.Text)
	}
	r, m = callTool(t, tb, Memory, map[string]any{"action": "add", "content": "the build needs make"})
	if !r.OK || m["dry_run"] != true {
		t.Errorf("dry-run memory add: %s", r.Text)
	}
	if got := f.git("rev-parse", "main"); got != before {
		t.Errorf("a dry run moved main")
	}
	if _, err := testlib.GitErr(f.lib.Root, f.env, "rev-parse", "--verify", "-q", "fresh"); err == nil {
		t.Errorf("dry run wrote something")
	}
	testlib.GitClean(t, f.lib.Root, f.env)
}

// TestSkillsListPages: a foreground listing carries state and pin and
// pages through a large library.
func TestSkillsListPages(t *testing.T) {
	f := newFixture(t)
	var ops []skillrepo.Op
	for i := range 12 {
		c := strings.ReplaceAll(freshSkill, "fresh", fmt.Sprintf("s%02d", i))
		ops = append(ops, skillrepo.Op{Action: "create", Name: fmt.Sprintf("s%02d", i), Category: "bulk", Content: &c})
	}
	testlib.Seed(t, f.lib, ops...)
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).Pin(context.Background(), "s03", skillrepo.MetaOptions{}); err != nil {
		t.Fatal(err)
	}
	tb := f.box(Options{Provenance: skillrepo.Provenance{Origin: skillrepo.OriginForeground}, BranchExists: true})
	var names []string
	offset := 0
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("paging does not end")
		}
		r, m := callTool(t, tb, SkillsList, map[string]any{"category": "bulk", "limit": 5, "offset": offset})
		if !r.OK || m["count"].(float64) != 12 {
			t.Fatalf("list: %s", r.Text)
		}
		for _, s := range m["skills"].([]any) {
			e := s.(map[string]any)
			names = append(names, e["name"].(string))
			if e["state"] != "active" || e["pinned"] != (e["name"] == "s03") {
				t.Errorf("entry %v", e)
			}
		}
		next, ok := m["next_offset"].(float64)
		if !ok {
			break
		}
		offset = int(next)
	}
	if len(names) != 12 || names[0] != "s00" || names[11] != "s11" {
		t.Errorf("pages gave %v", names)
	}
}

// TestUnknownTool names what is allowed.
func TestUnknownTool(t *testing.T) {
	f := newFixture(t)
	tb := f.box(Options{Tools: []string{SkillsList, SkillView}, Provenance: skillrepo.Provenance{Origin: skillrepo.OriginCurator}})
	r, m := callTool(t, tb, "terminal", map[string]any{})
	if r.OK || r.Refusal.Kind != RefusedUnknown || !strings.Contains(m["error"].(string), "not available in this curator") {
		t.Errorf("unknown tool: %s", r.Text)
	}
	if r := tb.Call(context.Background(), SkillsList, "[1]"); r.OK || r.Refusal.Kind != RefusedArgs {
		t.Errorf("bad arguments: %s", r.Text)
	}
}

// TestDefinitions are valid JSON schemas for every tool, in order.
func TestDefinitions(t *testing.T) {
	defs, err := Definitions(allTools)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range defs {
		var schema map[string]any
		if d.Name != allTools[i] || json.Unmarshal(d.Parameters, &schema) != nil || schema["type"] != "object" || d.Description == "" {
			t.Errorf("definition %d: %+v", i, d)
		}
	}
	if _, err := Definitions([]string{"nope"}); err == nil {
		t.Error("a missing definition is not an error")
	}
}
