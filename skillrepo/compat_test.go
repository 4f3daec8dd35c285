package skillrepo

// The domain part of the git compatibility suite (the engine's is in
// internal/gitstore/compat_test.go): repository states built with the
// real git binary, then our commands.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/history"
)

// The conflict hint of an approval suggests a linked
// worktree on the proposal branch; approving afterwards removes that
// worktree with the branch. One holding a change, or a file git ignores
// (a .env that git worktree remove would delete with it, issue 40 item
// 8), is kept, and so is the branch; the approval still succeeds.
func TestApproveRemovesSuggestedWorktree(t *testing.T) {
	for _, tc := range []struct {
		name string
		file string // written in the worktree ("": none)
		keep bool
	}{
		{name: "clean"},
		{name: "untracked file", file: "notes.txt", keep: true},
		{name: "ignored file", file: ".env", keep: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, env := newTestLibrary(t)
			propose(t, l, "p1", "ci-debugging", "Pitfalls", "Traps")
			// info/exclude is shared by every worktree of the repository.
			if err := os.WriteFile(filepath.Join(l.Root, ".git", "info", "exclude"), []byte(".env\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			wt := filepath.Join(t.TempDir(), "p1")
			gitCmd(t, l, env, "worktree", "add", "-q", wt, ProposalBranch("p1"))
			if tc.file != "" {
				if err := os.WriteFile(filepath.Join(wt, tc.file), []byte("mine\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := person(l).ApproveProposal(context.Background(), "p1", ApproveOptions{By: "Rev <rev@example.com>"})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(gitCmd(t, l, env, "log", "-1", "--format=%B", "main"), "Approved-By: Rev") {
				t.Error("the approval did not land on main")
			}
			branches := gitCmd(t, l, env, "branch", "--list", "proposals/*")
			if tc.keep {
				if !res.BranchKept || res.WorktreeRemoved != "" || !strings.Contains(res.BranchKeptReason, "worktree") {
					t.Errorf("kept worktree: %+v", res)
				}
				if b, err := os.ReadFile(filepath.Join(wt, tc.file)); err != nil || string(b) != "mine\n" {
					t.Errorf("the user's %s in the worktree was lost: %v", tc.file, err)
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
		})
	}
}

// In a shallow clone (depth 1 and 2) history stops at
// the boundary: log and blame work and say the history is truncated,
// ownership fails closed, and writes still land (git fsck clean).
func TestShallowCloneHistory(t *testing.T) {
	src, env := newTestLibrary(t)
	patchMain(t, src, "ci-debugging", "Pitfalls", "Traps")
	patchMain(t, src, "ci-debugging", "Traps", "Snares")
	for _, depth := range []string{"1", "2"} {
		t.Run("depth "+depth, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "clone")
			gitIn(t, src.Root, env, false, "clone", "-q", "--depth", depth, "file://"+src.Root, dir)
			l, err := Open(dir, openOpts(env))
			if err != nil {
				t.Fatal(err)
			}
			defer l.repo.Close()
			log, err := l.History().Log("ci-debugging", history.LogOptions{})
			if err != nil {
				t.Fatalf("log: %v", err)
			}
			if n := len(log); n == 0 || !log[n-1].Truncated || log[0].Truncated != (n == 1) {
				t.Errorf("log of %d entries, truncation marks %v", n, func() (m []bool) {
					for _, e := range log {
						m = append(m, e.Truncated)
					}
					return
				}())
			}
			if want := map[string]int{"1": 1, "2": 2}[depth]; len(log) != want {
				t.Errorf("log has %d entries, want %d", len(log), want)
			}
			b, err := l.History().Blame("ci-debugging", "", history.BlameOptions{})
			if err != nil || !b.Truncated {
				t.Fatalf("blame: truncated=%v err=%v", b != nil && b.Truncated, err)
			}
			if _, err := l.Owners().Of("ci-debugging"); err == nil || !strings.Contains(err.Error(), "shallow") {
				t.Errorf("ownership in a shallow clone: %v, want a refusal", err)
			}
			if _, err := l.apply(context.Background(), applyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("Snares"), NewString: strp("Hazards")}}, Provenance: Provenance{Origin: OriginUser}}); err != nil {
				t.Fatalf("write in a shallow clone: %v", err)
			}
			gitIn(t, dir, env, false, "fsck", "--strict", "--no-progress")
			if st := gitIn(t, dir, env, false, "status", "--porcelain"); st != "" {
				t.Errorf("status: %q", st)
			}
		})
	}
}

// A cone that leaves out .skillrepo/ says so, instead of "not a library".
func TestSparseConeWithoutConfigSaysSo(t *testing.T) {
	l, env := newTestLibrary(t)
	gitCmd(t, l, env, "sparse-checkout", "set", "--cone", "ci-debugging")
	l.repo.Close()
	_, err := Open(l.Root, openOpts(env))
	if err == nil || !strings.Contains(err.Error(), "outside the sparse checkout") {
		t.Fatalf("err = %v", err)
	}
	gitCmd(t, l, env, "sparse-checkout", "add", ".skillrepo")
	l2, err := Open(l.Root, openOpts(env))
	if err != nil {
		t.Fatal(err)
	}
	l2.repo.Close()
}

