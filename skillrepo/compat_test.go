package skillrepo

// The domain part of the git compatibility suite (the engine's is in
// internal/gitstore/compat_test.go): repository states built with the
// real git binary, then our commands.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 16 item 7: the conflict hint of an approval suggests a linked
// worktree on the proposal branch; approving afterwards removes that
// worktree with the branch. One holding a change is kept (git refuses to
// remove it), and so is the branch; the approval still succeeds.
func TestApproveRemovesSuggestedWorktree(t *testing.T) {
	for _, dirty := range []bool{false, true} {
		l, env := newTestLibrary(t)
		propose(t, l, "p1", "ci-debugging", "Pitfalls", "Traps")
		wt := filepath.Join(t.TempDir(), "p1")
		gitCmd(t, l, env, "worktree", "add", "-q", wt, ProposalBranch("p1"))
		if dirty {
			os.WriteFile(filepath.Join(wt, "notes.txt"), []byte("mine\n"), 0o644)
		}
		res, err := l.ApproveProposal(context.Background(), "p1", ApproveOptions{By: "Rev <rev@example.com>"})
		if err != nil {
			t.Fatalf("dirty=%v: %v", dirty, err)
		}
		branches := gitCmd(t, l, env, "branch", "--list", "proposals/*")
		if dirty {
			if !res.BranchKept || res.WorktreeRemoved != "" || !strings.Contains(res.BranchKeptReason, "worktree") {
				t.Errorf("dirty worktree: %+v", res)
			}
			if b, err := os.ReadFile(filepath.Join(wt, "notes.txt")); err != nil || string(b) != "mine\n" {
				t.Errorf("the user's file in the worktree was lost: %v", err)
			}
			if !strings.Contains(branches, "proposals/p1") {
				t.Errorf("branch deleted under its worktree: %q", branches)
			}
		} else {
			if res.WorktreeRemoved != wt || res.BranchKept {
				t.Errorf("clean worktree: %+v", res)
			}
			if _, err := os.Stat(wt); err == nil {
				t.Error("the worktree is still there")
			}
			if branches != "" {
				t.Errorf("branches left: %q", branches)
			}
		}
		assertConsistent(t, l, env)
	}
}
