package mcpserver

import (
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// TestSessionServer: a server of one autonomous run offers exactly its
// toolbox's tools, runs every call through that one toolbox (its guards,
// its branch, its provenance), refuses calls past the cap, and reports
// the record after each call.
func TestSessionServer(t *testing.T) {
	var reports []agenttools.Record
	var cappedSeen bool
	var tb *agenttools.Toolbox
	f := newFixture(t)
	base := f.git("rev-parse", "main")
	tb = agenttools.New(agenttools.Open(f.lib), agenttools.Options{
		Tools:      []string{agenttools.SkillsList, agenttools.SkillView, agenttools.SkillManage},
		Provenance: skillrepo.Provenance{Origin: skillrepo.OriginBackgroundReview, ReviewID: "r-sess-1", SessionID: "s-1", Model: "m-1"},
		Base:       base, Branch: "proposals/r-sess-1",
	})
	f.connect(f.lib, func(o *Options, _ *mcp.ClientOptions) {
		o.Session = &Session{Toolbox: tb, CapReached: func(calls int) bool { return calls >= 3 }, Instructions: "review tools",
			Report: func(r agenttools.Record, capped bool) {
				reports = append(reports, r)
				cappedSeen = cappedSeen || capped
			}}
	})
	list, err := f.cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "skill_manage,skill_view,skills_list" {
		t.Errorf("tools = %v, want the toolbox's three", names)
	}

	// A user-owned skill: the autonomous guard refuses.
	_, text, _ := f.call(agenttools.SkillManage, map[string]any{"operations": []any{map[string]any{"action": "patch", "name": "ci-debugging", "old_string": "a", "new_string": "b"}}}, nil)
	if !strings.Contains(text, "not curator-managed") {
		t.Errorf("patch of a user's skill: %s", text)
	}
	// A create lands on the run's branch, not main, with its trailers.
	_, text, _ = f.call(agenttools.SkillManage, map[string]any{"operations": []any{map[string]any{"action": "create", "name": "fresh", "content": freshSkill}}}, nil)
	if !strings.Contains(text, `"success":true`) {
		t.Fatalf("create: %s", text)
	}
	if f.git("rev-parse", "main") != base {
		t.Error("the write reached main")
	}
	trailers := f.git("log", "-1", "--format=%(trailers)", "proposals/r-sess-1")
	for _, want := range []string{"Skill-Origin: background-review", "Review-Id: r-sess-1", "Session-Id: s-1", "Model: m-1"} {
		if !strings.Contains(trailers, want) {
			t.Errorf("trailers lack %q:\n%s", want, trailers)
		}
	}
	if strings.Contains(trailers, "Agent:") {
		t.Errorf("a run's commit names the MCP client as Agent; the in-process run's does not:\n%s", trailers)
	}
	// The read-before-write memory is the session's: a view, then a patch.
	f.call(agenttools.SkillView, map[string]any{"name": "fresh"}, nil)
	// The fourth call is past the cap of three.
	_, text, _ = f.call(agenttools.SkillsList, map[string]any{}, nil)
	if !strings.Contains(text, "cap of tool calls") {
		t.Errorf("a call past the cap: %s", text)
	}
	last := reports[len(reports)-1]
	if !cappedSeen || last.Calls != 3 || !last.Wrote || len(last.Changes) != 1 || len(last.Refusals) != 1 {
		t.Errorf("last report %+v capped %v; want 3 calls, one write, one refusal, capped", last, cappedSeen)
	}
}
