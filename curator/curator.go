package curator

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// ArchiveBatch is the most skills one commit of a run archives: a run
// that archives a thousand skills is ten commits and one merge, not a
// thousand tree rewrites.
const ArchiveBatch = 100

// BranchPrefix names a run's branch: curator/<run-id>. It exists only
// while the run writes; the merge keeps its commits reachable.
const BranchPrefix = "curator/"

// Owner is what the curator needs to know about who owns a skill.
type Owner struct {
	Managed bool // curator-managed: the curator may change it
	Pinned  bool // never changed by the curator
	// Unknown: history cannot tell (a shallow clone); only a report
	// shows this, nothing decides on it (Managed is false: fail closed).
	Unknown bool
}

// Ownership says, per skill folder, whether the curator manages the skill
// and whether it is pinned. Implementations read history (who created
// the skill, adopt/disown, the tracked pin list); they must fail closed:
// no evidence means user-owned.
type Ownership interface {
	Owners(snap *skillrepo.Snapshot, skills []skillrepo.SkillInfo, usage map[string]*usage.Record) (map[string]Owner, error)
}

// HistoryOwnership reads ownership from history (skillrepo.Owners.At:
// who created the skill, adopt and disown, following moves) and pins from
// skillrepo.Owners.Pins at the same commit: at the main branch's tip
// those include the pins and unpins made in Hermes (one pin truth).
type HistoryOwnership struct {
	Lib *skillrepo.Library
}

// Owners implements [Ownership].
func (h HistoryOwnership) Owners(snap *skillrepo.Snapshot, skills []skillrepo.SkillInfo, usage map[string]*usage.Record) (map[string]Owner, error) {
	rev := snap.Commit().String()
	if snap.Commit().IsZero() {
		return map[string]Owner{}, nil
	}
	owners, err := h.Lib.Owners().At(rev)
	if err != nil {
		return nil, err
	}
	pins, err := h.Lib.Owners().Pins(rev)
	if err != nil {
		return nil, err
	}
	pinned := make(map[string]bool, len(pins))
	for _, p := range pins {
		pinned[p] = true
	}
	out := make(map[string]Owner, len(skills))
	for _, si := range skills {
		out[si.Dir] = Owner{Managed: owners[si.Dir].CuratorManaged(), Pinned: pinned[si.Name]}
	}
	return out, nil
}

// unknownOwnership shows every skill's ownership as unknown, pins as
// pinned: what a report reads when history cannot tell (a shallow
// clone). Never used to decide.
type unknownOwnership struct{ Lib *skillrepo.Library }

func (u unknownOwnership) Owners(snap *skillrepo.Snapshot, skills []skillrepo.SkillInfo, _ map[string]*usage.Record) (map[string]Owner, error) {
	pinned := map[string]bool{}
	if !snap.Commit().IsZero() {
		pins, err := u.Lib.Owners().Pins(snap.Commit().String())
		if err != nil {
			return nil, err
		}
		for _, p := range pins {
			pinned[p] = true
		}
	}
	out := make(map[string]Owner, len(skills))
	for _, si := range skills {
		out[si.Dir] = Owner{Unknown: true, Pinned: pinned[si.Name]}
	}
	return out, nil
}

// Curator runs the lifecycle over one library. Now is the clock; every
// time decision reads it, so --now replays any run.
type Curator struct {
	Lib    *skillrepo.Library
	Now    func() time.Time
	Owners Ownership // nil: HistoryOwnership
	// Progress, when set, hears the skills a run archives as it goes.
	Progress Progress
	// Agents are the agents whose unattended runs a crontab line may
	// start: the skills such a line names are a scheduled job's
	// (scheduled.go). None: the crontab is not read.
	Agents []Unattended

	// testOnlyAt, when set (tests), is called at the named instants of a
	// run's landing: "before-record", "before-merge", "after-merge".
	testOnlyAt func(step string)
}

// Progress hears how far a long run has got; the CLI draws it on a
// terminal. Calls come from one goroutine; a total of 0 means unknown.
type Progress interface {
	Start(what string, total int)
	Add(n int)
	Done()
}

