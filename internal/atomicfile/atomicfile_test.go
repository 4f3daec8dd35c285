package atomicfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestTempFilesUnderTheFilesIgnoreRule: a temporary file a kill leaves
// beside a hidden file is covered by an ignore rule for the file's own
// variants, as git status reads the rule (the library's .gitignore has
// /.usage.json and /.usage.json.*); one beside a plain file is hidden.
func TestTempFilesUnderTheFilesIgnoreRule(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("/.usage.json\n/.usage.json.*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".usage.json", "notes.md"} {
		pattern := TempPattern(filepath.Join(dir, name))
		if !strings.HasPrefix(pattern, ".") || !strings.HasSuffix(pattern, ".tmp-*") {
			t.Errorf("TempPattern(%s) = %q: not a hidden temp name", name, pattern)
		}
		f, err := os.CreateTemp(dir, pattern)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	st := git("status", "--porcelain", "--untracked-files=all")
	if strings.Contains(st, "usage.json") {
		t.Errorf("a temp file of .usage.json shows in git status:\n%s", st)
	}
	if !strings.Contains(st, ".notes.md.tmp-") {
		t.Errorf("git status does not list the plain file's temp (the check would pass vacuously):\n%s", st)
	}
}
