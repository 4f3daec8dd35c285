package gitstore

// The git compatibility suite of the engine: each test builds a repository
// state with the real git binary, runs our write, and asserts either what
// git would have done or a refusal with nothing changed.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// snapshotState is what a refused write must leave byte-identical: every
// ref, the index and the work tree.
type repoState struct {
	refs, index, status string
	files               map[string]string
}

func captureState(t *testing.T, l *Repo, env map[string]string) repoState {
	t.Helper()
	st := repoState{
		refs: gitCmd(t, l, env, "for-each-ref", "--format=%(objectname) %(refname)"),
		// Standard output only: git status re-reads a racily clean file
		// (written in the index's second) and then warns on standard
		// error about its content, as a filter's check does; whether it
		// does depends on the clock, not on what changed.
		status: gitStdout(t, l, env, "status", "--porcelain=v2", "--untracked-files=all"),
		files:  map[string]string{},
	}
	head, _ := os.ReadFile(filepath.Join(l.GitDir, "HEAD"))
	st.refs += "HEAD " + string(head)
	b, _ := os.ReadFile(filepath.Join(l.GitDir, "index"))
	st.index = string(b)
	filepath.WalkDir(l.Root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(l.Root, p)
			b, _ := os.ReadFile(p)
			st.files[rel] = string(b)
		}
		return nil
	})
	return st
}

// assertUnchanged checks a refusal changed nothing and left git fsck clean.
func assertUnchanged(t *testing.T, l *Repo, env map[string]string, before repoState) {
	t.Helper()
	after := captureState(t, l, env)
	if after.refs != before.refs {
		t.Errorf("refs changed:\n%s\nwas\n%s", after.refs, before.refs)
	}
	if after.index != before.index {
		t.Errorf("the index changed")
	}
	if after.status != before.status {
		t.Errorf("git status changed:\n%s\nwas\n%s", after.status, before.status)
	}
	if len(after.files) != len(before.files) {
		t.Errorf("work tree has %d files, had %d", len(after.files), len(before.files))
	}
	for p, b := range before.files {
		if after.files[p] != b {
			t.Errorf("work tree file %s changed", p)
		}
	}
	gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
}

// startSlowCommit starts `git commit -a` whose pre-commit hook sleeps, and
// returns once git holds index.lock; wait returns git's result.
func startSlowCommit(t *testing.T, l *Repo, env map[string]string, sleep string) (wait func() error) {
	t.Helper()
	hook := filepath.Join(l.GitDir, "hooks", "pre-commit")
	os.MkdirAll(filepath.Dir(hook), 0o755)
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nsleep "+sleep+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(l.Root, "devops", "docker-cleanup", "SKILL.md")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(b, "\nA person's note.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := gitExec(t, l.Root, env, "commit", "-q", "-a", "-m", "a person's commit")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; !exists(filepath.Join(l.GitDir, "index.lock")); i++ {
		if i > 400 {
			t.Fatal("git commit never took index.lock")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return func() error {
		err := cmd.Wait()
		if err != nil {
			return errors.New(err.Error() + ": " + out.String())
		}
		return nil
	}
}

// A git commit that holds index.lock (a slow pre-commit
// hook) keeps it: our write waits for it, as git would, then lands on top
// of the person's commit; both commits are in the history.
func TestCompatWriteWaitsForGitCommit(t *testing.T) {
	l, env := newTestRepo(t)
	l.lockTimeout = 20 * time.Second
	wait := startSlowCommit(t, l, env, "1")
	res, err := writeFile(l, "main", "ci-debugging/references/ours.md", "ours\n")
	if err != nil {
		t.Fatalf("our write: %v", err)
	}
	if err := wait(); err != nil {
		t.Fatalf("the person's git commit failed: %v", err)
	}
	log := gitCmd(t, l, env, "log", "--format=%s", "-3")
	if !strings.HasPrefix(log, "write ci-debugging/references/ours.md\na person's commit\n") {
		t.Errorf("history:\n%s", log)
	}
	if got := strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "main")); got != res.New.String() {
		t.Errorf("main = %s, want our commit %s", got, res.New)
	}
	assertConsistent(t, l, env)
}