// source is everything deciding reads. None of its methods writes, and a
// dry run only ever holds a source: it cannot change a ref, a file, the
// sidecar or the curator state, whatever else the code around it does.
type source interface {
	Snapshot(rev string) (*skillrepo.Snapshot, error)
	MainBranch() string
	Config() config.Curator
	LoadUsage() (map[string]*usage.Record, error)
	LoadState() (RunState, error)
	RolledBack() (map[string]RolledBackSkill, error)
	RunTaken(id string) bool
	ReportDir(id string) string
}

type libSource struct{ l *skillrepo.Library }

func (s libSource) Snapshot(rev string) (*skillrepo.Snapshot, error) { return s.l.Snapshot(rev) }
func (s libSource) MainBranch() string                               { return s.l.MainBranch() }
func (s libSource) Config() config.Curator                           { return s.l.Config.Curator }
func (s libSource) LoadUsage() (map[string]*usage.Record, error) {
	return s.l.Usage().Load()
}
func (s libSource) LoadState() (RunState, error) { return StoreOf(s.l).Load() }
func (s libSource) RolledBack() (map[string]RolledBackSkill, error) {
	return rolledBack(s.l)
}
func (s libSource) ReportDir(id string) string {
	return filepath.Join(s.l.State().Curator(), ReportsDir, id)
}
func (s libSource) RunTaken(id string) bool {
	if _, err := os.Stat(s.ReportDir(id)); !errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if _, err := s.l.CuratorRuns().Base(id); !errors.Is(err, skillrepo.ErrNotFound) {
		return true
	}
	if _, err := s.l.BranchTip(BranchPrefix + id); !errors.Is(err, skillrepo.ErrNotFound) {
		return true
	}
	return false
}

func (c *Curator) now() time.Time { return c.Now().UTC() }

func (c *Curator) ownership() Ownership {
	if c.Owners != nil {
		return c.Owners
	}
	return HistoryOwnership{Lib: c.Lib}
}

// ScheduleOf is the library's schedule from its config.
func ScheduleOf(cfg config.Curator) Schedule {
	return Schedule{Enabled: cfg.Enabled, IntervalHours: cfg.IntervalHours}
}

// ThresholdsOf are the library's thresholds from its config.
func ThresholdsOf(cfg config.Curator) Thresholds {
	return Thresholds{StaleAfterDays: cfg.StaleAfterDays, ArchiveAfterDays: cfg.ArchiveAfterDays}
}

// UsageOf converts a sidecar record into what the rules read.
func UsageOf(r *usage.Record) Usage {
	t := func(s *string) time.Time {
		v, _ := usage.ParseTime(s)
		return v
	}
	return Usage{
		UseCount:      r.UseCount,
		LastUsedAt:    t(r.LastUsedAt),
		LastViewedAt:  t(r.LastViewedAt),
		LastPatchedAt: t(r.LastPatchedAt),
		CreatedAt:     t(r.CreatedAt),
		State:         State(r.State),
	}
}

// inventory is a library as deciding sees it at one commit.
type inventory struct {
	snap   *skillrepo.Snapshot
	skills []skillrepo.SkillInfo
	// usage is every skill's record, its aliases merged in (keys says
	// which keys a skill's record has).
	usage  map[string]*usage.Record
	keys   *usage.Keys
	owners map[string]Owner
	// rolledBack names the skills a rollback brought back that are
	// untouched since, and the run it undid (filled by input).
	rolledBack map[string]string
	// scheduled names the skills a scheduled job uses, each with where
	// the job was found (scheduled.go).
	scheduled map[string]string
}