// Init is restartable from the states a kill leaves —
// a .git with only objects/ and refs/, a temp file of its own beside
// .gitignore — and never commits its temp files.
func TestInitRestartsAfterKill(t *testing.T) {
	env := testEnv(t)
	dir := filepath.Join(t.TempDir(), "lib")
	os.MkdirAll(filepath.Join(dir, ".git", "objects"), 0o755)
	os.MkdirAll(filepath.Join(dir, ".git", "refs"), 0o755)
	os.MkdirAll(filepath.Join(dir, "demo"), 0o755)
	os.WriteFile(filepath.Join(dir, "demo", "SKILL.md"), []byte("---\nname: demo\ndescription: Use when testing init.\n---\nbody\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "..gitignore.tmp-12345"), []byte("/.usage.json\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, ".skillrepo"), 0o755)
	os.WriteFile(filepath.Join(dir, ".skillrepo", ".config.yaml.tmp-777"), []byte("half"), 0o644)
	if _, err := Init(context.Background(), dir, InitOptions{OpenOptions: openOpts(env)}); err != nil {
		t.Fatalf("init after a kill: %v", err)
	}
	files := gitIn(t, dir, env, false, "ls-tree", "-r", "--name-only", "HEAD")
	if strings.Contains(files, "tmp-") {
		t.Errorf("init committed its temp files:\n%s", files)
	}
	if !strings.Contains(files, "demo/SKILL.md") || !strings.Contains(files, ".skillrepo/config.yaml") {
		t.Errorf("tree:\n%s", files)
	}
	// The repository is what git init makes.
	if v := strings.TrimSpace(gitIn(t, dir, env, false, "config", "core.repositoryformatversion")); v != "0" {
		t.Errorf("repositoryformatversion = %q", v)
	}
	gitIn(t, dir, env, false, "fsck", "--strict", "--no-progress")
	if st := gitIn(t, dir, env, false, "status", "--porcelain"); st != "" {
		t.Errorf("status: %q", st)
	}
	if _, err := Init(context.Background(), dir, InitOptions{OpenOptions: openOpts(env)}); err != nil {
		t.Fatalf("second init: %v", err)
	}
}

// sync honours git's assume-unchanged and skip-worktree flags as 'git add
// -A' does: an edited (or removed) flagged file is not recorded, and its
// flag stays.
func TestSyncHonoursIndexFlags(t *testing.T) {
	for _, flag := range []string{"--assume-unchanged", "--skip-worktree"} {
		t.Run(flag, func(t *testing.T) {
			l, env := newTestLibrary(t)
			head := gitCmd(t, l, env, "rev-parse", "HEAD")
			edited := "ci-debugging/SKILL.md"
			removed := "devops/docker-cleanup/SKILL.md"
			gitCmd(t, l, env, "update-index", flag, edited, removed)
			if err := os.WriteFile(filepath.Join(l.Root, edited), []byte("---\nname: ci-debugging\ndescription: local only\n---\nmine\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(l.Root, removed))
			res, err := l.Sync(context.Background(), SyncOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Changes) != 0 || gitCmd(t, l, env, "rev-parse", "HEAD") != head {
				t.Errorf("sync recorded %+v; git records nothing", res.Changes)
			}
			if st := gitCmd(t, l, env, "status", "--porcelain"); st != "" {
				t.Errorf("git status = %q, want clean (git ignores flagged files)", st)
			}
			letter := map[string]string{"--assume-unchanged": "h", "--skip-worktree": "S"}[flag]
			for _, p := range []string{edited, removed} {
				if got := gitCmd(t, l, env, "ls-files", "-v", p); !strings.HasPrefix(got, letter+" ") {
					t.Errorf("flag of %s after sync: %q", p, got)
				}
			}
		})
	}
}

// A person's staged, uncommitted file is theirs to commit: a sync no one
// asked for (an agent hook's, LeaveStaged) records the other edits and
// leaves it staged, and says so.
func TestSyncLeavesStagedFiles(t *testing.T) {
	l, env := newTestLibrary(t)
	staged := "ci-debugging/references/mine.md"
	os.MkdirAll(filepath.Join(l.Root, "ci-debugging", "references"), 0o755)
	os.WriteFile(filepath.Join(l.Root, staged), []byte("the person's\n"), 0o644)
	gitCmd(t, l, env, "add", staged)
	p := filepath.Join(l.Root, "devops", "docker-cleanup", "SKILL.md")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, "\nAn unstaged edit.\n"...), 0o644)
	res, err := l.Sync(context.Background(), SyncOptions{LeaveStaged: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 1 || res.Changes[0].Path != "devops/docker-cleanup/SKILL.md" {
		t.Errorf("changes = %+v, want only the unstaged edit", res.Changes)
	}
	if len(res.LeftStaged) != 1 || res.LeftStaged[0] != staged {
		t.Errorf("left staged = %q", res.LeftStaged)
	}
	if st := gitCmd(t, l, env, "status", "--porcelain"); st != "A  "+staged+"\n" {
		t.Errorf("git status = %q, want the person's file still staged", st)
	}
	gitCmd(t, l, env, "commit", "-q", "-m", "the person's commit")
	if got := gitCmd(t, l, env, "show", "--name-only", "--format=", "HEAD"); got != staged+"\n" {
		t.Errorf("the person's commit holds %q", got)
	}
}

// In a sparse checkout with no edits, sync records nothing and succeeds:
// files outside the cone (skip-worktree) are not deletions.
func TestSyncInSparseCheckoutWithoutEdits(t *testing.T) {
	l, env := newTestLibrary(t)
	gitCmd(t, l, env, "sparse-checkout", "set", "--cone", ".skillrepo", "ci-debugging")
	head := gitCmd(t, l, env, "rev-parse", "HEAD")
	res, err := l.Sync(context.Background(), SyncOptions{})
	if err != nil {
		t.Fatalf("sync with no edits in a sparse checkout: %v", err)
	}
	if len(res.Changes) != 0 || gitCmd(t, l, env, "rev-parse", "HEAD") != head {
		t.Errorf("sync recorded %+v", res.Changes)
	}
	// An edit inside the cone is recorded.
	p := filepath.Join(l.Root, "ci-debugging", "SKILL.md")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, "\nMore.\n"...), 0o644)
	if res, err = l.Sync(context.Background(), SyncOptions{}); err != nil || len(res.Changes) != 1 {
		t.Fatalf("sync of an edit in the cone: %+v, %v", res, err)
	}
	assertConsistent(t, l, env)
}

