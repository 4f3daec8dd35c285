package skillrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A work-tree folder replaced by a symlink pointing outside the library
// must never be written through.
func TestWriteRefusesSymlinkedFolder(t *testing.T) {
	l, env := newTestLibrary(t)
	outside := t.TempDir()
	refs := filepath.Join(l.Root, "ci-debugging", "references")
	if err := os.RemoveAll(refs); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, refs); err != nil {
		t.Fatal(err)
	}
	head := gitCmd(t, l, env, "rev-parse", "HEAD")
	_, err := l.Apply(context.Background(), ApplyOptions{Ops: []Op{{Action: ActionWriteFile, Name: "ci-debugging", FilePath: "references/new.md", FileContent: strp("x")}}})
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

// Paths the engine itself is asked to stage are checked too: no .git, no
// traversal, no absolute paths.
func TestTxRefusesBadPaths(t *testing.T) {
	l, _ := newTestLibrary(t)
	for _, p := range []string{".git/config", "a/.git/hooks/x", "../x", "/abs", "a//b", "a/./b", ""} {
		_, err := l.Update(context.Background(), UpdateOptions{}, func(tx *Tx) error {
			return tx.WriteFile(p, []byte("x"), false)
		})
		if err == nil {
			t.Errorf("WriteFile(%q) accepted", p)
		}
	}
}

// A SKILL.md that is not UTF-8, has a BOM or CRLF line ends is handled,
// never a crash: invalid UTF-8 is refused, BOM and CRLF are accepted.
func TestEncodings(t *testing.T) {
	l, _ := newTestLibrary(t)
	ctx := context.Background()
	cases := []struct {
		name, content string
		ok            bool
	}{
		{"bom-skill", "\ufeff---\nname: bom-skill\ndescription: Use when testing BOMs.\n---\nbody\n", true},
		{"crlf-skill", "---\r\nname: crlf-skill\r\ndescription: Use when testing CRLF.\r\n---\r\nbody\r\n", true},
		{"latin1-skill", "---\nname: latin1-skill\ndescription: caf\xe9\n---\nbody\n", false},
	}
	for _, c := range cases {
		content := c.content
		_, err := l.Apply(ctx, ApplyOptions{Ops: []Op{{Action: ActionCreate, Name: c.name, Content: &content}}})
		if (err == nil) != c.ok {
			t.Errorf("%s: err = %v, want ok=%v", c.name, err, c.ok)
		}
	}
	if b, err := os.ReadFile(filepath.Join(l.Root, "crlf-skill", "SKILL.md")); err != nil || !strings.Contains(string(b), "\r\n") {
		t.Errorf("CRLF content not kept byte for byte: %q %v", b, err)
	}
}

// After git packs every object (and deltifies them), the engine reads
// them through its own pack reader and writes on top as before.
func TestWriteAfterRepack(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	for i, pair := range [][2]string{{"Pitfalls", "Traps"}, {"Traps", "Snares"}} {
		if _, err := l.Apply(ctx, ApplyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp(pair[0]), NewString: strp(pair[1])}}}); err != nil {
			t.Fatalf("patch %d: %v", i, err)
		}
	}
	gitCmd(t, l, env, "repack", "-adf", "-q")
	gitCmd(t, l, env, "prune-packed")
	l.Close()
	l2, err := Open(l.Root, openOpts(env))
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	snap, err := l2.Snapshot("")
	if err != nil {
		t.Fatal(err)
	}
	b, err := snap.ReadFile("ci-debugging/SKILL.md")
	if err != nil || !strings.Contains(string(b), "## Snares") {
		t.Fatalf("read from the pack: %v\n%s", err, b)
	}
	if want := gitCmd(t, l2, env, "show", "HEAD:ci-debugging/SKILL.md"); string(b) != want {
		t.Errorf("pack read differs from git show")
	}
	if _, err := l2.Apply(ctx, ApplyOptions{Ops: []Op{{Action: ActionPatch, Name: "docker-cleanup", OldString: strp("Measure first"), NewString: strp("Measure")}}}); err != nil {
		t.Fatal(err)
	}
	assertConsistent(t, l2, env)
}

// git does not take our lock: a git add that lands between our read of
// the index and our write of it is kept, with our entries on top.
func TestIndexWriteKeepsConcurrentGitAdd(t *testing.T) {
	l, env := newTestLibrary(t)
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
