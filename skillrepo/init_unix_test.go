//go:build unix

package skillrepo

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestInitSkillFileNotRegular checks init over a folder whose SKILL.md is
// a FIFO or links to /dev/zero finishes: reading the skills' frontmatter
// names for the usage sidecar's keys blocked on the FIFO and read
// /dev/zero until memory ran out (issue 40 item 7).
func TestInitSkillFileNotRegular(t *testing.T) {
	for _, kind := range []string{"fifo", "zero"} {
		t.Run(kind, func(t *testing.T) {
			env := testEnv(t)
			dir := filepath.Join(t.TempDir(), "lib")
			if err := os.MkdirAll(filepath.Join(dir, "odd"), 0o755); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "odd", "SKILL.md")
			var err error
			if kind == "fifo" {
				err = syscall.Mkfifo(p, 0o644)
			} else {
				err = os.Symlink("/dev/zero", p)
			}
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := Init(context.Background(), dir, InitOptions{OpenOptions: openOpts(env)})
				done <- err
			}()
			select {
			case <-done: // refused or imported: either way it ended
			case <-time.After(time.Minute): // a bound for a hang, not a wait for a result
				t.Fatal("init did not finish")
			}
		})
	}
}
