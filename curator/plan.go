package curator

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"time"
)

// State is a skill's lifecycle state, as the usage sidecar spells it.
type State string

// The lifecycle states of the reference curator.
const (
	StateActive   State = "active"
	StateStale    State = "stale"
	StateArchived State = "archived"
)

// Action is what a [Change] does to a skill.
type Action string

// The actions of phase 1.
const (
	// ActionStale marks an active skill stale (usage sidecar only).
	ActionStale Action = "mark_stale"
	// ActionArchive moves a skill to .archive/ (a commit) and marks it archived.
	ActionArchive Action = "archive"
	// ActionReactivate marks a stale skill active again (usage sidecar only).
	ActionReactivate Action = "reactivate"
)

// ArchiveDir is the folder archived skills live in, relative to the library root.
const ArchiveDir = ".archive"

// Day is the length of the reference's day: thresholds are whole days of
// 24 hours, compared against UTC instants, so daylight-saving time never
// shifts a cutoff.
const Day = 24 * time.Hour

// Skill is one skill as the planner sees it: where it lives and the facts
// that exempt it from curation. The caller gathers Managed from history
// (fail closed: no evidence means user-owned), Pinned from the tracked pin
// list and Scheduled from the tracked list of scheduled jobs.
type Skill struct {
	Name      string
	Dir       string // slash path relative to the library root
	Archived  bool   // Dir is under .archive/
	Managed   bool   // curator-managed (created by a review or the curator, or adopted)
	Pinned    bool
	Scheduled bool // referenced by a scheduled job
	// RolledBack: a rollback brought the skill back and nothing touched
	// it since (see RolledBackFile).
	RolledBack bool
}

// Usage is the part of a usage-sidecar record the rules read. A zero time
// means the field is missing or null.
type Usage struct {
	UseCount      int
	LastUsedAt    time.Time
	LastViewedAt  time.Time
	LastPatchedAt time.Time
	CreatedAt     time.Time
	State         State // "" when missing
}

// LastActivity is the latest of last use, view and patch (creation
// deliberately excluded, as in the reference's report rows) and which of
// the three it was; ok is false when the skill has no activity at all.
func (u Usage) LastActivity() (at time.Time, kind string, ok bool) {
	for _, c := range []struct {
		t    time.Time
		kind string
	}{{u.LastUsedAt, "last used"}, {u.LastViewedAt, "last viewed"}, {u.LastPatchedAt, "last patched"}} {
		if !c.t.IsZero() && c.t.After(at) {
			at, kind, ok = c.t, c.kind, true
		}
	}
	return at, kind, ok
}

// Thresholds are the inactivity windows of phase 1, in days.
type Thresholds struct {
	StaleAfterDays   int `json:"stale_after_days"`
	ArchiveAfterDays int `json:"archive_after_days"`
}

// Default thresholds of the newest reference (docs/reference-behaviour.md §6.1).
const (
	DefaultStaleAfterDays   = 14
	DefaultArchiveAfterDays = 30
)

// Validate fills zero fields with the defaults and rejects negative
// windows and an archive window shorter than the stale window.
func (t *Thresholds) Validate() error {
	if t.StaleAfterDays == 0 {
		t.StaleAfterDays = DefaultStaleAfterDays
	}
	if t.ArchiveAfterDays == 0 {
		t.ArchiveAfterDays = DefaultArchiveAfterDays
	}
	if t.StaleAfterDays < 0 || t.ArchiveAfterDays < 0 {
		return fmt.Errorf("curator thresholds must be positive (stale_after_days %d, archive_after_days %d)",
			t.StaleAfterDays, t.ArchiveAfterDays)
	}
	if t.ArchiveAfterDays < t.StaleAfterDays {
		return fmt.Errorf("curator archive_after_days (%d) is shorter than stale_after_days (%d)",
			t.ArchiveAfterDays, t.StaleAfterDays)
	}
	return nil
}

