package gitstore

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// rawTree writes a tree object of one entry literally (git mktree refuses
// a name with a slash; an empty name cannot be typed to it at all).
func rawTree(t *testing.T, dir string, env map[string]string, mode, name string, blob plumbing.Hash) plumbing.Hash {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(mode + " " + name + "\x00")
	b.Write(blob[:])
	cmd := gitExec(t, dir, env, "hash-object", "-w", "-t", "tree", "--literally", "--stdin")
	cmd.Stdin = &b
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hash-object: %v", err)
	}
	return plumbing.NewHash(strings.TrimSpace(string(out)))
}

// TestCheckNameAgreesWithGitFsck: for every name, our verdict is git's
// (git fsck --strict on a tree of that one entry), including the names
// NTFS and HFS+ take for .git.
func TestCheckNameAgreesWithGitFsck(t *testing.T) {
	r := newIndexRepo(t)
	blob := r.HashObject("a.txt")
	names := []string{
		".git", ".GIT", ".Git", ".gIt", ".git ", ".git.", ".git. .", ".git  ..", "git~1", "GIT~1", "Git~1 ",
		".g\u200cit", "\ufeff.git", ".gi\u200dt", ".GI\u206at", ".git::$INDEX_ALLOCATION", `a\.git`, `.git\hooks`, `x\git~1`,
		"..", ".", "", "a/b",
		// Allowed, by git too.
		".gitx", "git", ".github", "git~2", "git~10", ".\u0147it", "a.git", ".git-foo", "x.git ", "skill", ".gitignore", ".gitmodules", "é",
	}
	trees := map[plumbing.Hash]string{}
	for _, name := range names {
		trees[rawTree(t, r.dir, r.env, "100644", name, blob)] = name
	}
	out := gitIn(t, r.dir, r.env, true, "fsck", "--strict", "--no-dangling", "--no-progress")
	bad := map[plumbing.Hash]bool{}
	for _, m := range regexp.MustCompile(`error in tree ([0-9a-f]{40})`).FindAllStringSubmatch(out, -1) {
		bad[plumbing.NewHash(m[1])] = true
	}
	for h, name := range trees {
		why := CheckName(name, filemode.Regular)
		if (why != "") != bad[h] {
			t.Errorf("%q: ours %q, git fsck refuses: %v", name, why, bad[h])
		}
	}
	// .gitmodules and its kin as symlinks (fsck: gitmodulesSymlink).
	for _, name := range []string{".gitmodules", ".GITMODULES", "gitmod~1", ".gitmodules .", ".gitattributes", ".gitignore", ".mailmap"} {
		if CheckName(name, filemode.Symlink) == "" {
			t.Errorf("the symlink %q is allowed", name)
		}
		if CheckName(name, filemode.Regular) != "" {
			t.Errorf("the file %q is refused", name)
		}
	}
}

func TestCheckSymlink(t *testing.T) {
	for _, tt := range []struct {
		path, target string
		ok           bool
	}{
		{"skill/ref.md", "other.md", true},
		{"a/b/link", "../../c", true},
		{"a/b/link", "../c/./d", true},
		{"link", "..", false},
		{"a/link", "../..", false},
		{"a/link", "x/../../../etc", false},
		{"link", "/etc/passwd", false},
		{"link", `C:\Windows`, false},
		{"link", ".git/hooks", false},
		{"a/link", "../.GIT/config", false},
		{"link", "", false},
	} {
		if why := CheckSymlink(tt.path, tt.target); (why == "") != tt.ok {
			t.Errorf("%s -> %s: %q", tt.path, tt.target, why)
		}
	}
}

// A fast-forward to a commit whose tree holds .git/hooks/post-commit,
// ../outside or a .GIT folder is refused before anything touches disk:
// no hook lands, no file outside the work tree, the branch, index and
// work tree stay as they were.
func TestFastForwardRefusesUnsafeTree(t *testing.T) {
	for _, tt := range []struct{ dir, file string }{
		{".git", "hooks/post-commit"},
		{".GIT", "hooks/post-commit"},
		{"..", "outside.txt"},
		{"skill", ".git/config"},
		{"git~1", "config"},
	} {
		t.Run(tt.dir, func(t *testing.T) {
			l, env := newTestRepo(t)
			script := strings.NewReader("#!/bin/sh\ntouch pwned\n")
			cmd := gitExec(t, l.Root, env, "hash-object", "-w", "--stdin")
			cmd.Stdin = script
			b, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			blob := plumbing.NewHash(strings.TrimSpace(string(b)))
			// dir/sub/file, built from the bottom.
			parts := strings.Split(tt.file, "/")
			cur := rawTree(t, l.Root, env, "100755", parts[len(parts)-1], blob)
			for i := len(parts) - 2; i >= 0; i-- {
				cur = rawTree(t, l.Root, env, "40000", parts[i], cur)
			}
			main, _ := l.ResolveBranch("main")
			rootTree := strings.TrimSpace(gitIn(t, l.Root, env, false, "rev-parse", "main^{tree}"))
			ls := gitIn(t, l.Root, env, false, "ls-tree", rootTree)
			ls += "040000 tree " + cur.String() + "\t" + tt.dir + "\n"
			newRoot := strings.TrimSpace(gitStdin(t, l.Root, env, ls, "mktree"))
			commit := plumbing.NewHash(strings.TrimSpace(gitIn(t, l.Root, env, false, "commit-tree", newRoot, "-p", main.String(), "-m", "hostile")))
			_, err = l.Update(context.Background(), UpdateOptions{Branch: "main", Reflog: "test: fast-forward"}, func(tx *Tx) error {
				return tx.FastForward(commit, plumbing.NewHash(newRoot), []string{tt.dir + "/" + tt.file})
			})
			var ue *UnsafePathError
			if !errors.As(err, &ue) || !errors.Is(err, ErrUnsafePath) {
				t.Fatalf("fast-forward: %v", err)
			}
			if now, _ := l.ResolveBranch("main"); now != main {
				t.Errorf("main moved to %s", now)
			}
			if _, err := os.Stat(filepath.Join(l.GitDir, "hooks", "post-commit")); err == nil {
				t.Error("a hook landed in .git/hooks")
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(l.Root), "outside.txt")); err == nil {
				t.Error("a file landed outside the work tree")
			}
			if _, err := os.Stat(filepath.Join(l.Root, tt.dir, tt.file)); err == nil {
				t.Errorf("%s/%s was written", tt.dir, tt.file)
			}
			if st := gitCmd(t, l, env, "status", "--porcelain"); st != "" {
				t.Errorf("git status: %s", st)
			}
		})
	}
}

// A write's path is refused when git would refuse to check it out (issue
// 40: `.GIT/` was accepted in support-file paths).
func TestCleanPathRefusesDotGitSpellings(t *testing.T) {
	for _, p := range []string{".git/x", "skill/.GIT/config", "skill/references/.Git/hooks", "a/git~1/x", "a/.git ./x", "a/.g\u200cit/x"} {
		if _, err := CleanPath(p); err == nil {
			t.Errorf("CleanPath(%q) accepted", p)
		}
	}
	for _, p := range []string{"skill/references/.github/x.md", "skill/.gitignore", "a.git/x"} {
		if _, err := CleanPath(p); err != nil {
			t.Errorf("CleanPath(%q): %v", p, err)
		}
	}
}
