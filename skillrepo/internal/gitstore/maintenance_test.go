package gitstore

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// looseCount is git's own count of loose objects.
func looseCount(t *testing.T, l *Repo, env map[string]string) string {
	t.Helper()
	for _, line := range strings.Split(gitCmd(t, l, env, "count-objects", "-v"), "\n") {
		if v, ok := strings.CutPrefix(line, "count: "); ok {
			return v
		}
	}
	t.Fatal("no count in git count-objects")
	return ""
}

// writeSome makes one commit with a new file.
func writeSome(t *testing.T, l *Repo, name string) {
	t.Helper()
	_, err := writeFile(l, "main", "ci-debugging/references/"+name+".md", "content of "+name+"\n")
	if err != nil {
		t.Fatal(err)
	}
}

// Past the bounds a write runs git gc, which packs the loose objects; below
// them, and with gc.auto=0, it does not. The library stays consistent.
func TestMaintenanceBoundsLooseObjects(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	cases := []struct {
		name    string
		policy  maintenancePolicy
		gcAuto  string
		wantRun bool
	}{
		{"below the bounds", maintenancePolicy{looseObjects: 1 << 30, looseBytes: 1 << 40}, "", false},
		{"past the count", maintenancePolicy{looseObjects: 0, looseBytes: 1 << 40}, "", true},
		{"past the size", maintenancePolicy{looseObjects: 1 << 30, looseBytes: 0}, "", true},
		{"gc.auto=0", maintenancePolicy{looseObjects: 0, looseBytes: 0}, "0", false},
		{"a higher gc.auto", maintenancePolicy{looseObjects: 0, looseBytes: 1 << 40}, "100000000", false},
		{"a higher gc.auto, past the size", maintenancePolicy{looseObjects: 0, looseBytes: 0}, "100000000", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, env := newTestRepo(t)
			if c.gcAuto != "" {
				gitCmd(t, l, env, "config", "gc.auto", c.gcAuto)
			}
			// Make sure objects/17 holds a loose object, as the estimate
			// reads that folder.
			for i := 0; l.countIn17() == 0; i++ {
				writeSome(t, l, "filler-"+string(rune('a'+i%26))+strings.Repeat("x", i/26))
			}
			ran := false
			c.policy.start = func(cmd *exec.Cmd) error {
				ran = true
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("%s: %v\n%s", cmd, err, out)
				}
				return nil
			}
			l.maintenance = c.policy
			writeSome(t, l, "trigger")
			if ran != c.wantRun {
				t.Fatalf("git gc ran = %v, want %v", ran, c.wantRun)
			}
			if n := looseCount(t, l, env); (n == "0") != c.wantRun {
				t.Errorf("loose objects after the write: %s", n)
			}
			assertConsistent(t, l, env)
			// The library still reads and writes after its objects moved.
			writeSome(t, l, "after")
			if err := readBranch(l, "main"); err != nil {
				t.Fatal(err)
			}
			assertConsistent(t, l, env)
		})
	}
}

func (l *Repo) countIn17() int {
	entries, _ := os.ReadDir(filepath.Join(l.GitDir, "objects", "17"))
	return len(entries)
}

// An object packed and deleted by a git gc after the library listed its
// packs is still found: the pack list is read again.
func TestReadObjectAfterConcurrentRepack(t *testing.T) {
	l, env := newTestRepo(t)
	gitCmd(t, l, env, "repack", "-adq")
	writeSome(t, l, "loose-one")
	h := plumbing.NewHash(strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "HEAD:ci-debugging/references/loose-one.md")))
	if _, err := l.readObject(plumbing.BlobObject, h); err != nil { // lists the packs
		t.Fatal(err)
	}
	gitCmd(t, l, env, "repack", "-adq") // a new pack; the old one and the loose file go
	gitCmd(t, l, env, "prune-packed")
	if _, err := os.Stat(filepath.Join(l.GitDir, "objects", h.String()[:2], h.String()[2:])); err == nil {
		t.Fatal("the loose object is still there: the test proves nothing")
	}
	got, err := l.readObject(plumbing.BlobObject, h)
	if err != nil || string(got) != "content of loose-one\n" {
		t.Fatalf("read after repack: %q, %v", got, err)
	}
}

// The real path: git gc starts detached and the write does not wait for
// it; it finishes on its own.
func TestMaintenanceRunsDetached(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	l, env := newTestRepo(t)
	for i := 0; l.countIn17() == 0; i++ {
		writeSome(t, l, "filler-"+strings.Repeat("y", i+1))
	}
	l.maintenance = maintenancePolicy{looseObjects: 0, looseBytes: 0}
	writeSome(t, l, "trigger")
	deadline := time.Now().Add(20 * time.Second)
	for looseCount(t, l, env) != "0" || l.gcRunning() {
		if time.Now().After(deadline) {
			t.Fatalf("git gc did not pack the loose objects (%s left)", looseCount(t, l, env))
		}
		time.Sleep(50 * time.Millisecond)
	}
	assertConsistent(t, l, env)
}
