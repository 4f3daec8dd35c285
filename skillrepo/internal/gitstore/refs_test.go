package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestRefsLockfileProtocol(t *testing.T) {
	l, env := newTestRepo(t)
	head, err := l.ReadRef("refs/heads/main")
	if err != nil {
		t.Fatal(err)
	}
	// Create, then a rejected compare-and-swap leaves nothing behind.
	if err := l.UpdateRef("refs/heads/proposals/a", head, plumbing.ZeroHash, "create"); err != nil {
		t.Fatal(err)
	}
	err = l.UpdateRef("refs/heads/proposals/a", head, plumbing.ZeroHash, "again")
	var moved *RefMovedError
	if !errors.As(err, &moved) || !errors.Is(err, ErrConflict) {
		t.Fatalf("err = %v", err)
	}
	if exists(l.refPath("refs/heads/proposals/a") + ".lock") {
		t.Error("lock file left behind")
	}
	// Packed refs (git pack-refs) are read, updated and deleted.
	gitCmd(t, l, env, "pack-refs", "--all")
	if h, err := l.ReadRef("refs/heads/proposals/a"); err != nil || h != head {
		t.Fatalf("packed read = %v, %v", h, err)
	}
	if err := l.UpdateRef("refs/heads/proposals/a", head, plumbing.NewHash(strings.Repeat("1", 40)), "stale"); !errors.Is(err, ErrConflict) {
		t.Fatalf("stale CAS on a packed ref = %v", err)
	}
	// github.com/go-git/go-git/issues/2399: a rejected CAS on a packed ref must not hide the branch.
	if out := gitCmd(t, l, env, "for-each-ref", "--format=%(refname)", "refs/heads/proposals/"); out != "refs/heads/proposals/a\n" {
		t.Errorf("for-each-ref = %q", out)
	}
	refs, err := l.ListRefs("refs/heads/proposals/")
	if err != nil || refs["refs/heads/proposals/a"] != head {
		t.Fatalf("ListRefs = %v, %v", refs, err)
	}
	if err := l.DeleteRef("refs/heads/proposals/a", head); err != nil {
		t.Fatal(err)
	}
	if out := gitCmd(t, l, env, "for-each-ref", "refs/heads/proposals/"); out != "" {
		t.Errorf("deleted ref still listed: %q", out)
	}
	if _, err := l.ReadRef("refs/heads/proposals/a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("read deleted = %v", err)
	}
	gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
	// The reflog records our updates the way git does.
	if out := gitCmd(t, l, env, "reflog", "show", "--format=%gs", "main"); !strings.Contains(out, "skillrepo: import") {
		t.Errorf("reflog = %q", out)
	}
}

// TestConcurrentWritersWithGit races our writes against the git CLI
// moving the same branch: every write either lands or fails cleanly, and
// none is lost (the branch's history holds every success).
func TestConcurrentWritersWithGit(t *testing.T) {
	l, env := newTestRepo(t)
	gitCmd(t, l, env, "branch", "proposals/race")
	done := make(chan int)
	go func() {
		ok := 0
		for i := 0; i < 15; i++ {
			_, err := writeFile(l, "proposals/race", fmt.Sprintf("ci-debugging/references/ours-%d.md", i), "x")
			if err == nil {
				ok++
			} else if !errors.Is(err, ErrConflict) {
				t.Errorf("our write %d: %v", i, err)
			}
		}
		done <- ok
	}()
	theirs := 0
	for i := 0; i < 15; i++ {
		parent := strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "proposals/race"))
		tree := strings.TrimSpace(gitCmd(t, l, env, "rev-parse", parent+"^{tree}"))
		c := strings.TrimSpace(gitCmd(t, l, env, "commit-tree", tree, "-p", parent, "-m", fmt.Sprintf("theirs %d", i)))
		if err := gitTry(l, env, "update-ref", "refs/heads/proposals/race", c, parent); err == nil {
			theirs++
		}
	}
	ours := <-done
	n := strings.TrimSpace(gitCmd(t, l, env, "rev-list", "--count", "main..proposals/race"))
	if want := fmt.Sprint(ours + theirs); n != want {
		t.Errorf("branch has %s commits, want %s (ours %d + theirs %d): an update was lost", n, want, ours, theirs)
	}
	gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
}

// TestListRefsPrefixes checks ListRefs, which walks only the folder its
// prefix names, against git's own listing filtered by the same prefix:
// loose and packed refs, nested names, prefixes that end mid-name or name
// nothing.
func TestListRefsPrefixes(t *testing.T) {
	l, env := newTestRepo(t)
	for _, b := range []string{"proposals/a", "proposals/b", "proposals/x/y", "propose", "other"} {
		gitCmd(t, l, env, "branch", b)
	}
	gitCmd(t, l, env, "tag", "v1")
	gitCmd(t, l, env, "pack-refs", "--all")
	// Loose after packing: a new ref, and one that shadows its packed copy.
	gitCmd(t, l, env, "branch", "proposals/c")
	gitCmd(t, l, env, "update-ref", "refs/skillrepo/rejected/r1", "HEAD")
	all := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(gitCmd(t, l, env, "for-each-ref", "--format=%(refname) %(objectname)")), "\n") {
		name, hash, _ := strings.Cut(line, " ")
		all[name] = hash
	}
	for _, prefix := range []string{"refs/", "refs/heads/", "refs/heads/proposals/", "refs/heads/propos", "refs/heads/proposals/x/", "refs/tags/", "refs/skillrepo/rejected/", "refs/nothing/", "refs/heads/proposals/zz"} {
		t.Run(prefix, func(t *testing.T) {
			got, err := l.ListRefs(prefix)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{}
			for n, h := range all {
				if strings.HasPrefix(n, prefix) {
					want[n] = h
				}
			}
			if len(got) != len(want) {
				t.Errorf("ListRefs(%q) = %d refs %v, git lists %d %v", prefix, len(got), got, len(want), want)
			}
			for n, h := range want {
				if got[n].String() != h {
					t.Errorf("ListRefs(%q)[%s] = %s, git %s", prefix, n, got[n], h)
				}
			}
		})
	}
}

// TestReadRefFile holds readRefFile to os.ReadFile's answers: the bytes,
// and errors that read the same (not found, a directory) for ReadRef.
func TestReadRefFile(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ref":    strings.Repeat("a", 40) + "\n",
		"symref": "ref: refs/heads/main\n",
		"empty":  "",
		"edge":   strings.Repeat("b", 256),
		"long":   strings.Repeat("c", 1000),
	}
	for name, s := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ref", "symref", "empty", "edge", "long", "missing", "folder"} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name)
			got, err := readRefFile(p)
			want, wantErr := os.ReadFile(p)
			if string(got) != string(want) {
				t.Errorf("read %q, want %q", got, want)
			}
			if (err == nil) != (wantErr == nil) || errors.Is(err, fs.ErrNotExist) != errors.Is(wantErr, fs.ErrNotExist) || isDirError(err) != isDirError(wantErr) {
				t.Errorf("error %v, os.ReadFile's %v", err, wantErr)
			}
		})
	}
}
