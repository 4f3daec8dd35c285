package gitstore

// Repository states git supports that the engine does not write through.
// The principle: for every state git supports, either do exactly what git
// would do, or refuse before writing anything, saying why and what ends
// the state. These are refused.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// StateError is a refusal to write because of the repository's state (an
// operation in progress, unmerged paths, a branch checked out in another
// worktree). Nothing was written. It matches ErrConflict: the write may
// succeed once the state ends.
type StateError struct {
	// State says what is going on ("a merge is in progress").
	State string
	// Fix is the git command(s) that end it.
	Fix string
	// where is the linked worktree's path, for a branch checked out there.
	where string
}

func (e *StateError) Error() string { return "refusing to write: " + e.State }

// Is makes errors.Is(err, ErrConflict) true.
func (e *StateError) Is(target error) bool { return target == ErrConflict }

// Hint names the git command that ends the state.
func (e *StateError) Hint() string { return e.Fix }

// checkNoOperationInProgress refuses while git is in the middle of a
// merge, cherry-pick, revert, rebase or am: a commit then would record
// conflict markers, or be lost when the operation continues. The index's
// unmerged entries are checkUnmerged's, which a write runs once its
// function has run beside the index read (tx.go).
func (l *Repo) checkNoOperationInProgress() error {
	states := []struct {
		path  string
		state string
		fix   string
	}{
		{"MERGE_HEAD", "a merge is in progress", "finish it with 'git commit' once the conflicts are resolved, or abort it with 'git merge --abort'"},
		{"CHERRY_PICK_HEAD", "a cherry-pick is in progress", "finish it with 'git cherry-pick --continue', or abort it with 'git cherry-pick --abort'"},
		{"REVERT_HEAD", "a revert is in progress", "finish it with 'git revert --continue', or abort it with 'git revert --abort'"},
		{"rebase-merge", "a rebase is in progress", "finish it with 'git rebase --continue', or abort it with 'git rebase --abort'"},
		{"rebase-apply/applying", "'git am' is in progress", "finish it with 'git am --continue', or abort it with 'git am --abort'"},
		{"rebase-apply", "a rebase is in progress", "finish it with 'git rebase --continue', or abort it with 'git rebase --abort'"},
		{"sequencer", "a cherry-pick or revert sequence is in progress", "finish it with 'git cherry-pick --continue' (or 'git revert --continue'), or end it with '--abort' or '--quit'"},
	}
	for _, s := range states {
		if _, err := os.Lstat(filepath.Join(l.GitDir, filepath.FromSlash(s.path))); err == nil {
			return &StateError{State: s.state + " (.git/" + s.path + " exists)", Fix: s.fix}
		}
	}
	return nil
}

// checkUnmerged refuses while the index holds unmerged entries (a
// conflict git left): a commit then would record conflict markers.
func (l *Repo) checkUnmerged() error {
	idx, _, err := l.ReadIndex()
	if err != nil {
		// An index we cannot read: a write to the checked-out branch
		// refuses it itself; other branches do not touch it.
		return nil
	}
	if paths := idx.unmerged(); len(paths) > 0 {
		more := ""
		if len(paths) > 5 {
			more = fmt.Sprintf(" and %d more", len(paths)-5)
			paths = paths[:5]
		}
		return &StateError{
			State: "the index has unmerged paths: " + strings.Join(paths, ", ") + more,
			Fix:   "resolve them and 'git add' them (then 'git commit'), or discard the merge with 'git reset --merge'",
		}
	}
	return nil
}

// unmerged lists the paths with conflict stages, in index order.
func (idx *Index) unmerged() []string {
	if idx.noStages {
		return nil // seen as it was read
	}
	defer runtime.KeepAlive(idx)
	var out []string
	for i := range idx.offs {
		if idx.rawStage(i) == 0 {
			continue
		}
		name := string(idx.rawName(i))
		if len(out) == 0 || out[len(out)-1] != name {
			out = append(out, name)
		}
	}
	return out
}

// checkNotCheckedOutElsewhere refuses to move or delete a branch that a
// linked worktree has checked out, or that a rebase or bisect in any
// worktree (this one included) is working on, as git does
// (die_if_checked_out): that worktree's index and files would silently
// hold the old version, its next 'git commit -a' would revert our write,
// and a 'git rebase --continue' would fail or move the branch back.
func (l *Repo) checkNotCheckedOutElsewhere(ref string) error {
	if !strings.HasPrefix(ref, "refs/heads/") {
		return nil
	}
	branch := strings.TrimPrefix(ref, "refs/heads/")
	// The worktrees' administrative folders: this one's, then each linked
	// one's.
	type wt struct{ admin, where string }
	wts := []wt{{l.GitDir, l.Root}}
	dir := filepath.Join(l.GitDir, "worktrees")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		where := e.Name()
		if b, err := os.ReadFile(filepath.Join(dir, e.Name(), "gitdir")); err == nil {
			where = filepath.Dir(strings.TrimSpace(string(b)))
		}
		wts = append(wts, wt{filepath.Join(dir, e.Name()), where})
	}
	for i, w := range wts {
		if i > 0 {
			if head, err := os.ReadFile(filepath.Join(w.admin, "HEAD")); err == nil && strings.TrimSpace(strings.TrimPrefix(string(head), "ref:")) == ref {
				return &StateError{
					where: w.where,
					State: fmt.Sprintf("branch %s is checked out in the worktree %s", branch, w.where),
					Fix:   fmt.Sprintf("commit or switch away in that worktree ('git -C %s switch --detach'), or remove it with 'git worktree remove %s', then retry", w.where, w.where),
				}
			}
		}
		if op := branchOperation(w.admin, ref); op != "" {
			return &StateError{
				State: fmt.Sprintf("branch %s is being %s in the worktree %s", branch, op, w.where),
				Fix:   fmt.Sprintf("finish it there ('git -C %s rebase --continue' or 'git bisect reset'), or abort it ('git -C %s rebase --abort'), then retry", w.where, w.where),
			}
		}
	}
	return nil
}

