package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// untrack commits the untracking of paths, with .gitignore lines that
// ignore them, as one commit on main.
func untrack(l *Repo, paths ...string) (*UpdateResult, error) {
	return l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
		ignore := "# test\n"
		for _, p := range paths {
			tx.Stage(p, Change{Delete: true, Untrack: true})
			ignore += "/" + p + "\n"
		}
		if err := tx.WriteFile(".gitignore", []byte(ignore), false); err != nil {
			return err
		}
		_, err := tx.Commit("untrack")
		return err
	})
}

// TestUntrackKeepsTheFile: an untracked path leaves the commit's tree and
// the index, and its work-tree file stays byte for byte, as after
// "git rm --cached"; git sees a clean work tree (the file is ignored).
func TestUntrackKeepsTheFile(t *testing.T) {
	l, env := newTestRepo(t)
	p := "ci-debugging/SKILL.md"
	full := filepath.Join(l.Root, filepath.FromSlash(p))
	before, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := untrack(l, p); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(full)
	if err != nil || string(after) != string(before) {
		t.Fatalf("the file did not stay: %v", err)
	}
	if out := gitCmd(t, l, env, "ls-files", p); out != "" {
		t.Errorf("still in the index: %q", out)
	}
	if out := gitCmd(t, l, env, "ls-tree", "-r", "--name-only", "HEAD", p); out != "" {
		t.Errorf("still in the commit: %q", out)
	}
	if out := gitCmd(t, l, env, "status", "--porcelain"); out != "" {
		t.Errorf("git status is not clean:\n%s", out)
	}
	assertConsistent(t, l, env)
}

// TestUntrackSurvivesACrash: a crash after the ref moved leaves recovery
// to finish the index; it must remove the index entry and keep the file.
// A crash before (the .gitignore written, the index not yet) is undone:
// the path stays tracked, and the file stays too.
func TestUntrackSurvivesACrash(t *testing.T) {
	for _, step := range []string{"ref", "file"} {
		t.Run(step, func(t *testing.T) {
			landed := step == "ref"
			l, env := newTestRepo(t)
			p := "ci-debugging/SKILL.md"
			full := filepath.Join(l.Root, filepath.FromSlash(p))
			before, _ := os.ReadFile(full)
			l.testOnlyCrashAt = step
			if _, err := untrack(l, p); !errors.Is(err, errTestOnlyCrash) {
				t.Fatalf("err = %v, want the test crash", err)
			}
			l.Close()
			l2 := openTestRepoAt(t, l.Root, l.Prefix, env)
			assertConsistent(t, l2, env)
			if after, err := os.ReadFile(full); err != nil || string(after) != string(before) {
				t.Fatalf("recovery removed or changed the untracked file: %v", err)
			}
			if out := gitCmd(t, l2, env, "ls-files", p); (out == "") != landed {
				t.Errorf("in the index after recovery: %q; the untrack landed: %v", out, landed)
			}
			if out := gitCmd(t, l2, env, "status", "--porcelain"); strings.TrimSpace(out) != "" {
				t.Errorf("git status after recovery:\n%s", out)
			}
		})
	}
}