// A plain git commit (no -a) holds no index.lock while its pre-commit
// hook runs, and moves HEAD only if it still holds the commit it read as
// it started: our write waits for it to finish instead of moving the
// branch under it (which would make it fail with "cannot lock ref"),
// then lands on top of it.
func TestCompatWriteWaitsForPlainGitCommit(t *testing.T) {
	l, env := newTestRepo(t)
	l.lockTimeout = 20 * time.Second
	hook := filepath.Join(l.GitDir, "hooks", "pre-commit")
	os.MkdirAll(filepath.Dir(hook), 0o755)
	started := filepath.Join(t.TempDir(), "started")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch "+started+"\nsleep 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(l.Root, "devops", "docker-cleanup", "SKILL.md")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, "\nA person's note.\n"...), 0o644)
	gitCmd(t, l, env, "add", "devops/docker-cleanup/SKILL.md")
	cmd := gitExec(t, l.Root, env, "commit", "-q", "-m", "a person's commit")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; !exists(started); i++ {
		if i > 2000 {
			t.Fatal("the pre-commit hook never ran")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if exists(filepath.Join(l.GitDir, "index.lock")) {
		t.Fatal("git holds index.lock during the hook: the test would not test the unlocked case")
	}
	if _, err := writeFile(l, "main", "ci-debugging/references/ours.md", "ours\n"); err != nil {
		t.Fatalf("our write: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the person's git commit failed: %v\n%s", err, out.String())
	}
	if log := gitCmd(t, l, env, "log", "--format=%s", "-2"); log != "write ci-debugging/references/ours.md\na person's commit\n" {
		t.Errorf("history:\n%s", log)
	}
	assertConsistent(t, l, env)
}

// A git command that keeps index.lock longer than our lock timeout: the
// write is refused as locked (naming index.lock) and nothing changes.
func TestCompatWriteRefusedWhileGitHoldsIndexLock(t *testing.T) {
	l, env := newTestRepo(t)
	lock := filepath.Join(l.GitDir, "index.lock")
	if err := os.WriteFile(lock, []byte("a git process is writing"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := captureState(t, l, env)
	_, err := writeFile(l, "main", "ci-debugging/references/ours.md", "ours\n")
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "index.lock") {
		t.Fatalf("err = %v, want a locked error naming index.lock", err)
	}
	if b, _ := os.ReadFile(lock); string(b) != "a git process is writing" {
		t.Error("git's index.lock was touched")
	}
	os.Remove(lock)
	assertUnchanged(t, l, env, before)
}

// Recovery removes the index.lock a killed write of ours left, and never
// one it cannot prove is its own: a git command's lock taken after the
// crash stays, and the recovery waits for it, then reports it.
func TestCompatRecoveryRemovesOnlyOurIndexLock(t *testing.T) {
	l, env := newTestRepo(t)
	l.testOnlyCrashAt = "ref"
	if _, err := writeFile(l, "main", "ci-debugging/references/ours.md", "ours\n"); !errors.Is(err, errTestOnlyCrash) {
		t.Fatal(err)
	}
	lock := filepath.Join(l.GitDir, "index.lock")
	if !exists(lock) {
		t.Fatal("the crashed write left no index.lock (it takes it before the ref moves)")
	}
	l.Close()
	// A git command's lock in its place (same path, new file).
	os.Remove(lock)
	if err := os.WriteFile(lock, []byte("DIRC git's new index"), 0o644); err != nil {
		t.Fatal(err)
	}
	l2, err := Open(l.Root, openOpts(env))
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if err := l2.Recover(context.Background()); !errors.Is(err, ErrLocked) {
		t.Fatalf("recovery with a foreign index.lock: %v, want ErrLocked", err)
	}
	if b, err := os.ReadFile(lock); err != nil || string(b) != "DIRC git's new index" {
		t.Fatalf("the foreign index.lock was touched: %q %v", b, err)
	}
	// Once git is done, recovery finishes our write.
	os.Remove(lock)
	if err := l2.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	assertConsistent(t, l2, env)

	// Our own lock, left by a crash, is removed by the next command.
	l2.testOnlyCrashAt = "ref"
	if _, err := writeFile(l2, "main", "ci-debugging/references/ours2.md", "ours\n"); !errors.Is(err, errTestOnlyCrash) {
		t.Fatal(err)
	}
	l2.Close()
	l3 := openTestRepo(t, l.Root, env)
	if exists(lock) {
		t.Error("our own index.lock was left behind")
	}
	assertConsistent(t, l3, env)
}

// A file of the write cannot be written (a folder appeared where it goes
// after the checks): the work tree and index are written before the ref
// moves, so nothing lands — the write fails, the branch stays, the paths
// already written are put back, the folder is kept — and a retry, once the
// folder is gone, succeeds.
func TestCompatWorktreeFailureLandsNothing(t *testing.T) {
	l, env := newTestRepo(t)
	obstacle := filepath.Join(l.Root, "ci-debugging", "references", "ours.md")
	l.testOnlyBeforeWorktree = func() {
		os.MkdirAll(obstacle, 0o755)
		os.WriteFile(filepath.Join(obstacle, "x"), []byte("the user's\n"), 0o644)
	}
	before := gitCmd(t, l, env, "rev-parse", "main")
	_, err := l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
		for _, p := range []string{"ci-debugging/references/a-first.md", "ci-debugging/references/ours.md"} {
			if err := tx.WriteFile(p, []byte("ours\n"), false); err != nil {
				return err
			}
		}
		_, err := tx.Commit("two files")
		return err
	})
	l.testOnlyBeforeWorktree = nil
	if err == nil || !strings.Contains(err.Error(), "ours.md") {
		t.Fatalf("err = %v, want the failed file named", err)
	}
	if after := gitCmd(t, l, env, "rev-parse", "main"); after != before {
		t.Fatalf("main moved to %s", after)
	}
	if exists(filepath.Join(l.Root, "ci-debugging", "references", "a-first.md")) {
		t.Error("the file written before the failure was not put back")
	}
	if !exists(filepath.Join(obstacle, "x")) {
		t.Error("the folder in the way was removed")
	}
	if exists(l.intentPath()) || exists(filepath.Join(l.GitDir, "index.lock")) {
		t.Error("the failed write left its intent record or index.lock")
	}
	if st := gitCmd(t, l, env, "status", "--porcelain"); st != "?? ci-debugging/references/ours.md/\n" {
		t.Errorf("status = %q, want only the folder in the way", st)
	}
	os.RemoveAll(obstacle)
	if _, err := writeFile(l, "main", "ci-debugging/references/ours.md", "ours\n"); err != nil {
		t.Fatal(err)
	}
	assertConsistent(t, l, env)
}