// Input is everything phase 1 decides from.
type Input struct {
	Skills []Skill
	// Usage holds the persisted sidecar records by skill name; a skill
	// without a record is seeded, not judged.
	Usage      map[string]Usage
	Thresholds Thresholds
	Now        time.Time
	// Occupied lists names already taken under .archive/ besides archived
	// skills (stray folders), so an archive never lands on them.
	Occupied []string
}

// Change is one skill's planned transition.
type Change struct {
	Name   string    `json:"name"`
	Dir    string    `json:"dir"`
	Action Action    `json:"action"`
	From   State     `json:"from"`
	To     State     `json:"to"`
	Reason string    `json:"reason"`
	Anchor time.Time `json:"anchor"`
	// ArchiveDir is where an archived skill goes (archive only).
	ArchiveDir string `json:"archive_dir,omitempty"`
}

// Counts are the reference's phase-1 counters plus why skills were skipped.
type Counts struct {
	Checked     int `json:"checked"`
	MarkedStale int `json:"marked_stale"`
	Archived    int `json:"archived"`
	Reactivated int `json:"reactivated"`
	Seeded      int `json:"seeded"`
	Pinned      int `json:"skipped_pinned"`
	Scheduled   int `json:"skipped_scheduled"`
	RolledBack  int `json:"skipped_rolled_back,omitempty"`
	// Unmanaged are the unpinned user-owned skills; PinnedUnmanaged the
	// pinned ones (counted in Checked and Pinned too, as the reference
	// does), so user-owned skills number Unmanaged + PinnedUnmanaged, as
	// curator status counts them.
	Unmanaged       int `json:"unmanaged"`
	PinnedUnmanaged int `json:"pinned_unmanaged"`
}

// UserOwned is how many unarchived skills are user-owned, pinned or not.
func (c Counts) UserOwned() int { return c.Unmanaged + c.PinnedUnmanaged }

// Plan is the outcome of phase 1: the changes to make, in name order, and
// the skills whose usage clock starts now.
type Plan struct {
	Now        time.Time  `json:"now"`
	Thresholds Thresholds `json:"thresholds"`
	Changes    []Change   `json:"changes"`
	Seeded     []string   `json:"seeded"`
	Counts     Counts     `json:"counts"`
}

// Archives returns the archive changes of the plan, in name order.
func (p *Plan) Archives() []Change {
	var out []Change
	for _, c := range p.Changes {
		if c.Action == ActionArchive {
			out = append(out, c)
		}
	}
	return out
}

