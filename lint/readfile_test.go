package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFileSameAsFS checks that reading an os.DirFS's files directly
// gives what reading through the file system gives: the bytes, nil for a
// file over the limit, and the file system's own error otherwise.
func TestReadFileSameAsFS(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.md":       "hello\n",
		"empty.md":   "",
		"big.md":     strings.Repeat("x", 100),
		"limit.md":   strings.Repeat("y", 64),
		"sub/deep.j": strings.Repeat("z", 70000),
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.md", filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(dir)
	fast := &checker{fsys: fsys}
	fast.osDir, _ = osDirRoot(fsys)
	if fast.osDir != dir {
		t.Fatalf("osDirRoot = %q, want %q", fast.osDir, dir)
	}
	slow := &checker{fsys: fsys}
	names := []string{"a.md", "empty.md", "big.md", "limit.md", "sub/deep.j", "link.md", "missing.md", "sub", "../x", "/abs"}
	for _, name := range names {
		for _, limit := range []int64{-1, 64, maxTextFile} {
			got, gerr := fast.readFile(name, limit)
			want, werr := slow.readFile(name, limit)
			if !bytes.Equal(got, want) || (got == nil) != (want == nil) || (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Errorf("%s, limit %d: direct read %q, %v; through the FS %q, %v", name, limit, got, gerr, want, werr)
			}
		}
	}
	if _, ok := osDirRoot(mapFS(nil)); ok {
		t.Error("a map file system taken for an os.DirFS")
	}
}