// The lock hint names the holding process and never
// says to delete the lock file (an flock: deleting it lets a second writer
// in while the first still runs).
func TestCompatLockHintNamesProcess(t *testing.T) {
	l, _ := newTestRepo(t)
	cmd := exec.Command("flock", filepath.Join(l.repoStateDir(), "lock"), "sleep", "3")
	if err := cmd.Start(); err != nil {
		t.Skip("no flock(1):", err)
	}
	defer cmd.Process.Kill()
	var err error
	for i := 0; i < 100; i++ {
		unlock, lerr := l.Lock(context.Background())
		if err = lerr; err != nil {
			break
		}
		unlock() // flock(1) has not taken it yet
		time.Sleep(10 * time.Millisecond)
	}
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v, want LockedError", err)
	}
	if le.PID != cmd.Process.Pid {
		t.Errorf("holder pid = %d, want %d (%s)", le.PID, cmd.Process.Pid, le.Error())
	}
	if h := le.Hint(); strings.Contains(h, "remove") || strings.Contains(h, "delete") || !strings.Contains(h, "process") {
		t.Errorf("hint = %q", h)
	}
}

// conflictOn makes branch side and main change the same line of
// ci-debugging/SKILL.md with git, and returns side's commit.
func conflictOn(t *testing.T, l *Repo, env map[string]string) {
	t.Helper()
	p := filepath.Join(l.Root, "ci-debugging", "SKILL.md")
	orig, _ := os.ReadFile(p)
	gitCmd(t, l, env, "switch", "-q", "-c", "side")
	os.WriteFile(p, []byte(strings.Replace(string(orig), "## Pitfalls", "## Traps", 1)), 0o644)
	gitCmd(t, l, env, "commit", "-qam", "side: traps")
	gitCmd(t, l, env, "switch", "-q", "main")
	os.WriteFile(p, []byte(strings.Replace(string(orig), "## Pitfalls", "## Snares", 1)), 0o644)
	gitCmd(t, l, env, "commit", "-qam", "main: snares")
}

