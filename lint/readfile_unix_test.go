//go:build unix

package lint

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSkillFileNotRegular checks a SKILL.md linked to /dev/zero or made a
// FIFO is reported as unreadable, at once: lint read /dev/zero until the
// memory ran out and blocked on the FIFO forever (issue 40 item 7), in
// lint, in sync's lint gate and in init.
func TestSkillFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"zero", "fifo", "ok"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo", "SKILL.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ok", "SKILL.md"), []byte("---\nname: ok\ndescription: Use when testing.\n---\n# OK\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan *Report, 1)
	go func() {
		rep, err := Check(os.DirFS(dir), Options{Paths: []string{"."}, RootName: "lib"})
		if err != nil {
			t.Error(err)
		}
		done <- rep
	}()
	var rep *Report
	select {
	case rep = <-done:
	case <-time.After(time.Minute): // a bound for a hang, not a wait for a result
		t.Fatal("lint did not finish: it reads /dev/zero or blocks on the FIFO")
	}
	if rep == nil {
		return
	}
	for _, d := range []string{"zero", "fifo"} {
		found := false
		for _, f := range rep.Findings {
			if f.Rule == "read-error" && f.Path == d+"/SKILL.md" && strings.Contains(f.Message, "not a regular file") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s/SKILL.md: no read-error finding in %v", d, rep.Findings)
		}
	}
}
