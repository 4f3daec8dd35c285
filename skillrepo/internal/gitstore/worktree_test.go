package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// A work-tree folder replaced by a symlink pointing outside the library
// must never be written through.
func TestWriteRefusesSymlinkedFolder(t *testing.T) {
	l, env := newTestRepo(t)
	outside := t.TempDir()
	refs := filepath.Join(l.Root, "ci-debugging", "references")
	if err := os.RemoveAll(refs); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, refs); err != nil {
		t.Fatal(err)
	}
	head := gitCmd(t, l, env, "rev-parse", "HEAD")
	_, err := writeFile(l, "main", "ci-debugging/references/new.md", "x")
	if err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("err = %v, want a refusal naming the symlink", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote outside the library: %v", entries)
	}
	if got := gitCmd(t, l, env, "rev-parse", "HEAD"); got != head {
		t.Error("HEAD moved")
	}
}

// A file written under a path that is a file (references/rollback.md/x.md
// beside references/rollback.md) is refused before anything is written,
// and the file in the way stays, in the work tree and in git (issue 40
// item 6: the work tree's rollback removed it, and the next sync committed
// the deletion).
func TestWriteUnderAFileKeepsTheFile(t *testing.T) {
	l, env := newTestRepo(t)
	if _, err := writeFile(l, "main", "ci-debugging/references/rollback.md", "keep me\n"); err != nil {
		t.Fatal(err)
	}
	head := gitCmd(t, l, env, "rev-parse", "HEAD")
	_, err := writeFile(l, "main", "ci-debugging/references/rollback.md/x.md", "x")
	if err == nil || !strings.Contains(err.Error(), "is a file") {
		t.Fatalf("err = %v, want a refusal saying the path goes through a file", err)
	}
	if got := gitCmd(t, l, env, "rev-parse", "HEAD"); got != head {
		t.Error("HEAD moved")
	}
	if b, err := os.ReadFile(filepath.Join(l.Root, "ci-debugging", "references", "rollback.md")); err != nil || string(b) != "keep me\n" {
		t.Errorf("rollback.md after the refusal: %q, %v", b, err)
	}
	if st := gitCmd(t, l, env, "status", "--porcelain"); st != "" {
		t.Errorf("git status not clean:\n%s", st)
	}
}

// Removing a deleted path's empty parent folders never removes a file
// that stands where a folder was expected.
func TestRemoveEmptyParentsKeepsFiles(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "skill", "references", "rollback.md")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	removeEmptyParents(root, file) // the parent of rollback.md/x.md
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("the file was removed: %v", err)
	}
	empty := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	removeEmptyParents(root, empty)
	if _, err := os.Stat(filepath.Join(root, "a")); err == nil {
		t.Error("empty folders kept")
	}
}

// Paths the engine itself is asked to stage are checked too: no .git, no
// traversal, no absolute paths.
func TestTxRefusesBadPaths(t *testing.T) {
	l, _ := newTestRepo(t)
	for _, p := range []string{".git/config", "a/.git/hooks/x", "../x", "/abs", "a//b", "a/./b", ""} {
		_, err := l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
			return tx.WriteFile(p, []byte("x"), false)
		})
		if err == nil {
			t.Errorf("WriteFile(%q) accepted", p)
		}
	}
}