// read takes the library as deciding sees it; usage nil means load the
// sidecar (without its lock).
func (c *Curator) read(src source, usage map[string]*usage.Record) (*inventory, error) {
	snap, err := src.Snapshot(src.MainBranch())
	if err != nil {
		return nil, err
	}
	skills, err := snap.Skills()
	if err != nil {
		return nil, err
	}
	if usage == nil {
		if usage, err = src.LoadUsage(); err != nil {
			return nil, err
		}
	}
	// A record split across a skill's aliases (its folder name and the
	// frontmatter name Hermes counts under) is one record: half of it
	// would make the skill look idle (docs/reference-behaviour.md §5.2).
	keys, err := snap.UsageKeys(skills)
	if err != nil {
		return nil, err
	}
	usage = keys.Resolve(usage)
	owners, err := c.ownership().Owners(snap, skills, usage)
	if err != nil {
		return nil, fmt.Errorf("skill ownership: %w", err)
	}
	return &inventory{snap: snap, skills: skills, usage: usage, keys: keys, owners: owners,
		scheduled: c.scheduledSkills(src.Config(), skills)}, nil
}

// plan decides a run at now from what src reads.
func (c *Curator) plan(src source, inv *inventory, now time.Time) (*Plan, error) {
	in, err := c.input(src, inv, now)
	if err != nil {
		return nil, err
	}
	return NewPlan(in)
}

// input is what the planners decide from, read through src.
func (c *Curator) input(src source, inv *inventory, now time.Time) (Input, error) {
	cfg := src.Config()
	in := Input{Now: now, Thresholds: ThresholdsOf(cfg), Usage: make(map[string]Usage, len(inv.usage))}
	for name, r := range inv.usage {
		in.Usage[name] = UsageOf(r)
	}
	rolledBack, err := src.RolledBack()
	if err != nil {
		return Input{}, err
	}
	inv.rolledBack = map[string]string{}
	for _, si := range inv.skills {
		o := inv.owners[si.Dir]
		rb := false
		if e, ok := rolledBack[si.Name]; ok && !si.Archived {
			rb = e.untouched(si.Dir, inv.snap.DirHash(si.Dir).String(), in.Usage[si.Name])
			if rb {
				inv.rolledBack[si.Name] = e.Run
			}
		}
		in.Skills = append(in.Skills, Skill{
			Name: si.Name, Dir: si.Dir, Archived: si.Archived,
			Managed: o.Managed, Pinned: o.Pinned, Scheduled: inv.scheduled[si.Name] != "", RolledBack: rb,
		})
	}
	// Folders under .archive/ that are not skills still block a name.
	if entries, err := fs.ReadDir(inv.snap.FS(), skillrepo.ArchiveDir); err == nil {
		for _, e := range entries {
			in.Occupied = append(in.Occupied, e.Name())
		}
	}
	return in, nil
}

// RunOptions chooses how a run goes.
type RunOptions struct {
	// DryRun decides and reports exactly what a run would do and writes
	// nothing at all.
	DryRun bool
	// IfDue runs only when the schedule says so (the first call on a
	// library seeds the schedule instead).
	IfDue bool
	// Force runs even when the curator is disabled or paused.
	Force bool
	// Consolidate, when set, adds phase 2: a model folds clusters of
	// narrow skills into umbrellas on the run's branch (nil: phase 1 only).
	Consolidate *ConsolidateOptions
}

// Outcome is what [Curator.Run] did.
type Outcome struct {
	// Run is the run (or, for a dry run, the plan); nil when none ran.
	Run *Run `json:"run"`
	// Skipped says why no run happened (not due, seeded, paused …).
	Skipped string `json:"skipped,omitempty"`
	// Seeded is true when this call seeded the schedule.
	Seeded bool `json:"seeded"`
	// Next is when the next scheduled run is due (zero: not scheduled).
	Next time.Time `json:"next"`
	// ReportPath is the run's REPORT.md (real runs).
	ReportPath string `json:"report_path,omitempty"`
	// OrphansDropped are branches curator/<run> that stopped runs had
	// left; this run deleted them.
	OrphansDropped []string `json:"orphans_dropped,omitempty"`
}

// ErrDisabled is returned by a run of a disabled curator without Force.
var ErrDisabled = errors.New("the curator is disabled (curator.enabled: false in .skillrepo/config.yaml)")