// While git is in the middle of an operation, or the
// index holds unmerged paths, every write is refused (naming the state and
// the command that ends it) and nothing changes.
func TestCompatRefusesDuringOperations(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, l *Repo, env map[string]string)
		want  string // in the error
		fix   string // in the hint
	}{
		{"merge", func(t *testing.T, l *Repo, env map[string]string) {
			conflictOn(t, l, env)
			gitIn(t, l.Root, env, true, "merge", "-q", "side")
		}, "merge is in progress", "git merge --abort"},
		{"cherry-pick", func(t *testing.T, l *Repo, env map[string]string) {
			conflictOn(t, l, env)
			gitIn(t, l.Root, env, true, "cherry-pick", "side")
		}, "cherry-pick is in progress", "git cherry-pick --continue"},
		{"revert", func(t *testing.T, l *Repo, env map[string]string) {
			conflictOn(t, l, env)
			p := filepath.Join(l.Root, "ci-debugging", "SKILL.md")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(b), "## Snares", "## Hazards", 1)), 0o644)
			gitCmd(t, l, env, "commit", "-qam", "main: hazards")
			gitIn(t, l.Root, env, true, "revert", "--no-edit", "main~1")
		}, "revert is in progress", "git revert --abort"},
		{"rebase", func(t *testing.T, l *Repo, env map[string]string) {
			conflictOn(t, l, env)
			gitIn(t, l.Root, env, true, "rebase", "side")
		}, "rebase is in progress", "git rebase --abort"},
		{"rebase --apply", func(t *testing.T, l *Repo, env map[string]string) {
			conflictOn(t, l, env)
			gitIn(t, l.Root, env, true, "rebase", "--apply", "side")
		}, "rebase is in progress", "git rebase --continue"},
		{"unmerged paths", func(t *testing.T, l *Repo, env map[string]string) {
			conflictOn(t, l, env)
			gitIn(t, l.Root, env, true, "merge", "-q", "side")
			for _, f := range []string{"MERGE_HEAD", "MERGE_MSG", "MERGE_MODE"} {
				os.Remove(filepath.Join(l.GitDir, f))
			}
		}, "unmerged paths: ci-debugging/SKILL.md", "git reset --merge"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, env := newTestRepo(t)
			c.setup(t, l, env)
			before := captureState(t, l, env)
			for _, branch := range []string{"main", "proposals/p1"} {
				_, err := l.Update(context.Background(), UpdateOptions{Branch: branch, From: "main"}, func(tx *Tx) error {
					if err := tx.WriteFile("ci-debugging/references/ours.md", []byte("ours\n"), false); err != nil {
						return err
					}
					_, err := tx.Commit("ours")
					return err
				})
				var se *StateError
				if !errors.As(err, &se) || !errors.Is(err, ErrConflict) {
					t.Fatalf("write to %s: err = %v, want a StateError", branch, err)
				}
				if !strings.Contains(err.Error(), c.want) || !strings.Contains(se.Hint(), c.fix) {
					t.Errorf("write to %s: %v (hint %q), want %q and %q", branch, err, se.Hint(), c.want, c.fix)
				}
			}
			assertUnchanged(t, l, env, before)
		})
	}
}

