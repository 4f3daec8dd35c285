package gitstore

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Loose objects git wrote read back as git prints them; damaged ones are
// errors, never panics or huge allocations.
func TestReadLoose(t *testing.T) {
	l, env := newTestRepo(t)
	content := strings.Repeat("line of a big reference file\n", 5000)
	if err := os.WriteFile(filepath.Join(l.Root, "big.txt"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	h := plumbing.NewHash(strings.TrimSpace(gitCmd(t, l, env, "hash-object", "-w", "big.txt")))
	got, ok, err := l.readLoose(plumbing.BlobObject, h)
	if err != nil || !ok || string(got) != content {
		t.Fatalf("readLoose = %d bytes, %v, %v", len(got), ok, err)
	}
	if _, _, err := l.readLoose(plumbing.TreeObject, h); err == nil || !strings.Contains(err.Error(), "it is a blob") {
		t.Errorf("wrong type: err = %v", err)
	}
	if _, ok, err := l.readLoose(plumbing.BlobObject, plumbing.NewHash(strings.Repeat("ab", 20))); ok || err != nil {
		t.Errorf("missing object: ok=%v err=%v", ok, err)
	}

	deflate := func(s string) []byte {
		var b bytes.Buffer
		zw := zlib.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	good := deflate("blob 5\x00hello")
	for name, data := range map[string][]byte{
		"not zlib":       []byte("plain text"),
		"truncated":      good[:len(good)/2],
		"no header end":  deflate("blob 5 hello"),
		"size too small": deflate("blob 3\x00hello"),
		"size too large": deflate("blob 9\x00hello"),
		"huge size":      deflate("blob 999999999999\x00hello"),
		"bad size":       deflate("blob x\x00hello"),
		"long header":    deflate("blob " + strings.Repeat("1", 40) + "\x00hello"),
	} {
		t.Run(name, func(t *testing.T) {
			bad := plumbing.NewHash(strings.Repeat("cd", 20))
			p := filepath.Join(l.GitDir, "objects", "cd", strings.Repeat("cd", 19))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(p)
			if _, ok, err := l.readLoose(plumbing.BlobObject, bad); !ok || err == nil {
				t.Errorf("ok=%v err=%v, want an error", ok, err)
			}
		})
	}
	p := filepath.Join(l.GitDir, "objects", "cd", strings.Repeat("cd", 19))
	if err := os.WriteFile(p, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _, err := l.readLoose(plumbing.BlobObject, plumbing.NewHash(strings.Repeat("cd", 20))); err != nil || string(b) != "hello" {
		t.Errorf("well-formed object: %q %v", b, err)
	}
	os.Remove(p)
}

// A big tree is written stored (uncompressed), a small object deflated;
// git reads both back byte for byte.
func TestLooseCompressionBySize(t *testing.T) {
	l, env := newTestRepo(t)
	blob := plumbing.NewHash(strings.Repeat("ab", 20))
	var entries []TreeEntry
	for i := 0; i < 3000; i++ {
		entries = append(entries, TreeEntry{Name: fmt.Sprintf("skill-%05d", i), Mode: filemode.Regular, Hash: blob})
	}
	big := encodeTree(entries)
	small := []byte(strings.Repeat("a small, very compressible blob\n", 20))
	store := l.NewStore(false)
	for _, c := range []struct {
		typ        plumbing.ObjectType
		data       []byte
		compressed bool
	}{
		{plumbing.TreeObject, big, false},
		{plumbing.BlobObject, small, true},
	} {
		h, err := store.Put(c.typ, c.data)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(store.objectPath(h))
		if err != nil {
			t.Fatal(err)
		}
		if compressed := fi.Size() < int64(len(c.data)); compressed != c.compressed {
			t.Errorf("%s of %d bytes: loose file %d bytes, want compressed=%v", c.typ, len(c.data), fi.Size(), c.compressed)
		}
		cmd := exec.Command("git", "cat-file", c.typ.String(), h.String())
		cmd.Dir = l.Root
		got, err := cmd.Output()
		if err != nil || !bytes.Equal(got, c.data) {
			t.Errorf("git cat-file %s: %d bytes, %v", h, len(got), err)
		}
		if back, err := l.readObject(c.typ, h); err != nil || !bytes.Equal(back, c.data) {
			t.Errorf("read back: %v", err)
		}
	}
	gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
}

// Stored zlib streams decode (Go's zlib, which checks the Adler-32) to the
// concatenated parts, at block boundaries and across them.
func TestAppendStoredZlib(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 20000) // 320,000 bytes
	cases := map[string][][]byte{
		"empty":               {},
		"empty parts":         {{}, {}, []byte("x"), {}},
		"one byte":            {[]byte("x")},
		"one full block":      {big[:0xffff]},
		"a block and a byte":  {big[:0x10000]},
		"header and big data": {[]byte("tree 320000\x00"), big},
		"split across blocks": {big[:0xfff0], big[:40], big[:0x20000]},
	}
	for name, parts := range cases {
		t.Run(name, func(t *testing.T) {
			want := bytes.Join(parts, nil)
			stream := appendStoredZlib([]byte("prefix"), append([][]byte(nil), parts...)...)
			if !bytes.HasPrefix(stream, []byte("prefix")) {
				t.Fatal("dst not appended to")
			}
			zr, err := zlib.NewReader(bytes.NewReader(stream[len("prefix"):]))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("decoded %d bytes (%v), want %d", len(got), err, len(want))
			}
		})
	}
}

// A pack a git fetch writes after the repository was opened (and go-git
// listed its packs) holds objects every reader finds: a remote sync
// fetches, then reads the commits it fetched in the same process.
func TestObjectsInAPackWrittenSinceOpen(t *testing.T) {
	l, env := newTestRepo(t)
	head := plumbing.NewHash(strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "HEAD")))
	gitCmd(t, l, env, "repack", "-a", "-d", "-q") // HEAD packed: reading it makes go-git list the packs
	if _, err := l.CommitObject(head); err != nil {
		t.Fatal(err)
	}
	if _, err := l.NewStore(true).RawCommit(head); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other")
	gitIn(t, filepath.Dir(other), env, false, "clone", "-q", l.Root, other)
	if err := os.WriteFile(filepath.Join(other, "new.md"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, other, env, false, "add", "new.md")
	gitIn(t, other, env, false, "commit", "-q", "-m", "new")
	// unpackLimit 1: the fetch keeps what it receives as a pack.
	gitCmd(t, l, env, "-c", "fetch.unpackLimit=1", "fetch", "-q", other, "main:refs/remotes/other/main")
	tip := plumbing.NewHash(strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "refs/remotes/other/main")))
	if !l.ObjectExists(tip) {
		t.Errorf("ObjectExists(%s) = false", tip)
	}
	if c, err := l.CommitObject(tip); err != nil || c.Message != "new\n" {
		t.Errorf("CommitObject: %v", err)
	}
	if raw, err := l.NewStore(true).RawCommit(tip); err != nil || !strings.Contains(string(raw), "\n\nnew\n") {
		t.Errorf("RawCommit: %v %q", err, raw)
	}
	r := l.NewObjectReader()
	defer r.Close()
	if _, err := r.Read(plumbing.CommitObject, tip); err != nil {
		t.Errorf("ObjectReader: %v", err)
	}
}
