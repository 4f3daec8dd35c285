package skillrepo

import (
	"bytes"
	"io"
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
			l, env := newTestLibrary(t)
			buildHistory(t, l)
			gitCmd(t, l, env, tc.args...)
			// go-git lists packs when it opens: reopen to see the new one.
			l.Close()
			l, err := Open(l.Root, openOpts(env))
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
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
			// A history read through the packs gives the same log.
			log, err := l.SkillLog("demo-tool", LogOptions{})
			if err != nil || len(log) != 6 {
				t.Errorf("log after repack: %d entries, %v", len(log), err)
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
