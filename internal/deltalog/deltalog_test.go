package deltalog

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Frames appended to a file read back in order; a torn or damaged frame
// ends the chain there (the frames before it are kept and the rest
// reported), and an append to a file whose size is not the one the
// writer read (another process replaced it) writes nothing.
func TestAppendAndRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "cache.bin")
	base := []byte("base bytes")
	if err := os.WriteFile(p, base, 0o644); err != nil {
		t.Fatal(err)
	}
	size := int64(len(base))
	var want [][]byte
	for _, s := range []string{"one", "two", ""} {
		payload := AppendString(nil, s)
		n, err := Append(p, size, payload)
		if err != nil {
			t.Fatal(err)
		}
		size += n
		want = append(want, payload)
	}
	read := func() ([][]byte, int64, bool) {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fi, _ := f.Stat()
		var got [][]byte
		used, torn := Read(f, int64(len(base)), fi.Size()-int64(len(base)), func(b []byte) bool {
			got = append(got, slices.Clone(b))
			return true
		})
		return got, used, torn
	}
	got, used, torn := read()
	if len(got) != 3 || torn || used != size-int64(len(base)) {
		t.Fatalf("read %q used %d torn %v", got, used, torn)
	}
	for i := range want {
		s, rest, ok := String(got[i])
		if !slices.Equal(got[i], want[i]) || !ok || len(rest) != 0 || s != []string{"one", "two", ""}[i] {
			t.Errorf("frame %d: %q (%q %v)", i, got[i], s, ok)
		}
	}

	// A writer that read an older size appends nothing.
	if _, err := Append(p, size-1, AppendString(nil, "late")); err == nil {
		t.Error("an append to a file that changed meanwhile went through")
	}

	// A flipped byte in the second frame's payload: the first is kept.
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(base)+8+len(want[0])+4] ^= 0xff
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	got, used, torn = read()
	if len(got) != 1 || !torn || used != int64(8+len(want[0])) {
		t.Errorf("damaged: read %q used %d torn %v", got, used, torn)
	}

	// A torn tail (a length with no payload) is reported, not read.
	if err := os.WriteFile(p, append(slices.Clone(base), 9, 0, 0, 0, 'x'), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, used, torn = read(); len(got) != 0 || used != 0 || !torn {
		t.Errorf("torn: read %q used %d torn %v", got, used, torn)
	}
}

// String refuses a length longer than what follows.
func TestStringShort(t *testing.T) {
	b := AppendString(nil, "abcdef")
	if _, _, ok := String(b[:4]); ok {
		t.Error("a cut string read")
	}
}
