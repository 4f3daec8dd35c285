package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Init lays a repository out as 'git init' does: git reads it as its own
// (the same local config, fsck clean, the branch unborn), and the engine
// writes its first commit into it.
func TestInitMatchesGitInit(t *testing.T) {
	env := testEnv(t)
	ours, theirs := filepath.Join(t.TempDir(), "ours"), filepath.Join(t.TempDir(), "theirs")
	for _, d := range []string{ours, theirs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := Init(ours, "trunk"); err != nil {
		t.Fatal(err)
	}
	gitIn(t, theirs, env, false, "init", "-q", "-b", "trunk")
	if a, b := gitIn(t, ours, env, false, "config", "--local", "--list"), gitIn(t, theirs, env, false, "config", "--local", "--list"); a != b {
		t.Errorf("config:\n%s\ngit init writes:\n%s", a, b)
	}
	for _, args := range [][]string{{"symbolic-ref", "HEAD"}, {"rev-parse", "--git-dir", "--is-inside-work-tree"}, {"status", "--porcelain"}} {
		if a, b := gitIn(t, ours, env, false, args...), gitIn(t, theirs, env, false, args...); a != b {
			t.Errorf("git %s: %q, after git init %q", strings.Join(args, " "), a, b)
		}
	}
	gitIn(t, ours, env, false, "fsck", "--strict", "--no-progress")
	if !IsRepository(ours) {
		t.Error("IsRepository is false after Init")
	}
	if des, _ := os.ReadDir(ours); len(des) != 1 {
		t.Errorf("the folder holds %v, want only .git", des)
	}

	if err := os.WriteFile(filepath.Join(ours, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := openOpts(env)
	opts.DefaultBranch = "trunk"
	l, err := Open(ours, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Update(context.Background(), UpdateOptions{Branch: "trunk", RecordsWorktree: true}, func(tx *Tx) error {
		if err := tx.WriteFile("a.txt", []byte("a\n"), false); err != nil {
			return err
		}
		_, err := tx.Commit("first")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	gitIn(t, ours, env, false, "fsck", "--strict", "--no-progress")
	if st := gitIn(t, ours, env, false, "status", "--porcelain"); st != "" {
		t.Errorf("status after the first commit: %q", st)
	}
}

// Every state a killed Init (or a killed 'git init') can leave is one the
// next Init completes: its temporary folder is removed, a .git missing
// files gets them, and what a .git holds is never replaced.
func TestInitAfterAKill(t *testing.T) {
	env := testEnv(t)
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, root string)
		keep  map[string]string // .git files that must survive as they were
	}{
		{"temporary folder", func(t *testing.T, root string) {
			mkfile(t, filepath.Join(root, initTempPrefix+"123", "config"), "[core]\n")
			mkfile(t, filepath.Join(root, initTempPrefix+"456", "objects", "x"), "")
		}, nil},
		{"empty .git", func(t *testing.T, root string) {
			if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"hooks copied, no HEAD", func(t *testing.T, root string) {
			mkfile(t, filepath.Join(root, ".git", "hooks", "pre-commit.sample"), "#!/bin/sh\n")
			mkfile(t, filepath.Join(root, ".git", "description"), "mine\n")
		}, map[string]string{"description": "mine\n", "hooks/pre-commit.sample": "#!/bin/sh\n"}},
		{"HEAD, no config", func(t *testing.T, root string) {
			mkfile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
		}, map[string]string{"HEAD": "ref: refs/heads/main\n"}},
		{"config cut short", func(t *testing.T, root string) {
			mkfile(t, filepath.Join(root, ".git", "config"), "")
			mkfile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
		}, nil},
		{"config of its own", func(t *testing.T, root string) {
			mkfile(t, filepath.Join(root, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[user]\n\tname = Kept\n")
		}, map[string]string{"config": "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[user]\n\tname = Kept\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "lib")
			tc.setup(t, root)
			if tc.name != "temporary folder" && IsRepository(root) {
				t.Fatal("IsRepository is true for an incomplete .git")
			}
			if err := Init(root, "main"); err != nil {
				t.Fatal(err)
			}
			if !IsRepository(root) {
				t.Fatal("IsRepository is false after Init")
			}
			gitIn(t, root, env, false, "fsck", "--strict", "--no-progress")
			if got := strings.TrimSpace(gitIn(t, root, env, false, "symbolic-ref", "HEAD")); got != "refs/heads/main" {
				t.Errorf("HEAD = %s", got)
			}
			des, err := os.ReadDir(root)
			if err != nil {
				t.Fatal(err)
			}
			if names := dirNames(des); !slices.Equal(names, []string{".git"}) {
				t.Errorf("the folder holds %v, want only .git", names)
			}
			for name, want := range tc.keep {
				if got, err := os.ReadFile(filepath.Join(root, ".git", filepath.FromSlash(name))); err != nil || string(got) != want {
					t.Errorf(".git/%s = %q, %v; want it kept: %q", name, got, err, want)
				}
			}
		})
	}
	// A .git file (a linked worktree) is not ours to complete.
	root := t.TempDir()
	mkfile(t, filepath.Join(root, ".git"), "gitdir: /elsewhere\n")
	if err := Init(root, "main"); err == nil || !strings.Contains(err.Error(), ".git is a file") {
		t.Errorf("Init over a .git file: %v", err)
	}
}

func mkfile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func dirNames(des []os.DirEntry) []string {
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}