// Rejecting a proposal whose branch a linked worktree has checked out is
// refused before anything is written: no rejection record appears, so
// the proposal cannot end up both rejected and (once the worktree goes)
// approved.
func TestRejectRefusesBranchCheckedOutElsewhere(t *testing.T) {
	l, env := newTestLibrary(t)
	propose(t, l, "p1", "ci-debugging", "Pitfalls", "Traps")
	wt := filepath.Join(t.TempDir(), "p1")
	gitCmd(t, l, env, "worktree", "add", "-q", wt, ProposalBranch("p1"))
	refs := gitCmd(t, l, env, "for-each-ref")
	_, err := person(l).RejectProposal(context.Background(), "p1", RejectOptions{Reason: "no"})
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "checked out in the worktree") {
		t.Fatalf("err = %v, want the checked-out refusal", err)
	}
	if got := gitCmd(t, l, env, "for-each-ref"); got != refs {
		t.Errorf("refs changed:\n%s\nwas\n%s", got, refs)
	}
}

// A proposal branch being rebased in a linked worktree (git rebase -i
// stopped, HEAD detached) counts as checked out, as git counts it: a
// write to it and its rejection are refused, and the person's rebase
// --continue then finishes.
func TestProposalUnderRebaseIsBusy(t *testing.T) {
	l, env := newTestLibrary(t)
	propose(t, l, "p1", "ci-debugging", "Pitfalls", "Traps")
	wt := filepath.Join(t.TempDir(), "p1")
	gitCmd(t, l, env, "worktree", "add", "-q", "--detach", wt, "main")
	gitIn(t, wt, env, false, "checkout", "-q", ProposalBranch("p1"))
	cmd := gitExec(t, wt, env, "rebase", "-i", "HEAD~1")
	cmd.Env = append(cmd.Env, "GIT_SEQUENCE_EDITOR=sed -i -e 1s/^pick/edit/")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git rebase -i: %v\n%s", err, out)
	}
	if head := gitIn(t, wt, env, false, "rev-parse", "--abbrev-ref", "HEAD"); head != "HEAD\n" {
		t.Fatalf("the rebase did not stop with HEAD detached: %q", head)
	}
	refs := gitCmd(t, l, env, "for-each-ref")
	_, err := l.apply(context.Background(), applyOptions{Branch: ProposalBranch("p1"),
		Ops:        []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("Traps"), NewString: strp("Snares")}},
		Provenance: Provenance{Origin: OriginBackgroundReview, ReviewID: "r-p1", Model: "m"}})
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "being rebased") {
		t.Errorf("write to the branch under rebase: %v, want refused", err)
	}
	if _, err := person(l).RejectProposal(context.Background(), "p1", RejectOptions{Reason: "no"}); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "being rebased") {
		t.Errorf("reject of the branch under rebase: %v, want refused", err)
	}
	if got := gitCmd(t, l, env, "for-each-ref"); got != refs {
		t.Errorf("refs changed:\n%s\nwas\n%s", got, refs)
	}
	gitIn(t, wt, env, false, "rebase", "--continue")
}
