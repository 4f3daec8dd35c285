//go:build unix

package curator

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// A curator run killed (SIGKILL) at each instant of its landing leaves a
// run that status names and rollback handles: killed after the merge, the
// merge is on main, status names the run and rollback reverts it; killed
// before the merge, nothing is on main and rollback says the run never
// landed. Either way the branch it left is reported, and the next run
// deletes it.
func TestCuratorKilledAtLanding(t *testing.T) {
	for _, step := range []string{"before-record", "before-merge", "after-merge"} {
		t.Run(step, func(t *testing.T) {
			f := newFixture(t)
			pre := strings.TrimSpace(f.git("rev-parse", "main"))
			cmd := exec.Command(os.Args[0], "-test.run=^TestCuratorKillHelper$", "-test.v")
			cmd.Env = append(os.Environ(), "CURATOR_KILL_AT="+step, "CURATOR_KILL_LIB="+f.lib.Root)
			for k, v := range f.env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the helper was not killed at %s: %v\n%s", step, err, out)
			}
			const id = "20260601-120000"
			f.lib.Close()
			lib, err := skillrepo.Open(f.lib.Root, skillrepo.OpenOptions{Getenv: func(k string) string { return f.env[k] }, Now: func() time.Time { return testNow }, LockTimeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer lib.Close()
			f.lib = lib
			c := f.curator()
			f.assertClean()
			st, err := c.Status()
			if err != nil {
				t.Fatal(err)
			}
			landed := step == "after-merge"
			onMain := strings.TrimSpace(f.git("rev-parse", "main")) != pre
			if onMain != landed {
				t.Fatalf("merge on main = %v, want %v", onMain, landed)
			}
			if step != "before-record" && st.LastRunID != id {
				t.Errorf("status: last run %q, want %s (written before the merge)", st.LastRunID, id)
			}
			// Every kill leaves the run's branch (landed or not): reported.
			if len(st.OrphanBranches) != 1 || st.OrphanBranches[0] != BranchPrefix+id {
				t.Fatalf("status orphans = %v, want the run's branch", st.OrphanBranches)
			}
			if landed {
				res, err := c.Rollback(context.Background(), id, RollbackOptions{})
				if err != nil {
					t.Fatalf("rollback of the landed run: %v", err)
				}
				if res.Commit == "" {
					t.Fatal("rollback reverted nothing")
				}
				if _, err := os.Stat(f.lib.Root + "/alpha/SKILL.md"); err != nil {
					t.Errorf("alpha not restored: %v", err)
				}
				if diff := f.git("diff", "--stat", pre, "main"); diff != "" {
					t.Errorf("main after the rollback differs from before the run:\n%s", diff)
				}
				f.assertClean()
			}
			if step == "before-merge" {
				if _, err := c.Rollback(context.Background(), id, RollbackOptions{}); !errors.Is(err, skillrepo.ErrNotFound) || !strings.Contains(err.Error(), "stopped before it landed") {
					t.Errorf("rollback of a run that never landed: %v", err)
				}
				if b := f.git("branch", "--list", "curator/*"); b != "" {
					t.Errorf("the rollback left the orphan branch: %s", b)
				}
				f.git("branch", BranchPrefix+id, pre) // as the kill left it, for the next run
			}
			// The next run deletes the orphan and does the work.
			f.now = testNow.Add(time.Minute)
			next, err := c.Run(context.Background(), RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(next.OrphansDropped) != 1 || next.OrphansDropped[0] != BranchPrefix+id {
				t.Errorf("orphans dropped = %v", next.OrphansDropped)
			}
			if b := f.git("branch", "--list", "curator/*"); b != "" {
				t.Errorf("branches left: %s", b)
			}
			if !landed && next.Run.MergeCommit == "" {
				t.Error("the next run archived nothing")
			}
			f.assertClean()
		})
	}
}

// TestCuratorKillHelper is the process TestCuratorKilledAtLanding kills:
// one curator run in CURATOR_KILL_LIB, SIGKILLed at CURATOR_KILL_AT.
func TestCuratorKillHelper(t *testing.T) {
	step := os.Getenv("CURATOR_KILL_AT")
	if step == "" {
		t.Skip("run by TestCuratorKilledAtLanding")
	}
	lib, err := skillrepo.Open(os.Getenv("CURATOR_KILL_LIB"), skillrepo.OpenOptions{Now: func() time.Time { return testNow }, LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c := &Curator{Lib: lib, Now: func() time.Time { return testNow }, Owners: ownedByHistory{}}
	c.testOnlyAt = func(at string) {
		if at == step {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	}
	if _, err := c.Run(context.Background(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("the run finished without reaching %s", step)
}

// A landed run whose record is gone (deleted, or never written) is still
// rolled back whole: what it changed is read from its merge.
func TestRollbackWithoutItsRecord(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	pre := strings.TrimSpace(f.git("rev-parse", "main"))
	id := f.run(c).ID
	if err := os.RemoveAll(libSource{f.lib}.ReportDir(id)); err != nil {
		t.Fatal(err)
	}
	res, err := c.Rollback(context.Background(), id, RollbackOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit == "" {
		t.Fatal("rollback reverted nothing")
	}
	if diff := f.git("diff", "--stat", pre, "main"); diff != "" {
		t.Errorf("main after the rollback differs from before the run:\n%s", diff)
	}
	f.assertClean()
}
