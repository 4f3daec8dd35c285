package skillrepo

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/merge"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// propose writes one patch to proposal id (forked from main on first use).
func propose(t *testing.T, l *Library, id, name, old, new string) {
	t.Helper()
	_, err := l.apply(context.Background(), applyOptions{
		Branch: ProposalBranch(id), From: l.MainBranch(),
		Ops:        []Op{{Action: ActionPatch, Name: name, OldString: strp(old), NewString: strp(new)}},
		Provenance: Provenance{Origin: OriginBackgroundReview, ReviewID: "r-" + id, Model: "m"},
	})
	if err != nil {
		t.Fatalf("propose %s: %v", id, err)
	}
}

// patchMain writes one patch straight to main.
func patchMain(t *testing.T, l *Library, name, old, new string) {
	t.Helper()
	if _, err := l.apply(context.Background(), applyOptions{Ops: []Op{{Action: ActionPatch, Name: name, OldString: strp(old), NewString: strp(new)}}}); err != nil {
		t.Fatalf("patch main: %v", err)
	}
}

func readWorktree(t *testing.T, l *Library, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Fixture history of the approve tests (o = main, x = proposal):
//
//	o---o---o  main (import; optional main patch)
//	     \
//	      x  proposals/p1 (background-review patch)
func TestProposeThenApprove(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	mainBefore := gitCmd(t, l, env, "rev-parse", "main")
	skillBefore := readWorktree(t, l, "ci-debugging/SKILL.md")

	propose(t, l, "p1", "ci-debugging", "watch the job to the end", "watch the job until it is green")
	propose(t, l, "p1", "ci-debugging", "Pitfalls", "Pitfalls to avoid")

	// Main and the work tree are untouched.
	if got := gitCmd(t, l, env, "rev-parse", "main"); got != mainBefore {
		t.Fatal("main moved")
	}
	if readWorktree(t, l, "ci-debugging/SKILL.md") != skillBefore {
		t.Fatal("work tree changed")
	}

	props, err := l.Proposals().List(ProposalQuery{CheckMerge: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(props) != 1 {
		t.Fatalf("proposals = %d, want 1", len(props))
	}
	p := props[0]
	if p.ID != "p1" || p.State != ProposalOpen || len(p.Commits) != 2 || p.Origin != OriginBackgroundReview ||
		p.ReviewID != "r-p1" || strings.Join(p.Skills, ",") != "ci-debugging" || p.Added != 2 || p.Deleted != 2 || !p.Mergeable() {
		t.Errorf("proposal = %+v", p)
	}
	if len(p.Files) != 1 || p.Files[0].Path != "ci-debugging/SKILL.md" || p.Files[0].Status != "modified" {
		t.Errorf("files = %+v", p.Files)
	}

	res, err := person(l).ApproveProposal(ctx, "p1", ApproveOptions{By: "Reviewer <rev@example.com>"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Update.CheckedOut || strings.Join(res.Update.Paths, ",") != "ci-debugging/SKILL.md" {
		t.Errorf("update = %+v", res.Update)
	}
	parents := strings.Fields(gitCmd(t, l, env, "rev-list", "--parents", "-n1", "main"))
	if len(parents) != 3 || parents[1] != strings.TrimSpace(mainBefore) || parents[2] != res.Tip.String() {
		t.Errorf("merge parents = %v, want [merge main-before proposal-tip]", parents)
	}
	if tr := gitCmd(t, l, env, "log", "-1", "--format=%s|%(trailers:key=Approved-By,valueonly,separator=%x2C)|%(trailers:key=Proposal-Id,valueonly,separator=%x2C)|%(trailers:key=Review-Id,valueonly,separator=%x2C)"); tr != "Merge proposal p1|Reviewer <rev@example.com>|p1|r-p1\n" {
		t.Errorf("merge commit = %q", tr)
	}
	if got := readWorktree(t, l, "ci-debugging/SKILL.md"); !strings.Contains(got, "until it is green") || !strings.Contains(got, "Pitfalls to avoid") {
		t.Errorf("work tree not updated:\n%s", got)
	}
	if out := gitCmd(t, l, env, "branch", "--list", "proposals/*"); out != "" {
		t.Errorf("proposal branch kept: %q", out)
	}
	assertConsistent(t, l, env)
}

func TestApproveDivergedMain(t *testing.T) {
	tests := []struct {
		name     string
		proposal [3]string // skill, old, new
		main     [3]string
		conflict string // conflicting path, "" for a clean merge
	}{
		{
			name:     "disjoint files",
			proposal: [3]string{"ci-debugging", "Pitfalls", "Pitfalls to avoid"},
			main:     [3]string{"git-bisect-regressions", "when done.", "when done, always."},
		},
		{
			name:     "same file, hunks far apart",
			proposal: [3]string{"ci-debugging", "Never mark a test as skipped", "Never skip a test"},
			main:     [3]string{"ci-debugging", "Use when a CI job fails.", "Use when a CI job fails or flakes."},
		},
		{
			name:     "same line, different edits",
			proposal: [3]string{"ci-debugging", "Fix the cause, push", "Fix the root cause, push"},
			main:     [3]string{"ci-debugging", "Fix the cause, push", "Fix it, push"},
			conflict: "ci-debugging/SKILL.md",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, env := newTestLibrary(t)
			ctx := context.Background()
			propose(t, l, "p1", tt.proposal[0], tt.proposal[1], tt.proposal[2])
			patchMain(t, l, tt.main[0], tt.main[1], tt.main[2])
			mainBefore := gitCmd(t, l, env, "rev-parse", "main")
			worktreeBefore := readWorktree(t, l, "ci-debugging/SKILL.md")

			// git's own merge, in a clone, is the reference result.
			clone := filepath.Join(t.TempDir(), "clone")
			gitCmd(t, l, env, "clone", "-q", l.Root, clone)
			gitMerge := gitIn(t, clone, env, true, "merge", "--no-ff", "--no-edit", "origin/proposals/p1")

			res, err := person(l).ApproveProposal(ctx, "p1", ApproveOptions{})
			if tt.conflict != "" {
				var ce *ProposalConflictError
				if !errors.As(err, &ce) || !errors.Is(err, ErrConflict) || len(ce.Conflicts) != 1 || ce.Conflicts[0].Path != tt.conflict || ce.Conflicts[0].Reason != merge.ReasonContent {
					t.Fatalf("err = %v, want a content conflict on %s", err, tt.conflict)
				}
				if !strings.Contains(gitMerge, "CONFLICT") {
					t.Errorf("git merged cleanly where we conflict:\n%s", gitMerge)
				}
				if got := gitCmd(t, l, env, "rev-parse", "main"); got != mainBefore {
					t.Error("main moved on a conflict")
				}
				if readWorktree(t, l, "ci-debugging/SKILL.md") != worktreeBefore {
					t.Error("work tree changed on a conflict")
				}
				if out := gitCmd(t, l, env, "branch", "--list", "proposals/p1"); out == "" {
					t.Error("conflicting proposal deleted")
				}
				assertConsistent(t, l, env)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(gitMerge, "CONFLICT") {
				t.Fatalf("git conflicts where we merged:\n%s", gitMerge)
			}
			ours := gitCmd(t, l, env, "rev-parse", "main^{tree}")
			theirs := gitIn(t, clone, env, false, "rev-parse", "HEAD^{tree}")
			if ours != theirs {
				t.Errorf("approve tree %s, git merge --no-ff tree %s", ours, theirs)
			}
			if res.Update == nil || !res.Update.CheckedOut {
				t.Errorf("result = %+v", res)
			}
			assertConsistent(t, l, env)
		})
	}
}

// gitIn runs git in dir; with allowFail a non-zero exit returns the output.
func gitIn(t *testing.T, dir string, env map[string]string, allowFail bool, args ...string) string {
	t.Helper()
	cmd := gitExec(t, dir, env, args...)
	out, err := cmd.CombinedOutput()
	if err != nil && !allowFail {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestRejectKeepsTip(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	propose(t, l, "p2", "ci-debugging", "Pitfalls", "Traps")
	tip := gitCmd(t, l, env, "rev-parse", "proposals/p2")

	res, err := person(l).RejectProposal(ctx, "p2", RejectOptions{By: "Rev <rev@example.com>", Reason: "too vague"})
	if err != nil {
		t.Fatal(err)
	}
	if out := gitCmd(t, l, env, "branch", "--list", "proposals/*"); out != "" {
		t.Errorf("branch kept: %q", out)
	}
	if got := gitCmd(t, l, env, "rev-parse", "refs/skillrepo/rejected/p2^"); got != tip {
		t.Errorf("record parent %s, want tip %s", got, tip)
	}
	if tr := gitCmd(t, l, env, "log", "-1", "--format=%(trailers:key=Rejected-By,valueonly)%(trailers:key=Reason,valueonly)", "refs/skillrepo/rejected/p2"); tr != "Rev <rev@example.com>\ntoo vague\n\n" {
		t.Errorf("record trailers = %q", tr)
	}
	rejected, err := l.Proposals().List(ProposalQuery{Rejected: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rejected) != 1 || rejected[0].State != ProposalRejected || rejected[0].Tip != res.Tip ||
		rejected[0].Rejection.Reason != "too vague" || strings.Join(rejected[0].Skills, ",") != "ci-debugging" {
		t.Errorf("rejected = %+v", rejected)
	}
	if open, _ := l.Proposals().List(ProposalQuery{}); len(open) != 0 {
		t.Errorf("open proposals after reject: %d", len(open))
	}
	if _, err := person(l).ApproveProposal(ctx, "p2", ApproveOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("approve after reject: err = %v", err)
	}
	assertConsistent(t, l, env)
}

func TestInvalidProposedWriteRefused(t *testing.T) {
	l, env := newTestLibrary(t)
	bad := "no frontmatter at all\n"
	_, err := l.apply(context.Background(), applyOptions{
		Branch: ProposalBranch("p3"), From: l.MainBranch(),
		Ops: []Op{{Action: ActionCreate, Name: "broken", Content: &bad}},
	})
	if !errors.Is(err, skill.ErrInvalid) {
		t.Fatalf("err = %v, want a validation error", err)
	}
	if out := gitCmd(t, l, env, "branch", "--list", "proposals/*"); out != "" {
		t.Errorf("a branch was created: %q", out)
	}
}

func TestProposalMergedByGitCountsAsApproved(t *testing.T) {
	l, env := newTestLibrary(t)
	propose(t, l, "p4", "ci-debugging", "Pitfalls", "Traps")
	gitCmd(t, l, env, "merge", "-q", "--no-ff", "--no-edit", "proposals/p4")

	props, err := l.Proposals().List(ProposalQuery{CheckMerge: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(props) != 1 || props[0].State != ProposalApproved {
		t.Fatalf("proposals = %+v, want p4 approved", props)
	}
	res, err := person(l).ApproveProposal(context.Background(), "p4", ApproveOptions{})
	if err != nil || !res.AlreadyMerged {
		t.Fatalf("approve = %+v, %v", res, err)
	}
	if out := gitCmd(t, l, env, "branch", "--list", "proposals/*"); out != "" {
		t.Errorf("branch kept: %q", out)
	}
	if _, err := person(l).RejectProposal(context.Background(), "p4", RejectOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("reject after approve: %v", err)
	}
}

func TestApproveAllAndCheck(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	propose(t, l, "a1", "ci-debugging", "Fix the cause, push", "Fix the root cause, push")
	propose(t, l, "a2", "ci-debugging", "Fix the cause, push", "Fix it, push")
	propose(t, l, "a3", "git-bisect-regressions", "when done.", "when done, always.")

	// An approval whose merge adds a lint error (a dangling link) is
	// refused by the write policy's gate and writes nothing.
	propose(t, l, "bad", "git-bisect-regressions", "when done.", "when done; see [notes](references/missing.md).")
	head := gitCmd(t, l, env, "rev-parse", "main")
	_, err := person(l).ApproveProposal(ctx, "bad", ApproveOptions{})
	var ge *GateError
	if !errors.Is(err, ErrRefused) || !errors.As(err, &ge) || !strings.Contains(err.Error(), "git-bisect-regressions/SKILL.md") || ge.Hint() == "" {
		t.Fatalf("err = %v", err)
	}
	if gitCmd(t, l, env, "rev-parse", "main") != head {
		t.Fatal("main moved after a refused approval")
	}
	if _, err := person(l).RejectProposal(ctx, "bad", RejectOptions{Reason: "dangling link"}); err != nil {
		t.Fatal(err)
	}

	// A dry run writes nothing either.
	if res, err := person(l).ApproveProposal(ctx, "a1", ApproveOptions{DryRun: true}); err != nil || res.Commit.IsZero() {
		t.Fatalf("dry run = %+v, %v", res, err)
	}
	if gitCmd(t, l, env, "rev-parse", "main") != head {
		t.Fatal("main moved after a dry run")
	}

	outcomes, err := person(l).ApproveAll(ctx, ApproveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range outcomes {
		state := "merged"
		if o.Err != nil {
			state = "conflict"
		}
		got = append(got, o.ID+"="+state)
	}
	// a2 edits the line a1 changed: it conflicts once a1 is in; a3
	// touches another skill and merges after the conflict.
	if strings.Join(got, " ") != "a1=merged a2=conflict a3=merged" {
		t.Errorf("outcomes = %v", got)
	}
	assertConsistent(t, l, env)
}

// gitExec prepares the real git in dir with the hermetic test environment.
func gitExec(t *testing.T, dir string, env map[string]string, args ...string) *exec.Cmd {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
}

// TestApproveRefusesInvalidMerge: each side leaves a valid SKILL.md, the
// line merge of both does not (the proposal drops the steps, main drops
// the pitfalls, and the body left is blank): approval refuses like a
// conflict and writes nothing.
func TestApproveRefusesInvalidMerge(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	snap, err := l.Snapshot("")
	if err != nil {
		t.Fatal(err)
	}
	b, err := snap.ReadFile("ci-debugging/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	content := string(b)
	title, pitfalls := strings.Index(content, "# Debugging"), strings.Index(content, "\n\n## Pitfalls")
	if title < 0 || pitfalls < 0 {
		t.Fatalf("example skill changed shape:\n%s", content)
	}
	withoutSteps := content[:title] + content[pitfalls+1:]
	withoutPitfalls := content[:pitfalls+2]
	edit := func(branch, from, text string) {
		t.Helper()
		if _, err := l.apply(ctx, applyOptions{Branch: branch, From: from, Ops: []Op{{Action: ActionEdit, Name: "ci-debugging", Content: &text}}}); err != nil {
			t.Fatal(err)
		}
	}
	edit(ProposalBranch("v1"), l.MainBranch(), withoutSteps)
	edit("", "", withoutPitfalls)
	head := gitCmd(t, l, env, "rev-parse", "main")
	_, err = person(l).ApproveProposal(ctx, "v1", ApproveOptions{})
	var ce *ProposalConflictError
	if !errors.As(err, &ce) || len(ce.Conflicts) != 1 || ce.Conflicts[0].Reason != ReasonInvalidSkill {
		t.Fatalf("err = %v, want an invalid-skill conflict", err)
	}
	if gitCmd(t, l, env, "rev-parse", "main") != head {
		t.Error("main moved")
	}
	assertConsistent(t, l, env)
}
