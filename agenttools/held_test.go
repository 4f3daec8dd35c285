package agenttools

import (
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// A review's create held for a file it links and never wrote is reported
// when the pass ends, and nothing of it landed.
func TestHeldCreateReportedWhenNeverCompleted(t *testing.T) {
	f := newFixture(t)
	tb := f.box(Options{Provenance: skillrepo.Provenance{Origin: skillrepo.OriginBackgroundReview}, Branch: "proposals/held-test"})
	content := "---\nname: waits\ndescription: Use when a reference never arrives.\n---\n# Waits\n\nSee [notes](references/notes.md).\n"
	r, m := callTool(t, tb, SkillManage, map[string]any{"action": "create", "name": "waits", "content": content})
	if !r.OK || m["held"] != true {
		t.Fatalf("create: %s", r.Text)
	}
	refusals := tb.Record().Refusals
	if len(refusals) != 1 || refusals[0].Kind != RefusedHeld || !strings.Contains(refusals[0].Reason, "'waits'") {
		t.Errorf("refusals %+v", refusals)
	}
	if _, err := testlib.GitErr(f.lib.Root, f.env, "rev-parse", "--verify", "-q", "proposals/held-test"); err == nil {
		t.Errorf("a held create made the review's branch")
	}
}