// After git packs every object (and deltifies them), the engine reads
// them through its own pack reader and writes on top as before.
func TestWriteAfterRepack(t *testing.T) {
	l, env := newTestRepo(t)
	for i, pair := range [][2]string{{"Pitfalls", "Traps"}, {"Traps", "Snares"}} {
		if _, err := patchFiles(l, edit{"ci-debugging/SKILL.md", pair[0], pair[1]}); err != nil {
			t.Fatalf("patch %d: %v", i, err)
		}
	}
	gitCmd(t, l, env, "repack", "-adf", "-q")
	gitCmd(t, l, env, "prune-packed")
	l.Close()
	l2 := openTestRepo(t, l.Root, env)
	b, err := readFileAt(l2, "main", "ci-debugging/SKILL.md")
	if err != nil || !strings.Contains(string(b), "## Snares") {
		t.Fatalf("read from the pack: %v\n%s", err, b)
	}
	if want := gitCmd(t, l2, env, "show", "HEAD:ci-debugging/SKILL.md"); string(b) != want {
		t.Errorf("pack read differs from git show")
	}
	if _, err := patchFiles(l2, edit{"devops/docker-cleanup/SKILL.md", "Measure first", "Measure"}); err != nil {
		t.Fatal(err)
	}
	assertConsistent(t, l2, env)
}

// git does not take our lock: a git add that lands between our read of
// the index and our write of it is kept, with our entries on top.
func TestIndexWriteKeepsConcurrentGitAdd(t *testing.T) {
	l, env := newTestRepo(t)
	if err := os.WriteFile(filepath.Join(l.Root, "notes.txt"), []byte("staged by the user\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l.testOnlyBeforeIndexLock = func() { gitCmd(t, l, env, "add", "notes.txt") }
	writeSome(t, l, "while-git-adds")
	l.testOnlyBeforeIndexLock = nil
	if got := gitCmd(t, l, env, "diff", "--cached", "--name-only"); got != "notes.txt\n" {
		t.Errorf("staged after our write: %q, want the user's notes.txt", got)
	}
	if got := gitCmd(t, l, env, "status", "--porcelain"); got != "A  notes.txt\n" {
		t.Errorf("status: %q", got)
	}
	gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
}

// A tracked symlink the new tree makes a folder, and a folder it makes a
// symlink, are replaced in the work tree (issue 40 item 9: the remote's
// commit that did so was refused as "a symlink in the work tree" on every
// sync). The link's target is never written through.
func TestWriteReplacesSymlinkAndFolder(t *testing.T) {
	l, env := newTestRepo(t)
	root := l.Root
	if err := os.Symlink("ci-debugging", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, l, env, "add", "link")
	gitCmd(t, l, env, "commit", "-q", "-m", "a link")
	target, _ := os.ReadDir(filepath.Join(root, "ci-debugging"))
	// link/SKILL.md: the link's target has a SKILL.md of its own.
	if _, err := l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
		if err := tx.Remove("link"); err != nil {
			return err
		}
		if err := tx.WriteFile("link/SKILL.md", []byte("a folder now\n"), false); err != nil {
			return err
		}
		_, err := tx.Commit("the link becomes a folder")
		return err
	}); err != nil {
		t.Fatalf("symlink to folder: %v", err)
	}
	if fi, err := os.Lstat(filepath.Join(root, "link")); err != nil || !fi.IsDir() {
		t.Fatalf("link after the write: %v, %v", fi, err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "ci-debugging", "SKILL.md")); err != nil || string(b) == "a folder now\n" {
		t.Fatalf("written through the link: %q %v", b, err)
	}
	if after, _ := os.ReadDir(filepath.Join(root, "ci-debugging")); len(after) != len(target) {
		t.Errorf("the link's target changed: %v, was %v", after, target)
	}
	assertConsistent(t, l, env)
	// And back: the folder becomes a symlink again.
	if _, err := l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
		if err := tx.Remove("link/SKILL.md"); err != nil {
			return err
		}
		h, err := tx.Store().Put(plumbing.BlobObject, []byte("ci-debugging"))
		if err != nil {
			return err
		}
		tx.Stage("link", Change{Hash: h, Mode: filemode.Symlink})
		_, err = tx.Commit("the folder becomes a link")
		return err
	}); err != nil {
		t.Fatalf("folder to symlink: %v", err)
	}
	if fi, err := os.Lstat(filepath.Join(root, "link")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link after the second write: %v, %v", fi, err)
	}
	assertConsistent(t, l, env)
}