// NewPlan applies the reference's deterministic transitions (docs/reference-behaviour.md §6.5,
// apply_automatic_transitions) to in and returns what would change. It
// is pure: it reads nothing and writes nothing, so a dry run and a real
// run decide from the same function and cannot drift.
//
// Per skill outside .archive/, in this order:
//   - user-owned and not pinned: not curated (counted as unmanaged);
//   - pinned: checked, skipped; referenced by a scheduled job: skipped;
//   - brought back by a rollback and untouched since: skipped;
//   - no persisted usage record: seeded (its clock starts now), skipped;
//   - anchor = last activity, else created_at, else now;
//   - never used and anchor inside the stale window: stays; a stale one
//     becomes active again;
//   - anchor at or before the archive cutoff: archived;
//   - else at or before the stale cutoff and active: marked stale;
//   - else inside the stale window and stale: active again.
//
// One deviation: a skill's location is the truth about archiving, so a
// skill outside .archive/ whose record still says "archived" (restored by
// hand) is judged as active. The reference would leave it stuck.
func NewPlan(in Input) (*Plan, error) {
	th := in.Thresholds
	if err := th.Validate(); err != nil {
		return nil, err
	}
	if in.Now.IsZero() {
		return nil, errors.New("curator plan: no current time")
	}
	now := in.Now.UTC()
	staleCutoff := now.Add(-time.Duration(th.StaleAfterDays) * Day)
	archiveCutoff := now.Add(-time.Duration(th.ArchiveAfterDays) * Day)

	skills := append([]Skill(nil), in.Skills...)
	sort.Slice(skills, func(i, j int) bool { return skills[i].Name < skills[j].Name })

	taken := make(map[string]bool, len(in.Occupied))
	for _, o := range in.Occupied {
		taken[o] = true
	}
	for _, s := range skills {
		if s.Archived {
			taken[path.Base(s.Dir)] = true
		}
	}

	p := &Plan{Now: now, Thresholds: th, Changes: []Change{}, Seeded: []string{}}
	for _, s := range skills {
		if s.Archived {
			continue // terminal for phase 1; restore is manual
		}
		if !s.Managed && !s.Pinned {
			p.Counts.Unmanaged++
			continue
		}
		p.Counts.Checked++ // pinned user-owned skills are listed, never judged
		if s.Pinned {
			p.Counts.Pinned++
			if !s.Managed {
				p.Counts.PinnedUnmanaged++
			}
			continue
		}
		if s.Scheduled {
			p.Counts.Scheduled++
			continue
		}
		if s.RolledBack {
			p.Counts.RolledBack++
			continue
		}
		u, ok := in.Usage[s.Name]
		if !ok {
			p.Seeded = append(p.Seeded, s.Name)
			p.Counts.Seeded++
			continue
		}
		anchor, kind, ok := u.LastActivity()
		if !ok {
			anchor, kind = u.CreatedAt, "created"
			if anchor.IsZero() {
				anchor, kind = now, "no timestamps"
			}
		}
		anchor = anchor.UTC()
		current := StateActive
		if u.State == StateStale {
			current = StateStale
		}
		idle := int(now.Sub(anchor) / Day)
		change := Change{Name: s.Name, Dir: s.Dir, From: current, Anchor: anchor}
		switch {
		case u.UseCount == 0 && anchor.After(staleCutoff):
			if current != StateStale {
				continue
			}
			change.Action, change.To = ActionReactivate, StateActive
			change.Reason = fmt.Sprintf("never used, %s %s ago (inside the %d-day stale window)",
				kind, daysText(idle), th.StaleAfterDays)
			p.Counts.Reactivated++
		case !anchor.After(archiveCutoff):
			change.Action, change.To = ActionArchive, StateArchived
			change.ArchiveDir = archiveDest(s.Name, now, taken)
			taken[path.Base(change.ArchiveDir)] = true
			change.Reason = fmt.Sprintf("inactive %s since %s (archive after %d)", daysText(idle), kind, th.ArchiveAfterDays)
			p.Counts.Archived++
		case !anchor.After(staleCutoff) && current == StateActive:
			change.Action, change.To = ActionStale, StateStale
			change.Reason = fmt.Sprintf("inactive %s since %s (stale after %d)", daysText(idle), kind, th.StaleAfterDays)
			p.Counts.MarkedStale++
		case anchor.After(staleCutoff) && current == StateStale:
			change.Action, change.To = ActionReactivate, StateActive
			change.Reason = fmt.Sprintf("active again: %s %s ago", kind, daysText(idle))
			p.Counts.Reactivated++
		default:
			continue
		}
		p.Changes = append(p.Changes, change)
	}
	return p, nil
}

// archiveDest picks .archive/<name>, or on a collision the reference's
// suffix -YYYYMMDDHHMMSS (then -2, -3 … should that be taken too).
func archiveDest(name string, now time.Time, taken map[string]bool) string {
	base := name
	if taken[base] {
		base = name + "-" + now.Format("20060102150405")
		for i := 2; taken[base]; i++ {
			base = fmt.Sprintf("%s-%s-%d", name, now.Format("20060102150405"), i)
		}
	}
	return ArchiveDir + "/" + base
}

func daysText(n int) string {
	if n == 1 {
		return "1 day"
	}
	return fmt.Sprintf("%d days", n)
}
