package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name     string
		existing os.FileMode // 0: no file before
		perm     os.FileMode
		want     os.FileMode
		sync     bool
	}{
		{"new file gets perm", 0, 0o640, 0o640, false},
		{"existing file keeps its mode", 0o600, 0o755, 0o600, true},
		{"executable kept", 0o755, 0o644, 0o755, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name)
			if c.existing != 0 {
				if err := os.WriteFile(p, []byte("old content that is longer"), c.existing); err != nil {
					t.Fatal(err)
				}
				os.Chmod(p, c.existing) // past the umask
			}
			if err := Write(p, []byte("new"), c.perm, c.sync); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(p)
			if err != nil || string(b) != "new" {
				t.Fatalf("content %q, %v", b, err)
			}
			fi, _ := os.Stat(p)
			if fi.Mode().Perm() != c.want {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), c.want)
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(cases) {
		t.Errorf("temp files left: %v", entries)
	}
	// A failed write leaves the target and no temp file.
	if err := Write(filepath.Join(dir, "missing-folder", "x"), []byte("x"), 0o644, false); err == nil {
		t.Error("write into a missing folder succeeded")
	}
}
