package review

import (
	"context"
	"testing"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// A review that adds a memory entry and then rewords it: the replace is
// staged (an automatic review never replaces unattended) and sees the
// entry the review itself added; approving the staged proposal after the
// review merged gives main the reworded entry and nothing else.
func TestReviewStagedReplaceSeesOwnAdd(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.seedMemory("memory", "CI uses npm for installs")
	run := f.review(`[
		{"tool_calls": [{"name": "memory", "arguments": {"action": "add", "target": "memory", "content": "Deploys go through make deploy"}}]},
		{"tool_calls": [{"name": "memory", "arguments": {"action": "replace", "target": "memory", "old_text": "make deploy", "content": "Deploys go through make deploy-prod, never by hand"}}]},
		{"content": "Saved."}
	]`, f.transcript("simple.json"), func(o *Options) { o.Memory = true })
	sum := run.sum
	if sum.Status != StatusCompleted || len(sum.Applied) != 1 || len(sum.Staged) != 1 || len(sum.Refused) != 0 {
		t.Fatalf("summary: applied %+v staged %+v refused %+v", sum.Applied, sum.Staged, sum.Refused)
	}
	if res := run.requests[2].lastTool(); res["staged"] != true {
		t.Fatalf("replace result = %v", res)
	}
	if got := f.show("main", ".memory/MEMORY.md"); got != "CI uses npm for installs\n§\nDeploys go through make deploy" {
		t.Errorf("main MEMORY.md = %q", got)
	}
	want := "CI uses npm for installs\n§\nDeploys go through make deploy-prod, never by hand"
	if got := f.show("proposals/r-test-memory", ".memory/MEMORY.md"); got != want {
		t.Errorf("staged MEMORY.md = %q", got)
	}
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).ApproveProposal(context.Background(), "r-test-memory", skillrepo.ApproveOptions{}); err != nil {
		t.Fatalf("approve the staged replace: %v", err)
	}
	if got := f.show("main", ".memory/MEMORY.md"); got != want {
		t.Errorf("main MEMORY.md after approval = %q", got)
	}
	f.clean()
}

// Without an earlier write of the review, the staged branch starts from
// the base, as before: its proposal holds only the staged change.
func TestReviewStagedReplaceFromBase(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.seedMemory("memory", "CI uses npm for installs")
	base := f.git("rev-parse", "main")
	run := f.review(`[
		{"tool_calls": [{"name": "memory", "arguments": {"action": "replace", "target": "memory", "old_text": "uses npm", "content": "CI uses pnpm for installs"}}]},
		{"content": "Saved."}
	]`, f.transcript("simple.json"), func(o *Options) { o.Memory = true })
	if len(run.sum.Staged) != 1 {
		t.Fatalf("summary: %+v", run.sum)
	}
	if parent := f.git("rev-parse", "proposals/r-test-memory^"); parent != base {
		t.Errorf("staged branch forks from %s, want the base %s", parent, base)
	}
}
