package curator

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// A rollback is not redone by the next scheduled run: the skills it
// brought back (alpha, archived by the run) or put back in state (beta,
// marked stale) are skipped while untouched; a skill touched since (its
// files edited) is judged by the usual rules again.
func TestRollbackIsNotRedone(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	ctx := context.Background()
	first := f.run(c)
	if !slices.Contains(actions(first), "alpha:active->archived") || !slices.Contains(actions(first), "beta:active->stale") {
		t.Fatalf("first run = %v", actions(first))
	}
	if _, err := c.Rollback(ctx, first.ID, RollbackOptions{}); err != nil {
		t.Fatal(err)
	}
	rb, err := readRolledBack(f.lib.State().Curator())
	if err != nil || rb["alpha"].Dir != "alpha" || rb["beta"].Dir != "ops/beta" || rb["alpha"].Run != first.ID {
		t.Fatalf("remembered = %+v, %v", rb, err)
	}

	// A week later the schedule runs again: nothing the rollback undid is
	// redone.
	f.now = f.now.Add(8 * 24 * time.Hour)
	out, err := c.Run(ctx, RunOptions{IfDue: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Run == nil {
		// The first --if-due seeds the schedule; the next one runs.
		f.now = f.now.Add(8 * 24 * time.Hour)
		if out, err = c.Run(ctx, RunOptions{IfDue: true}); err != nil || out.Run == nil {
			t.Fatalf("scheduled run: %+v, %v", out, err)
		}
	}
	for _, a := range actions(out.Run) {
		if a == "alpha:active->archived" || a == "beta:active->stale" {
			t.Errorf("the scheduled run redid %q", a)
		}
	}
	if out.Run.Counts.RolledBack != 2 {
		t.Errorf("skipped as rolled back: %d, want 2", out.Run.Counts.RolledBack)
	}
	if _, err := os.Stat(filepath.Join(f.lib.Root, "alpha", "SKILL.md")); err != nil {
		t.Fatalf("alpha was archived again: %v", err)
	}

	// Touch alpha (a person edits it): from now on the rules decide it.
	old, nu := "Steps for alpha.", "Steps for alpha, revised."
	testlib.Seed(t, f.lib, skillrepo.Op{Action: skillrepo.ActionPatch, Name: "alpha", OldString: &old, NewString: &nu})
	plan, err := c.Preview(ctx, RunOptions{DryRun: true, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Run.Counts.RolledBack != 1 {
		t.Errorf("after the edit, skipped as rolled back: %d, want 1 (beta only)", plan.Run.Counts.RolledBack)
	}
}

// The rollback's "do not redo" is recorded in the repository: in a clone
// without this clone's file (its file deleted here, or replaced by one
// that does not parse), the next run still skips the skill the rollback
// restored, because the rollback commit on main names it.
func TestRollbackMemoryComesFromTheRepository(t *testing.T) {
	for _, file := range []string{"", "{not json"} {
		f := newFixture(t)
		c := f.curator()
		ctx := context.Background()
		first := f.run(c)
		// The rollback commit is made now (the fixture's environment
		// otherwise dates every commit before the skills' last use).
		f.env["GIT_COMMITTER_DATE"] = f.now.Format(time.RFC3339)
		if _, err := c.Rollback(ctx, first.ID, RollbackOptions{}); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(f.lib.State().Curator(), RolledBackFile)
		os.Remove(p)
		if file != "" {
			os.WriteFile(p, []byte(file), 0o644)
		}
		f.now = f.now.Add(8 * 24 * time.Hour)
		out, err := c.Run(ctx, RunOptions{})
		if err != nil {
			t.Fatalf("file %q: %v", file, err)
		}
		if slices.Contains(actions(out.Run), "alpha:active->archived") {
			t.Errorf("file %q: the run archived alpha again", file)
		}
		if _, err := os.Stat(filepath.Join(f.lib.Root, "alpha", "SKILL.md")); err != nil {
			t.Errorf("file %q: alpha was archived again: %v", file, err)
		}
	}
}