// branchOperation says whether a rebase or bisect in the worktree whose
// administrative folder is admin works on ref ("rebased", "bisected"),
// as git's is_worktree_being_rebased and is_worktree_being_bisected.
func branchOperation(admin, ref string) string {
	for _, f := range []string{"rebase-merge/head-name", "rebase-apply/head-name"} {
		if b, err := os.ReadFile(filepath.Join(admin, f)); err == nil && strings.TrimSpace(string(b)) == ref {
			return "rebased"
		}
	}
	if b, err := os.ReadFile(filepath.Join(admin, "BISECT_START")); err == nil {
		if s := strings.TrimSpace(string(b)); s != "" && (s == ref || "refs/heads/"+s == ref) {
			return "bisected"
		}
	}
	return ""
}

// CheckBranchFree fails with a *StateError (matching ErrConflict) when
// branch (a name or full ref) is checked out in a linked worktree, or a
// rebase or bisect in any worktree works on it: moving or deleting it
// then is what git refuses ("is already checked out at"). Callers that
// write other refs before moving this one check first, so a refusal
// leaves nothing written.
func (l *Repo) CheckBranchFree(branch string) error {
	return l.checkNotCheckedOutElsewhere(BranchRef(branch))
}

// RemoveLinkedWorktree removes the linked worktree that has branch ref
// checked out (the one a conflict hint told the user to add), with
// 'git worktree remove', which refuses when that worktree holds changes
// or untracked files; one holding files git ignores (but those ours names)
// is kept too: nothing of the user's is lost. It returns the
// worktree's path ("" when none has ref checked out).
func (l *Repo) RemoveLinkedWorktree(ctx context.Context, ref string, ours func(path string) bool) (string, error) {
	var se *StateError
	if err := l.checkNotCheckedOutElsewhere(ref); !errors.As(err, &se) {
		return "", nil
	}
	where := se.where
	git, err := exec.LookPath("git")
	if err != nil {
		return where, se
	}
	// git worktree remove deletes the files git ignores (a .env, a
	// build) with the worktree, and they were never committed anywhere:
	// a worktree that holds any is the person's, and stays.
	st := exec.CommandContext(ctx, git, "status", "--porcelain", "--ignored", "--untracked-files=normal")
	st.Dir = where // git finds the worktree from its .git file
	for _, kv := range l.GitEnv() {
		if !strings.HasPrefix(kv, "GIT_DIR=") && !strings.HasPrefix(kv, "GIT_WORK_TREE=") {
			st.Env = append(st.Env, kv)
		}
	}
	out, err := st.Output()
	if err != nil {
		return where, &StateError{
			State: fmt.Sprintf("branch %s is checked out in the worktree %s, whose status git could not read: %v", strings.TrimPrefix(ref, "refs/heads/"), where, err),
			Fix:   fmt.Sprintf("'git worktree remove %s' when you are done with it", where),
		}
	}
	if ignored := ignoredPaths(out, ours); len(ignored) > 0 {
		return where, &StateError{
			State: fmt.Sprintf("branch %s is checked out in the worktree %s, which holds files git ignores (%s): removing it would delete them", strings.TrimPrefix(ref, "refs/heads/"), where, strings.Join(ignored, ", ")),
			Fix:   fmt.Sprintf("keep what you need from it, then 'git worktree remove --force %s'", where),
		}
	}
	cmd := exec.CommandContext(ctx, git, "worktree", "remove", where)
	cmd.Dir = l.Root
	cmd.Env = l.GitEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return where, &StateError{
			State: fmt.Sprintf("branch %s is checked out in the worktree %s, which git would not remove: %s", strings.TrimPrefix(ref, "refs/heads/"), where, strings.TrimSpace(string(out))),
			Fix:   fmt.Sprintf("commit or discard the changes there, then 'git worktree remove %s'", where),
		}
	}
	return where, nil
}

// ignoredPaths lists, from git status --porcelain --ignored, the paths
// git ignores (lines "!! path") but those ours says are the caller's own,
// at most five.
func ignoredPaths(status []byte, ours func(path string) bool) []string {
	var out []string
	for _, line := range strings.Split(string(status), "\n") {
		if p, ok := strings.CutPrefix(line, "!! "); ok && len(out) < 5 && (ours == nil || !ours(p)) {
			out = append(out, p)
		}
	}
	return out
}
