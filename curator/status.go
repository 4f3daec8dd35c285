package curator

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// Owner labels used in [Status.Counts]; OwnerUnknown when history cannot
// tell (a shallow clone, [Status.OwnershipUnknown]).
const (
	OwnerCurator = "curator"
	OwnerUser    = "user"
	OwnerUnknown = "unknown"
)

// Status is what `curator status` reports: the switch, the schedule, the
// last run and the library by state and owner.
type Status struct {
	Enabled           bool       `json:"enabled"`
	Paused            bool       `json:"paused"`
	RunCount          int        `json:"run_count"`
	LastRunAt         *time.Time `json:"last_run_at"`
	LastRunID         string     `json:"last_run_id"`
	LastRunSummary    string     `json:"last_run_summary"`
	LastReportPath    string     `json:"last_report_path"`
	LastReportMissing bool       `json:"last_report_missing"`
	Due               bool       `json:"due"`
	NextRunAt         *time.Time `json:"next_run_at"`
	IntervalHours     int        `json:"interval_hours"`
	Thresholds        Thresholds `json:"thresholds"`
	// ScheduledSkills are the skills a scheduled job uses, never aged out
	// or consolidated: the listed ones (curator.scheduled_skills) and
	// those found in Hermes' cron jobs and the crontab; ScheduledBy says
	// where each was found.
	ScheduledSkills []string          `json:"scheduled_skills"`
	ScheduledBy     map[string]string `json:"scheduled_by"`
	// Consolidate: every run includes phase 2 (curator.consolidate).
	Consolidate bool           `json:"consolidate"`
	Counts      map[string]int `json:"counts"` // "<owner>/<state>" → skills
	// OwnershipUnknown says why history cannot tell who owns the skills
	// (a shallow clone); they are counted as "unknown/<state>".
	OwnershipUnknown string   `json:"ownership_unknown,omitempty"`
	Pinned           []string `json:"pinned"`
	// Owner is whose curator runs the library (curator.owner): skillrepo
	// or hermes. Hermes describes Hermes' own curator when the library is
	// a Hermes skills folder; OwnerNote says what the owner means, and
	// warns when both curators are on.
	Owner     string         `json:"owner"`
	OwnerNote string         `json:"owner_note"`
	Hermes    *HermesCurator `json:"hermes_curator,omitempty"`
	// PinnedBy counts the pinned unarchived skills per owner (curator,
	// user, unknown): a pinned skill is counted with its owner too.
	PinnedBy map[string]int `json:"pinned_by_owner"`
	// LeastRecentlyActive and MostRecentlyActive are the five curated
	// skills with the oldest and newest activity (never active first).
	LeastRecentlyActive []Activity `json:"least_recently_active"`
	MostRecentlyActive  []Activity `json:"most_recently_active"`
	// OrphanBranches are branches curator/<run> that stopped runs left
	// behind (a finished run deletes its own); the next run deletes them.
	OrphanBranches []string `json:"orphan_branches"`
}

// Activity is one skill's last activity.
type Activity struct {
	Name           string     `json:"name"`
	State          State      `json:"state"`
	LastActivityAt *time.Time `json:"last_activity_at"`
	ActivityCount  int        `json:"activity_count"`
}

