package curator

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// PurgeVersion is the version of the [PurgeResult] shape.
const PurgeVersion = 1

// PurgeOptions choose what [Curator.Purge] removes.
type PurgeOptions struct {
	// Days is the age, in whole days since it was archived, at which an
	// archived skill is purged; 0 means curator.archive_ttl_days.
	Days int
	// DryRun decides and reports, and writes nothing at all.
	DryRun bool
}

// Purged is one archived skill a purge removes (or keeps).
type Purged struct {
	Name string `json:"name"`
	Dir  string `json:"dir"`
	// ArchivedAt is when the skill was archived: the committer time of
	// the commit that moved it into .archive/, else the usage sidecar's
	// archived_at (Source says which).
	ArchivedAt time.Time `json:"archived_at"`
	Source     string    `json:"archived_at_source"`
	AgeDays    int       `json:"age_days"`
}

// PurgeResult is what a purge did (or, dry, would do).
type PurgeResult struct {
	Version int      `json:"version"`
	DryRun  bool     `json:"dry_run"`
	Days    int      `json:"days"`
	Commit  string   `json:"commit,omitempty"`
	Purged  []Purged `json:"purged"`
	// Kept are archived skills younger than Days.
	Kept []Purged `json:"kept"`
	// Undated are archived folders whose archiving time neither history
	// nor the sidecar tells: never purged.
	Undated []string `json:"undated"`
}

// ErrPurgeDisabled is returned by a purge without days on a library whose
// curator.archive_ttl_days is 0 (the default, as in the reference).
var ErrPurgeDisabled = errors.New("purging is off (curator.archive_ttl_days is 0)")

// Purge removes from the tree every archived skill archived at least
// opts.Days ago, in one commit on the main branch (Skill-Action: purge,
// Skill-Name and Skill-From per skill). History keeps every purged
// folder, and `skill restore NAME` brings one back from it. The age comes
// from history (when the folder entered .archive/), else from the usage
// sidecar's archived_at; a folder neither dates is kept. A dry run reads
// only. Errors: ErrPurgeDisabled, skillrepo.ErrLocked, and those of
// skillrepo.Policy.PurgeArchived.
func (c *Curator) Purge(ctx context.Context, opts PurgeOptions) (*PurgeResult, error) {
	days := opts.Days
	if days == 0 {
		days = c.Lib.Config.Curator.ArchiveTTLDays
		if days <= 0 {
			return nil, ErrPurgeDisabled
		}
	}
	if days < 1 {
		return nil, fmt.Errorf("purge: days must be at least 1 (got %d)", days)
	}
	if !opts.DryRun {
		unlock, err := c.lock()
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	now := c.now()
	out := &PurgeResult{Version: PurgeVersion, DryRun: opts.DryRun, Days: days, Purged: []Purged{}, Kept: []Purged{}, Undated: []string{}}
	snap, err := c.Lib.Snapshot("")
	if err != nil {
		return nil, err
	}
	skills, err := snap.Skills()
	if err != nil {
		return nil, err
	}
	sidecar, err := c.Lib.Usage().Load()
	if err != nil {
		return nil, err
	}
	cutoff := now.Add(-time.Duration(days) * Day)
	rev := snap.Commit().String()
	for _, si := range skills {
		if !si.Archived {
			continue
		}
		p := Purged{Name: skillrepo.ArchivedName(si.Dir), Dir: si.Dir}
		if _, at, err := c.Lib.History().ArchivedFrom(rev, si.Dir); err == nil {
			ci, err := c.Lib.History().Commit(at)
			if err != nil {
				return nil, err
			}
			p.ArchivedAt, p.Source = ci.When, "history"
		} else if !errors.Is(err, skillrepo.ErrNotFound) {
			return nil, err
		} else if r, ok := sidecar[p.Name]; ok {
			if t, ok := usage.ParseTime(r.ArchivedAt); ok {
				p.ArchivedAt, p.Source = t.UTC(), "usage"
			}
		}
		if p.ArchivedAt.IsZero() {
			out.Undated = append(out.Undated, si.Dir)
			continue
		}
		p.AgeDays = int(now.Sub(p.ArchivedAt) / Day)
		if p.ArchivedAt.After(cutoff) {
			out.Kept = append(out.Kept, p)
		} else {
			out.Purged = append(out.Purged, p)
		}
	}
	sort.Slice(out.Purged, func(i, j int) bool { return out.Purged[i].Dir < out.Purged[j].Dir })
	if opts.DryRun || len(out.Purged) == 0 {
		return out, nil
	}
	pol, err := c.Lib.Policy(skillrepo.Writer{})
	if err != nil {
		return nil, err
	}
	dirs := make([]string, len(out.Purged))
	for i, p := range out.Purged {
		dirs[i] = p.Dir
	}
	res, err := pol.PurgeArchived(ctx, snap.Commit(), dirs, purgeMessage(out.Purged, days))
	if err != nil {
		return nil, err
	}
	out.Commit = res.New.String()
	return out, nil
}

func purgeMessage(ps []Purged, days int) skillrepo.Message {
	m := skillrepo.Message{Subject: fmt.Sprintf("curator: purge %s archived at least %s ago", skillsText(len(ps)), daysText(days))}
	if len(ps) == 1 {
		m.Subject = fmt.Sprintf("curator: purge %s (archived %s ago)", ps[0].Name, daysText(ps[0].AgeDays))
	}
	var body []string
	for _, p := range ps {
		body = append(body, fmt.Sprintf("- %s: %s, archived %s (%s ago)", p.Name, p.Dir, p.ArchivedAt.Format(time.RFC3339), daysText(p.AgeDays)))
	}
	m.Body = strings.Join(body, "\n") + "\n\nHistory keeps them: skillrepo skill restore NAME brings one back."
	m.Add(skillrepo.TrailerAction, skillrepo.ActionPurge)
	for _, p := range ps {
		m.Add(skillrepo.TrailerName, p.Name)
	}
	m.Add(skillrepo.TrailerOrigin, skillrepo.OriginUser)
	for _, p := range ps {
		m.Add(skillrepo.TrailerFrom, p.Dir)
	}
	return m
}