// A branch checked out in a linked worktree is never
// moved under it (git refuses the same); other branches are written.
func TestCompatRefusesBranchOfLinkedWorktree(t *testing.T) {
	l, env := newTestRepo(t)
	other := filepath.Join(t.TempDir(), "other-wt")
	gitCmd(t, l, env, "worktree", "add", "-q", "-b", "other", other)
	detached := filepath.Join(t.TempDir(), "detached-wt")
	gitCmd(t, l, env, "worktree", "add", "-q", "--detach", detached)
	before := captureState(t, l, env)
	otherBefore := gitIn(t, other, env, false, "status", "--porcelain=v2", "--branch")
	_, err := writeFile(l, "other", "ci-debugging/references/ours.md", "ours\n")
	var se *StateError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "checked out in the worktree "+other) {
		t.Fatalf("err = %v, want a refusal naming %s", err, other)
	}
	if err := l.DeleteRef("refs/heads/other", ZeroHash); !errors.As(err, &se) {
		t.Errorf("delete of a checked-out branch: %v", err)
	}
	assertUnchanged(t, l, env, before)
	if got := gitIn(t, other, env, false, "status", "--porcelain=v2", "--branch"); got != otherBefore {
		t.Errorf("the linked worktree changed:\n%s", got)
	}
	// The checked-out branch of the main worktree, and a free branch, are
	// written as before.
	if _, err := writeFile(l, "main", "ci-debugging/references/ours.md", "ours\n"); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, l, env, "branch", "free")
	if _, err := writeFile(l, "free", "ci-debugging/references/free.md", "free\n"); err != nil {
		t.Fatal(err)
	}
	assertConsistent(t, l, env)
}

// Git subprocesses (gc, push, pull, worktree) work on
// this repository even when the caller's environment points git at
// another one (a hook inherits GIT_DIR and GIT_INDEX_FILE).
func TestCompatGitEnvIgnoresInheritedLocation(t *testing.T) {
	l, env := newTestRepo(t)
	other := t.TempDir()
	gitIn(t, other, env, false, "init", "-q")
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(other, ".git", "index"))
	t.Setenv("GIT_OBJECT_DIRECTORY", filepath.Join(other, ".git", "objects"))
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = t.TempDir() // not even inside the repository
		cmd.Env = l.GitEnv()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := run("rev-parse", "--absolute-git-dir"); got != l.GitDir {
		t.Errorf("git dir = %s, want %s", got, l.GitDir)
	}
	if got := run("rev-parse", "--show-toplevel"); got != l.Root {
		t.Errorf("work tree = %s, want %s", got, l.Root)
	}
	if got := run("status", "--porcelain"); got != "" {
		t.Errorf("status through the caller's index: %q", got)
	}
	head := gitCmd(t, l, map[string]string{"GIT_DIR": filepath.Join(l.Root, ".git"), "GIT_WORK_TREE": l.Root, "GIT_INDEX_FILE": filepath.Join(l.GitDir, "index"), "GIT_OBJECT_DIRECTORY": filepath.Join(l.GitDir, "objects")}, "rev-parse", "HEAD")
	if got := run("rev-parse", "HEAD"); got != strings.TrimSpace(head) {
		t.Errorf("HEAD = %s, want %s", got, head)
	}
}