// Status reads the curator's state and the library; it writes nothing.
func (c *Curator) Status() (*Status, error) {
	src := libSource{c.Lib}
	cfg := src.Config()
	st, err := src.LoadState()
	if err != nil {
		return nil, err
	}
	sched := ScheduleOf(cfg)
	th := ThresholdsOf(cfg)
	if err := th.Validate(); err != nil {
		return nil, err
	}
	out := &Status{
		Enabled: sched.Enabled, Paused: st.Paused, RunCount: st.RunCount, LastRunAt: st.LastRunAt,
		LastRunID: st.LastRunID, LastRunSummary: st.LastRunSummary,
		IntervalHours: int(sched.Interval() / time.Hour), Thresholds: th,
		ScheduledSkills: append([]string{}, cfg.ScheduledSkills...), Consolidate: cfg.Consolidate,
		Counts: map[string]int{}, Pinned: []string{}, PinnedBy: map[string]int{},
		LeastRecentlyActive: []Activity{}, MostRecentlyActive: []Activity{}, OrphanBranches: []string{},
	}
	if ids, err := c.Lib.CuratorRuns().Branches(); err == nil {
		for _, id := range ids {
			out.OrphanBranches = append(out.OrphanBranches, BranchPrefix+id)
		}
	}
	if st.LastReportPath != "" {
		out.LastReportPath = st.LastReportPath
		if rel, err := filepath.Rel(c.Lib.Root, st.LastReportPath); err == nil {
			out.LastReportPath = filepath.ToSlash(rel)
		}
		if _, err := os.Stat(st.LastReportPath); errors.Is(err, fs.ErrNotExist) {
			out.LastReportMissing = true
		}
	}
	d := Due(st, sched, c.now())
	out.Due = d.Due
	if !d.Next.IsZero() {
		next := d.Next
		out.NextRunAt = &next
	}
	out.Owner = cmp.Or(cfg.Owner, config.CuratorOwnerSkillrepo)
	out.Hermes = c.hermesCurator()
	switch {
	case hermesOwned(cfg):
		out.Due, out.NextRunAt = false, nil
		out.OwnerNote = "Hermes' own curator runs this library; skillrepo's stands aside and records Hermes' runs as curator commits (curator.owner: hermes)"
		if out.Hermes != nil && !out.Hermes.Enabled {
			out.OwnerNote += "; but curator.enabled is false in Hermes' config.yaml: no curator runs"
		}
	case out.Hermes != nil && out.Hermes.Enabled:
		out.OwnerNote = "skillrepo's curator runs this library (curator.owner: skillrepo), and Hermes' own is enabled too: set curator.enabled: false in ~/.hermes/config.yaml so one curator runs"
	default:
		out.OwnerNote = "skillrepo's curator runs this library"
	}

	inv, unknown, err := c.readForReport(src)
	if err != nil {
		return nil, err
	}
	out.OwnershipUnknown = unknown
	out.ScheduledSkills, out.ScheduledBy = scheduledNames(inv.scheduled), inv.scheduled
	var curated []Activity
	for _, si := range inv.skills {
		o := inv.owners[si.Dir]
		owner := OwnerUser
		switch {
		case o.Unknown:
			owner = OwnerUnknown
		case o.Managed:
			owner = OwnerCurator
		}
		state := StateActive
		r, hasRec := inv.usage[si.Name]
		if hasRec && r.State == string(StateStale) {
			state = StateStale
		}
		if si.Archived {
			state = StateArchived
		}
		out.Counts[owner+"/"+string(state)]++
		if o.Pinned && !si.Archived {
			out.Pinned = append(out.Pinned, si.Name)
			out.PinnedBy[owner]++
		}
		if !o.Managed || si.Archived {
			continue
		}
		a := Activity{Name: si.Name, State: state}
		if hasRec {
			if t, _, ok := UsageOf(r).LastActivity(); ok {
				a.LastActivityAt = &t
			}
			a.ActivityCount = r.UseCount + r.ViewCount + r.PatchCount
		}
		curated = append(curated, a)
	}
	sort.Strings(out.Pinned)
	sort.SliceStable(curated, func(i, j int) bool { return activityBefore(curated[i], curated[j]) })
	out.LeastRecentlyActive = append(out.LeastRecentlyActive, curated[:min(5, len(curated))]...)
	for i := len(curated) - 1; i >= 0 && len(out.MostRecentlyActive) < 5; i-- {
		if curated[i].LastActivityAt != nil {
			out.MostRecentlyActive = append(out.MostRecentlyActive, curated[i])
		}
	}
	return out, nil
}

// activityBefore orders never-active skills first, then by time, then name.
func activityBefore(a, b Activity) bool {
	switch {
	case a.LastActivityAt == nil && b.LastActivityAt == nil:
		return a.Name < b.Name
	case a.LastActivityAt == nil:
		return true
	case b.LastActivityAt == nil:
		return false
	case !a.LastActivityAt.Equal(*b.LastActivityAt):
		return a.LastActivityAt.Before(*b.LastActivityAt)
	}
	return a.Name < b.Name
}

// readForReport is [Curator.read] for a command that only reports: where
// history cannot tell ownership (a shallow clone), every skill's owner is
// unknown and unknown says why; deciding commands read with c.read, which
// fails closed.
func (c *Curator) readForReport(src source) (inv *inventory, unknown string, err error) {
	inv, err = c.read(src, nil)
	if !errors.Is(err, skillrepo.ErrOwnershipUnknown) || c.Owners != nil {
		return inv, "", err
	}
	unknown = strings.TrimPrefix(err.Error(), "skill ownership: ")
	shown := *c
	shown.Owners = unknownOwnership{Lib: c.Lib}
	inv, err = shown.read(src, nil)
	return inv, unknown, err
}
