package gitstore

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testenv"
)

// The engine's tests build real repositories with the git binary and write
// them through the engine alone: no skill is parsed here. The fixture is
// the example library's files (../../example), imported as one commit the
// way init does.

// testEnv is a hermetic environment for the engine and the git binary.
func testEnv(t testing.TB) map[string]string {
	t.Helper()
	return testenv.Env(t.TempDir())
}

func openOpts(env map[string]string) Options {
	return Options{
		Getenv:      func(k string) string { return env[k] },
		Now:         func() time.Time { return time.Unix(testenv.Epoch, 0).UTC() },
		LockTimeout: 200 * time.Millisecond,
	}
}

// newTestRepo makes a repository whose main branch holds the example
// files, imported by one engine write, with the work tree checked out.
func newTestRepo(t *testing.T) (*Repo, map[string]string) {
	t.Helper()
	env := testEnv(t)
	dir := filepath.Join(t.TempDir(), "lib")
	if err := os.CopyFS(dir, os.DirFS("../../example")); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, env, false, "init", "-q", "-b", "main")
	l := openTestRepo(t, dir, env)
	_, err := l.Update(context.Background(), UpdateOptions{Branch: "main", RecordsWorktree: true, Reflog: "skillrepo: import"}, func(tx *Tx) error {
		if err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				if d != nil && d.Name() == ".git" {
					return fs.SkipDir
				}
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			b, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil {
				return err
			}
			return tx.WriteFile(p, b, fi.Mode()&0o111 != 0)
		}); err != nil {
			return err
		}
		_, err := tx.Commit("import")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// Open anew, as the next command would (newTestLibrary does too).
	l.Close()
	return openTestRepo(t, dir, env), env
}

// openTestRepo opens dir as the next command would: recovery first.
func openTestRepo(t *testing.T, dir string, env map[string]string) *Repo {
	t.Helper()
	l, err := Open(dir, openOpts(env))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Recover(context.Background()); err != nil {
		l.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// writeFile commits one file on branch.
func writeFile(l *Repo, branch, p, content string) (*UpdateResult, error) {
	return l.Update(context.Background(), UpdateOptions{Branch: branch}, func(tx *Tx) error {
		if err := tx.WriteFile(p, []byte(content), false); err != nil {
			return err
		}
		_, err := tx.Commit("write " + p)
		return err
	})
}

// edit is one replacement in a file: the first old becomes new.
type edit struct{ path, old, new string }

// patchFiles commits the edits on the main branch as one commit.
func patchFiles(l *Repo, edits ...edit) (*UpdateResult, error) {
	return l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
		for _, e := range edits {
			b, err := tx.ReadFile(e.path)
			if err != nil {
				return err
			}
			if !strings.Contains(string(b), e.old) {
				return fmt.Errorf("%s: %q not found", e.path, e.old)
			}
			_, m, _ := tx.Stat(e.path)
			if err := tx.WriteFile(e.path, []byte(strings.Replace(string(b), e.old, e.new, 1)), m == ModeExecutable); err != nil {
				return err
			}
		}
		_, err := tx.Commit("patch")
		return err
	})
}

func gitExec(t testing.TB, dir string, env map[string]string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
}

// gitIn runs the real git binary in dir and returns its output.
func gitIn(t testing.TB, dir string, env map[string]string, allowFail bool, args ...string) string {
	t.Helper()
	out, err := gitExec(t, dir, env, args...).CombinedOutput()
	if err != nil && !allowFail {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// gitCmd runs the real git binary in the repository's work tree.
func gitCmd(t testing.TB, l *Repo, env map[string]string, args ...string) string {
	t.Helper()
	return gitIn(t, l.Root, env, false, args...)
}

// gitStdout runs git in the work tree and returns its standard output
// alone.
func gitStdout(t testing.TB, l *Repo, env map[string]string, args ...string) string {
	t.Helper()
	out, err := gitExec(t, l.Root, env, args...).Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// gitTry runs git and returns its error instead of failing the test.
func gitTry(l *Repo, env map[string]string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = l.Root
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd.Run()
}

// assertConsistent checks what every write must leave: a clean status and
// a clean fsck.
func assertConsistent(t *testing.T, l *Repo, env map[string]string) {
	t.Helper()
	if st := gitCmd(t, l, env, "status", "--porcelain"); st != projectStatus(l) {
		t.Errorf("git status not clean:\n%s", st)
	}
	gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
}

// gitStdin runs git in dir with stdin as its input.
func gitStdin(t *testing.T, dir string, env map[string]string, stdin string, args ...string) string {
	t.Helper()
	cmd := gitExec(t, dir, env, args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// readBranch reads every file of branch's tip through the engine.
func readBranch(l *Repo, branch string) error {
	tip, err := l.ResolveBranch(branch)
	if err != nil {
		return err
	}
	store := l.NewStore(false)
	tree, _, err := store.CommitInfo(tip)
	if err != nil {
		return err
	}
	return store.WalkTree(tree, "", func(p string, h Hash, _ FileMode) error {
		_, err := store.Blob(h)
		return err
	})
}

// readFileAt reads one file of branch's tip through a fresh store.
func readFileAt(l *Repo, branch, p string) ([]byte, error) {
	tip, err := l.ResolveBranch(branch)
	if err != nil {
		return nil, err
	}
	store := l.NewStore(false)
	tree, _, err := store.CommitInfo(tip)
	if err != nil {
		return nil, err
	}
	h, _ := store.LookupPath(tree, p)
	if h.IsZero() {
		return nil, fmt.Errorf("%s: %w", p, ErrNotFound)
	}
	return store.Blob(h)
}
