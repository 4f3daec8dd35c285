package gitstore

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestPackReaderMatchesGoGit repacks a library with real git (deep delta
// chains, offset deltas and then reference deltas) and reads every object
// through our pack reader and through go-git: the bytes must agree.
func TestPackReaderMatchesGoGit(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"ofs-delta", []string{"repack", "-adfq", "--depth=50", "--window=50"}},
		{"ref-delta", []string{"-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq", "--depth=50", "--window=50"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, env := newTestRepo(t)
			buildHistory(t, l)
			gitCmd(t, l, env, tc.args...)
			// go-git lists packs when it opens: reopen to see the new one.
			l.Close()
			l = openTestRepo(t, l.Root, env)
			packs, _ := filepath.Glob(filepath.Join(l.GitDir, "objects", "pack", "*.idx"))
			if len(packs) != 1 || !strings.Contains(gitCmd(t, l, env, "verify-pack", "-v", packs[0]), "chain length = 1") {
				t.Fatalf("the repack made no deltas to read (packs %v)", packs)
			}
			list := gitCmd(t, l, env, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")
			pr := openPackReader(l.GitDir)
			defer pr.close()
			if len(pr.packs) == 0 {
				t.Fatal("no pack opened")
			}
			n := 0
			for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
				f := strings.Fields(line)
				h := plumbing.NewHash(f[0])
				obj, ok, err := pr.read(h)
				if err != nil || !ok {
					t.Fatalf("%s: ok=%v err=%v", f[0], ok, err)
				}
				if obj.typ.String() != f[1] {
					t.Errorf("%s: type %s, want %s", f[0], obj.typ, f[1])
				}
				eo, err := l.repo.Storer.EncodedObject(plumbing.AnyObject, h)
				if err != nil {
					t.Fatal(err)
				}
				r, _ := eo.Reader()
				want, _ := io.ReadAll(r)
				r.Close()
				if !bytes.Equal(obj.data, want) {
					t.Errorf("%s: content differs", f[0])
				}
				if plumbing.ComputeHash(obj.typ, obj.data) != h {
					t.Errorf("%s: content does not hash to its name", f[0])
				}
				n++
			}
			if n < 30 {
				t.Errorf("only %d objects", n)
			}
			// The branch reads through the packs after the repack.
			if err := readBranch(l, "main"); err != nil {
				t.Errorf("read after repack: %v", err)
			}
		})
	}
}

func TestApplyDeltaRejectsBadInput(t *testing.T) {
	base := []byte("hello world")
	for _, d := range [][]byte{
		{},                           // no sizes
		{11},                         // no target size
		{12, 5, 0x91, 0, 5},          // wrong base size
		{11, 5, 0x91, 8, 5},          // copy past the end
		{11, 5, 0x10},                // insert past the end
		{11, 5, 0},                   // opcode 0
		{11, 4, 0x90, 5},             // result size mismatch
		{11, 0x80, 0x80, 0x80, 0x80}, // truncated varint
	} {
		if _, err := applyDelta(base, d); err == nil {
			t.Errorf("applyDelta(%v) accepted", d)
		}
	}
	got, err := applyDelta(base, []byte{11, 8, 0x90, 5, 3, '!', '!', '!'})
	if err != nil || string(got) != "hello!!!" {
		t.Errorf("applyDelta = %q, %v", got, err)
	}
}

// has agrees with git on every packed object and on a missing one; a
// damaged index is refused (its pack is then left to go-git), never read
// out of range.
func TestPackIndexHasAndDamage(t *testing.T) {
	l, env := newTestRepo(t)
	gitCmd(t, l, env, "repack", "-adq")
	pr := openPackReader(l.GitDir)
	defer pr.close()
	list := strings.Fields(gitCmd(t, l, env, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)"))
	for _, h := range list {
		if !pr.has(plumbing.NewHash(h)) {
			t.Errorf("has(%s) = false", h)
		}
	}
	if pr.has(plumbing.NewHash(strings.Repeat("ef", 20))) {
		t.Error("has(missing) = true")
	}
	if !l.hasObject(plumbing.NewHash(list[0])) {
		t.Error("hasObject misses a packed object")
	}

	idxs, _ := filepath.Glob(filepath.Join(l.GitDir, "objects", "pack", "*.idx"))
	good, err := os.ReadFile(idxs[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parsePackIndex(good); err != nil {
		t.Fatalf("git's index refused: %v", err)
	}
	for name, damage := range map[string]func(b []byte) []byte{
		"truncated":         func(b []byte) []byte { return b[:len(b)/2] },
		"bad magic":         func(b []byte) []byte { b[0] = 0; return b },
		"version 3":         func(b []byte) []byte { b[7] = 3; return b },
		"fanout decreasing": func(b []byte) []byte { b[8+4*10+3] = 0xff; return b },
		"count too large":   func(b []byte) []byte { b[8+4*255] = 0x7f; return b },
	} {
		if _, err := parsePackIndex(damage(append([]byte(nil), good...))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// buildHistory writes a small file's life on main: created, patched twice,
// moved to another folder, moved back (what a skill's history holds), so a
// repack has deltas to make.
func buildHistory(t *testing.T, l *Repo) {
	t.Helper()
	const demo = "---\nname: demo\ndescription: Use when demonstrating history.\n---\n# Demo\n\n1. First step.\n2. Second step.\n3. Third step.\n"
	if _, err := writeFile(l, "main", "demo/SKILL.md", demo); err != nil {
		t.Fatal(err)
	}
	if _, err := patchFiles(l, edit{"demo/SKILL.md", "2. Second step.", "2. Second step, checked."}); err != nil {
		t.Fatal(err)
	}
	if _, err := patchFiles(l, edit{"demo/SKILL.md", "3. Third step.", "3. Third step, by hand."}); err != nil {
		t.Fatal(err)
	}
	move := func(from, to string) {
		t.Helper()
		_, err := l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
			if err := tx.Move(from, to); err != nil {
				return err
			}
			_, err := tx.Commit("move " + from)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	move("demo", "tools/demo-tool")
	move("tools/demo-tool", ".archive/demo-tool")
	move(".archive/demo-tool", "tools/demo-tool")
}