// Run decides and, unless DryRun, applies one curator run: archive moves as
// one branch (curator/<run-id>, a commit per ArchiveBatch skills, each with
// a Curator-Run trailer) merged into the main branch as one merge commit;
// the main branch's tip before the merge kept at
// refs/skillrepo/curator/<run-id>; stale and active states recorded in the
// usage sidecar; the schedule and a report under .git/skillrepo updated.
//
// A dry run goes through [Curator.Preview] and never reaches the code that
// writes. Errors: ErrDisabled; skillrepo.ErrLocked when another run holds
// the curator lock; skillrepo.ErrConflict (*ConflictError, *DirtyError)
// when the main branch changed a skill under the run — nothing is merged.
func (c *Curator) Run(ctx context.Context, opts RunOptions) (*Outcome, error) {
	if opts.DryRun {
		return c.Preview(ctx, opts)
	}
	unlock, err := c.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	src := libSource{c.Lib}
	now := c.now()
	out, proceed, err := c.gate(src, opts, now)
	if err != nil || !proceed {
		if out != nil && out.Seeded {
			if _, serr := StoreOf(c.Lib).Seed(now); serr != nil {
				return nil, serr
			}
		}
		return out, err
	}
	if out.OrphansDropped, err = c.dropOrphanBranches(); err != nil {
		return nil, err
	}
	if opts.Consolidate != nil {
		run, err := c.runConsolidating(ctx, src, now, opts.Consolidate)
		if err != nil {
			return nil, err
		}
		return c.record(src, out, run, now)
	}
	// Decide and write under the sidecar's lock: the records the plan
	// reads are the ones it updates (read once, not twice: 10,000 records
	// cost a tenth of a second to parse), and no telemetry bump lands
	// between deciding and recording. Git is written first; an error
	// leaves the sidecar as it was.
	var run *Run
	err = c.Lib.Usage().Update(func(recs map[string]*usage.Record) error {
		inv, err := c.read(src, recs)
		if err != nil {
			return err
		}
		plan, err := c.plan(src, inv, now)
		if err != nil {
			return err
		}
		run = NewRun(NewRunID(now, src.RunTaken), plan, src.MainBranch(), inv.snap.Commit().String(), false)
		run.PreRunRef = c.Lib.CuratorRuns().Ref(run.ID)
		if err := c.apply(ctx, run, plan, inv); err != nil {
			return err
		}
		setStates(recs, plan, inv.keys)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c.record(src, out, run, now)
}

// record writes a finished run's report and the schedule's state.
func (c *Curator) record(src source, out *Outcome, run *Run, now time.Time) (*Outcome, error) {
	id := run.ID
	run.DurationSeconds = c.now().Sub(now).Seconds()
	run.Landing = false
	report, err := WriteReport(src.ReportDir(id), run)
	if err != nil {
		return nil, err
	}
	st, err := StoreOf(c.Lib).Update(func(st *RunState) error {
		t := now
		st.LastRunAt = &t
		st.LastRunID = id
		st.RunCount++
		st.LastRunDuration = run.DurationSeconds
		st.LastRunSummary = run.Summary
		st.LastReportPath = report
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Run, out.ReportPath = run, report
	out.Next = Due(st, ScheduleOf(src.Config()), now).Next
	return out, nil
}

// beforeLanding writes a run's record just before its merge: the report
// (marked Landing) and the state naming it as the last run, so a run
// stopped at the landing instant is one status shows and rollback finds
// (its merge, if it landed, through its Curator-Run trailer).
func (c *Curator) beforeLanding(run *Run, now time.Time) error {
	if c.testOnlyAt != nil {
		c.testOnlyAt("before-record")
	}
	run.Landing = true
	if _, err := WriteReport(libSource{c.Lib}.ReportDir(run.ID), run); err != nil {
		return err
	}
	if run.Kind == RunKindPrune {
		return nil // a prune leaves the schedule alone
	}
	_, err := StoreOf(c.Lib).Update(func(st *RunState) error {
		t := now
		st.LastRunAt, st.LastRunID = &t, run.ID
		st.LastRunSummary = "run " + run.ID + " was stopped as it landed; 'skillrepo curator rollback " + run.ID + "' undoes whatever of it is on " + run.Branch
		return nil
	})
	if c.testOnlyAt != nil {
		c.testOnlyAt("before-merge")
	}
	return err
}

// dropOrphanBranches deletes the branches curator/<run> that stopped runs
// left behind (their work is merged, or was never landed) (the caller holds the curator lock, so
// no run is writing one), and returns their names.
func (c *Curator) dropOrphanBranches() ([]string, error) {
	ids, err := c.Lib.CuratorRuns().Branches()
	if err != nil {
		return nil, err
	}
	var dropped []string
	for _, id := range ids {
		branch := BranchPrefix + id
		tip, err := c.Lib.BranchTip(branch)
		if err != nil {
			continue
		}
		if err := c.Lib.CuratorRuns().DropBranch(branch, tip); err != nil {
			return dropped, fmt.Errorf("drop the branch %s a stopped run left: %w", branch, err)
		}
		dropped = append(dropped, branch)
	}
	return dropped, nil
}

// Preview decides a run and reports it as a plan, marked DryRun. It reads
// through a source only: no ref, file, sidecar or state is written, and
// no lock is taken (a lock file would be a write). With IfDue on a
// library never seen, it reports that a real call would seed the
// schedule.
//
// With opts.Consolidate, the model pass runs too, with the same prompt
// (after a dry-run banner) and the same tools, but every write tool
// answers "dry run: not written" and is recorded in
// Consolidation.WouldWrite; nothing reaches the library.
func (c *Curator) Preview(ctx context.Context, opts RunOptions) (*Outcome, error) {
	return c.preview(ctx, libSource{c.Lib}, opts)
}

func (c *Curator) preview(ctx context.Context, src source, opts RunOptions) (*Outcome, error) {
	now := c.now()
	out, proceed, err := c.gate(src, opts, now)
	if err != nil || !proceed {
		if out != nil && out.Seeded {
			out.Seeded = false
			out.Skipped = "dry run: " + out.Skipped + " (nothing recorded)"
		}
		return out, err
	}
	inv, err := c.read(src, nil)
	if err != nil {
		return nil, err
	}
	plan, err := c.plan(src, inv, now)
	if err != nil {
		return nil, err
	}
	id := NewRunID(now, src.RunTaken)
	out.Run = NewRun(id, plan, src.MainBranch(), inv.snap.Commit().String(), true)
	if opts.Consolidate != nil {
		in := passInput{
			runID: id, inv: inv, plan: plan, cfg: src.Config(),
			branch: BranchPrefix + id, base: inv.snap.Commit().String(), dryRun: true,
		}
		rec, tools, err := c.consolidate(ctx, in, opts.Consolidate)
		if err != nil {
			return nil, err
		}
		if err := c.finishPass(rec, tools, in); err != nil {
			return nil, err
		}
		out.Run.Consolidation = rec
		out.Run.Summary = consolidationSummary(out.Run, rec)
	}
	return out, nil
}

// gate applies the schedule and the enabled switch: proceed is false with
// an outcome saying why when no run should happen.
func (c *Curator) gate(src source, opts RunOptions, now time.Time) (*Outcome, bool, error) {
	sched := ScheduleOf(src.Config())
	st, err := src.LoadState()
	if err != nil {
		return nil, false, err
	}
	out := &Outcome{}
	if hermesOwned(src.Config()) && !opts.Force {
		// Hermes' curator runs: skillrepo's stands aside (hermes.go).
		if opts.IfDue {
			out.Skipped = "Hermes' own curator runs this library (curator.owner: hermes); its runs are recorded as curator commits"
			return out, false, nil
		}
		return nil, false, skillrepo.WithHint(ErrHermesCurator, "its runs are recorded by sync as curator commits; to run skillrepo's once, pass --force; to hand the library to skillrepo's, set curator.owner: skillrepo and curator.enabled: false in ~/.hermes/config.yaml")
	}
	if !sched.Enabled && !opts.Force {
		if opts.IfDue {
			out.Skipped = "curator disabled (curator.enabled: false)"
			return out, false, nil
		}
		return nil, false, ErrDisabled
	}
	d := Due(st, sched, now)
	out.Next = d.Next
	if opts.IfDue && !opts.Force && !d.Due {
		out.Skipped, out.Seeded = d.Reason, d.Seed
		return out, false, nil
	}
	return out, true, nil
}

// lock serialises curator runs and rollbacks of one clone (the library
// lock is taken per write and is not reentrant, so it cannot span a run).
func (c *Curator) lock() (func(), error) {
	unlock, ok, err := statefile.TryLock(filepath.Join(c.Lib.State().Curator(), "curator.lock"))
	if err != nil {
		return nil, fmt.Errorf("curator lock: %w", err)
	}
	if !ok {
		return nil, fmt.Errorf("another curator run or rollback is in progress: %w", skillrepo.ErrLocked)
	}
	return unlock, nil
}

// apply writes a decided run's git side: the archive moves as a branch and
// a merge, and the pre-run ref.
func (c *Curator) apply(ctx context.Context, run *Run, plan *Plan, inv *inventory) error {
	pre := inv.snap.Commit()
	archives := plan.Archives()
	if len(archives) > 0 {
		merge, before, commits, err := c.commitArchives(ctx, run, archives, pre)
		if err != nil {
			return err
		}
		run.Commits = append(commits, merge.String())
		run.MergeCommit = merge.String()
		run.PreRunCommit = before.String()
		pre = before
	}
	if !pre.IsZero() {
		if err := c.Lib.CuratorRuns().KeepBase(run.ID, pre); err != nil {
			return fmt.Errorf("keep the pre-run tip: %w", err)
		}
	}
	return nil
}

// commitArchives writes the run branch and merges it. It returns the merge
// commit, the main branch's tip it was merged onto, and the branch commits.
func (c *Curator) commitArchives(ctx context.Context, run *Run, archives []Change, pre skillrepo.Hash) (merge, before skillrepo.Hash, commits []string, err error) {
	var progress func(int)
	if c.Progress != nil {
		c.Progress.Start("archiving skills", len(archives))
		defer c.Progress.Done()
		progress = c.Progress.Add
	}
	tip, commits, err := c.writeArchives(ctx, run, archives, pre, progress)
	if err != nil {
		return merge, before, nil, err
	}
	// The branch has done its job once merged (or failed): its commits
	// stay reachable through the merge's second parent.
	defer c.Lib.CuratorRuns().DropBranch(BranchPrefix+run.ID, tip)

	run.Commits = commits
	if err := c.beforeLanding(run, c.now()); err != nil {
		return merge, before, nil, err
	}
	dirs := append(dirsOf(archives), archiveDirsOf(archives)...)
	merge, before, err = c.land(ctx, run, archives, pre, tip, dirs, mergeMessage(run, archives, len(commits)))
	if err != nil {
		return merge, before, nil, err
	}
	if c.testOnlyAt != nil {
		c.testOnlyAt("after-merge")
	}
	return merge, before, commits, nil
}

// setStates records the plan's states in the sidecar records: stale,
// active again, archived (with archived_at), and a fresh record (clock
// starting now) for each seeded skill.
// setStates records the plan's lifecycle states in the sidecar: on every
// record a skill has (its aliases), or a new one under the key the
// reference reads (keys nil: the skill's name).
func setStates(recs map[string]*usage.Record, plan *Plan, keys *usage.Keys) {
	stamp := usage.FormatTime(plan.Now)
	aliases := func(name string) []string {
		if keys == nil {
			if _, ok := recs[name]; ok {
				return []string{name}
			}
			return nil
		}
		return keys.Aliases(recs, name)
	}
	key := func(name string) string {
		if keys == nil {
			return name
		}
		return keys.Key(name)
	}
	for _, ch := range plan.Changes {
		as := aliases(ch.Name)
		if len(as) == 0 {
			recs[key(ch.Name)] = &usage.Record{CreatedAt: stamp}
			as = []string{key(ch.Name)}
		}
		for _, a := range as {
			r := recs[a]
			r.State = string(ch.To)
			if ch.To == StateArchived {
				r.ArchivedAt = stamp
			} else {
				r.ArchivedAt = nil
			}
		}
	}
	for _, name := range plan.Seeded {
		if len(aliases(name)) == 0 {
			recs[key(name)] = &usage.Record{CreatedAt: stamp, State: usage.StateActive}
		}
	}
}

func dirsOf(cs []Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Dir
	}
	return out
}

func archiveDirsOf(cs []Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ArchiveDir
	}
	return out
}

func movesOf(cs []Change) []skillrepo.Move {
	out := make([]skillrepo.Move, len(cs))
	for i, c := range cs {
		out[i] = skillrepo.Move{From: c.Dir, To: c.ArchiveDir}
	}
	return out
}

// archiveTrailers name every archived skill and where it lived.
func archiveTrailers(m *skillrepo.Message, action, runID string, cs []Change) {
	m.Add(skillrepo.TrailerAction, action)
	for _, c := range cs {
		m.Add(skillrepo.TrailerName, c.Name)
	}
	m.Add(skillrepo.TrailerOrigin, skillrepo.OriginCurator)
	m.Add(skillrepo.TrailerCuratorRun, runID)
	for _, c := range cs {
		m.Add(skillrepo.TrailerFrom, c.Dir)
	}
}

func batchMessage(runID string, cs []Change) skillrepo.Message {
	m := skillrepo.Message{Subject: fmt.Sprintf("curator: archive %d skills", len(cs))}
	if len(cs) == 1 {
		m.Subject = "curator: archive " + cs[0].Name
	}
	var body []string
	for _, c := range cs {
		body = append(body, fmt.Sprintf("- %s: %s -> %s (%s)", c.Name, c.Dir, c.ArchiveDir, c.Reason))
	}
	m.Body = strings.Join(body, "\n")
	archiveTrailers(&m, skillrepo.ActionArchive, runID, cs)
	return m
}

// ActionMerge is the Skill-Action of the merge that lands a curator run.
const ActionMerge = "merge"

func mergeMessage(run *Run, cs []Change, commits int) skillrepo.Message {
	m := skillrepo.Message{
		Subject: fmt.Sprintf("curator: run %s, archive %s", run.ID, skillsText(len(cs))),
		Body: fmt.Sprintf("Merge branch %s%s (%s).\n\n%s", BranchPrefix, run.ID, commitsText(commits), run.Summary) +
			"\n\nUndo with: skillrepo curator rollback " + run.ID,
	}
	archiveTrailers(&m, ActionMerge, run.ID, cs)
	return m
}

// Conflict is one skill a merge or rollback cannot apply to.
type Conflict struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Commit is the later commit that changed it, when known.
	Commit  string `json:"commit,omitempty"`
	Subject string `json:"subject,omitempty"`
}

// ConflictError lists the skills that stop a merge or rollback. Nothing
// was written. It matches skillrepo.ErrConflict.
type ConflictError struct {
	Op        string
	Conflicts []Conflict
	Advice    string // the hint
}

func (e *ConflictError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d conflict(s), nothing was written:", e.Op, len(e.Conflicts))
	cs := append([]Conflict(nil), e.Conflicts...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Path < cs[j].Path })
	for _, c := range cs {
		fmt.Fprintf(&b, "\n  %s (%s): %s", c.Name, c.Path, c.Reason)
		if c.Commit != "" {
			fmt.Fprintf(&b, " by %.12s %q", c.Commit, c.Subject)
		}
	}
	return b.String()
}

// Is makes errors.Is(err, skillrepo.ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == skillrepo.ErrConflict }

// Hint says how to go on.
func (e *ConflictError) Hint() string { return e.Advice }

func skillsText(n int) string {
	if n == 1 {
		return "1 skill"
	}
	return fmt.Sprintf("%d skills", n)
}

func commitsText(n int) string {
	if n == 1 {
		return "1 commit"
	}
	return fmt.Sprintf("%d commits", n)
}

// runConflict is the error of a run that cannot land as it is: main
// changed what the run decided on.
func runConflict(run *Run, conflicts []Conflict) error {
	return &ConflictError{Op: "merge curator run " + run.ID, Conflicts: conflicts,
		Advice: "run the curator again: it decides from the library as it is now"}
}