// Sparse checkouts, cone and non-cone, set up by 'git
// sparse-checkout' (which turns on extensions.worktreeConfig) and by hand
// in .git/config. The engine opens them, agrees with git on which files
// are in the checkout, writes inside it keeping every skip-worktree bit,
// and refuses a write outside it with nothing changed.
func TestCompatSparseCheckout(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, l *Repo, env map[string]string)
	}{
		{"cone, worktreeConfig", func(t *testing.T, l *Repo, env map[string]string) {
			gitCmd(t, l, env, "sparse-checkout", "set", "--cone", "ci-debugging")
		}},
		{"non-cone, worktreeConfig", func(t *testing.T, l *Repo, env map[string]string) {
			gitCmd(t, l, env, "sparse-checkout", "set", "--no-cone", "/ci-debugging/", "/*.md")
		}},
		{"non-cone, core.sparseCheckout in .git/config", func(t *testing.T, l *Repo, env map[string]string) {
			gitCmd(t, l, env, "config", "core.sparseCheckout", "true")
			os.MkdirAll(filepath.Join(l.GitDir, "info"), 0o755)
			os.WriteFile(filepath.Join(l.GitDir, "info", "sparse-checkout"), []byte("/ci-debugging/\n"), 0o644)
			gitCmd(t, l, env, "read-tree", "-mu", "HEAD")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, env := newTestRepo(t)
			c.setup(t, l, env)
			l.Close()
			l = openTestRepo(t, l.Root, env)
			in := l.sparseMatcher()
			if in == nil {
				t.Fatal("the sparse checkout is not seen")
			}
			tags := gitCmd(t, l, env, "ls-files", "-t")
			for _, line := range strings.Split(strings.TrimSpace(tags), "\n") {
				tag, p, _ := strings.Cut(line, " ")
				if want := tag != "S"; in(p) != want {
					t.Errorf("%s: in the checkout = %v, git says %q", p, in(p), tag)
				}
			}
			// Outside: refused, nothing changed.
			before := captureState(t, l, env)
			_, err := patchFiles(l, edit{"devops/docker-cleanup/SKILL.md", "Measure first", "Measure"})
			var se *StateError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), "outside the sparse checkout") {
				t.Fatalf("write outside: %v", err)
			}
			assertUnchanged(t, l, env, before)
			// Inside: written as git would, other entries' bits kept.
			if _, err := patchFiles(l, edit{"ci-debugging/SKILL.md", "Pitfalls", "Traps"}); err != nil {
				t.Fatal(err)
			}
			if got := gitCmd(t, l, env, "ls-files", "-t"); got != tags {
				t.Errorf("skip-worktree bits changed:\n%s\nwas\n%s", got, tags)
			}
			if _, err := os.Stat(filepath.Join(l.Root, "devops")); err == nil {
				t.Error("a folder outside the checkout was materialised")
			}
			assertConsistent(t, l, env)
		})
	}
}

// With HEAD detached (and no operation in progress) a write goes to its
// branch, which is not checked out: the work tree and index stay as they
// are, and a warning says where the write went.
func TestCompatDetachedHeadWarns(t *testing.T) {
	l, env := newTestRepo(t)
	var warned []string
	l.warn = func(msg string) { warned = append(warned, msg) }
	gitCmd(t, l, env, "switch", "-q", "--detach", "main")
	res, err := writeFile(l, "main", "ci-debugging/references/ours.md", "ours\n")
	if err != nil {
		t.Fatal(err)
	}
	if res.CheckedOut || exists(filepath.Join(l.Root, "ci-debugging", "references", "ours.md")) {
		t.Error("a detached HEAD's work tree was written")
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "HEAD is detached") || !strings.Contains(warned[0], "git switch main") {
		t.Errorf("warnings = %q, want one saying the write went to main", warned)
	}
	if got, _ := readFileAt(l, "main", "ci-debugging/references/ours.md"); string(got) != "ours\n" {
		t.Errorf("main has %q", got)
	}
	assertConsistent(t, l, env)
}
