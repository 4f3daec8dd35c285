package curator

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// PruneOptions choose what [Curator.Prune] archives.
type PruneOptions struct {
	// Days is the idle time, in whole days, at which a skill is archived;
	// 0 means the library's curator.archive_after_days.
	Days int
	// DryRun decides and reports, and writes nothing at all.
	DryRun bool
}

// RunKindPrune marks a run made by `curator prune` (Run.Kind).
const RunKindPrune = "prune"

// NewPrunePlan is the reference's `curator prune` (docs/reference-
// behaviour.md §6.10) as a plan: every curator-managed skill outside
// .archive/ that is neither pinned nor used by a scheduled job and has
// been idle at least days (idle = now − the latest of last used, viewed
// and patched, else created_at) is archived. Unlike a run it never marks
// stale, reactivates or seeds: a skill without a usage record, or with no
// time in it, has no known idle time and stays. Pure, like [NewPlan].
func NewPrunePlan(in Input, days int) (*Plan, error) {
	if days < 1 {
		return nil, fmt.Errorf("prune: --days must be at least 1 (got %d)", days)
	}
	if in.Now.IsZero() {
		return nil, fmt.Errorf("prune plan: no current time")
	}
	now := in.Now.UTC()
	cutoff := now.Add(-time.Duration(days) * Day)
	skills := append([]Skill(nil), in.Skills...)
	sort.Slice(skills, func(i, j int) bool { return skills[i].Name < skills[j].Name })
	taken := occupiedNames(in, skills)
	p := &Plan{Now: now, Thresholds: Thresholds{StaleAfterDays: days, ArchiveAfterDays: days}, Changes: []Change{}, Seeded: []string{}}
	for _, s := range skills {
		if s.Archived {
			continue
		}
		if !s.Managed && !s.Pinned {
			p.Counts.Unmanaged++
			continue
		}
		p.Counts.Checked++
		switch {
		case s.Pinned:
			p.Counts.Pinned++
			continue
		case s.Scheduled:
			p.Counts.Scheduled++
			continue
		}
		u, ok := in.Usage[s.Name]
		if !ok {
			continue
		}
		anchor, kind, ok := u.LastActivity()
		if !ok {
			anchor, kind = u.CreatedAt, "created"
		}
		if anchor.IsZero() || anchor.UTC().After(cutoff) {
			continue
		}
		anchor = anchor.UTC()
		from := StateActive
		if u.State == StateStale {
			from = StateStale
		}
		dest := archiveDest(s.Name, now, taken)
		taken[dest[len(ArchiveDir)+1:]] = true
		p.Changes = append(p.Changes, Change{
			Name: s.Name, Dir: s.Dir, Action: ActionArchive, From: from, To: StateArchived, Anchor: anchor,
			ArchiveDir: dest,
			Reason:     fmt.Sprintf("idle %s since %s (prune --days %d)", daysText(int(now.Sub(anchor)/Day)), kind, days),
		})
		p.Counts.Archived++
	}
	return p, nil
}

// occupiedNames are the names under .archive/ an archive must not take.
func occupiedNames(in Input, skills []Skill) map[string]bool {
	taken := make(map[string]bool, len(in.Occupied))
	for _, o := range in.Occupied {
		taken[o] = true
	}
	for _, s := range skills {
		if s.Archived {
			taken[baseName(s.Dir)] = true
		}
	}
	return taken
}

func baseName(dir string) string {
	for i := len(dir) - 1; i >= 0; i-- {
		if dir[i] == '/' {
			return dir[i+1:]
		}
	}
	return dir
}

// Prune archives every curator-managed, unpinned skill idle at least
// opts.Days as one curator run: a branch curator/<run-id> merged into the
// main branch as one merge with Curator-Run trailers, the pre-run tip kept
// at refs/skillrepo/curator/<run-id>, a report under .git/skillrepo, the
// sidecar marking the skills archived; `curator rollback RUN` undoes it
// like any run. It does not count as the scheduled run (the schedule is
// left alone). A dry run reads only. Errors: those of [Curator.Run].
func (c *Curator) Prune(ctx context.Context, opts PruneOptions) (*Outcome, error) {
	src := libSource{c.Lib}
	days := opts.Days
	if days == 0 {
		th := ThresholdsOf(src.Config())
		if err := th.Validate(); err != nil {
			return nil, err
		}
		days = th.ArchiveAfterDays
	}
	now := c.now()
	if opts.DryRun {
		inv, err := c.read(src, nil)
		if err != nil {
			return nil, err
		}
		plan, err := c.prunePlan(src, inv, now, days)
		if err != nil {
			return nil, err
		}
		run := NewRun(NewRunID(now, src.RunTaken), plan, src.MainBranch(), inv.snap.Commit().String(), true)
		markPrune(run, days)
		return &Outcome{Run: run}, nil
	}
	unlock, err := c.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	var run *Run
	err = c.Lib.Usage().Update(func(recs map[string]*usage.Record) error {
		inv, err := c.read(src, recs)
		if err != nil {
			return err
		}
		plan, err := c.prunePlan(src, inv, now, days)
		if err != nil {
			return err
		}
		run = NewRun(NewRunID(now, src.RunTaken), plan, src.MainBranch(), inv.snap.Commit().String(), false)
		run.PreRunRef = c.Lib.CuratorRuns().Ref(run.ID)
		markPrune(run, days)
		if err := c.apply(ctx, run, plan, inv); err != nil {
			return err
		}
		setStates(recs, plan, inv.keys)
		return nil
	})
	if err != nil {
		return nil, err
	}
	run.DurationSeconds = c.now().Sub(now).Seconds()
	run.Landing = false
	report, err := WriteReport(src.ReportDir(run.ID), run)
	if err != nil {
		return nil, err
	}
	return &Outcome{Run: run, ReportPath: report}, nil
}

func markPrune(run *Run, days int) {
	run.Kind = RunKindPrune
	prefix := ""
	if run.DryRun {
		prefix = "[dry-run] "
	}
	run.Summary = fmt.Sprintf("%sprune: %s idle at least %s archived", prefix, skillsText(run.Counts.Archived), daysText(days))
}

// prunePlan is [NewPrunePlan] over what src reads.
func (c *Curator) prunePlan(src source, inv *inventory, now time.Time, days int) (*Plan, error) {
	// The run's own planner input, without its thresholds.
	base, err := c.input(src, inv, now)
	if err != nil {
		return nil, err
	}
	return NewPrunePlan(base, days)
}
