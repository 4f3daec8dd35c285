package curator

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/internal/atomicfile"
)

// RunVersion is the version of run.json this code writes.
const RunVersion = 1

// ReportsDir is the folder, inside the state directory, that holds one
// folder per run: <ReportsDir>/<run-id>/run.json and REPORT.md.
const ReportsDir = "curator"

// Run is the record of one curator run, and the shape `curator run`
// prints; a dry run fills the same fields except the commits, with
// DryRun set.
type Run struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	// Kind is "" for a curator run, "prune" for `curator prune`.
	Kind            string     `json:"kind,omitempty"`
	DryRun          bool       `json:"dry_run"`
	StartedAt       time.Time  `json:"started_at"`
	DurationSeconds float64    `json:"duration_seconds"`
	Branch          string     `json:"branch"`
	PreRunCommit    string     `json:"pre_run_commit"`
	PreRunRef       string     `json:"pre_run_ref,omitempty"`
	MergeCommit     string     `json:"merge_commit,omitempty"`
	Commits         []string   `json:"commits"`
	Thresholds      Thresholds `json:"thresholds"`
	Counts          Counts     `json:"counts"`
	Transitions     []Change   `json:"transitions"`
	Archived        []Moved    `json:"archived"`
	Seeded          []string   `json:"seeded"`
	Summary         string     `json:"summary"`
	Recovery        []string   `json:"recovery"`
	RolledBack      *Rollback  `json:"rolled_back,omitempty"`
}

// Moved is one archived skill: where it was and where it went.
type Moved struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}

// RefPrefix is where each run's pre-run commit is kept.
const RefPrefix = "refs/skillrepo/curator/"

// NewRun starts the record of a run of plan on branch, whose tip before
// the run is preRun.
func NewRun(id string, plan *Plan, branch, preRun string, dryRun bool) *Run {
	r := &Run{
		Version:      RunVersion,
		ID:           id,
		DryRun:       dryRun,
		StartedAt:    plan.Now,
		Branch:       branch,
		PreRunCommit: preRun,
		Commits:      []string{},
		Thresholds:   plan.Thresholds,
		Counts:       plan.Counts,
		Transitions:  append([]Change{}, plan.Changes...),
		Archived:     []Moved{},
		Seeded:       append([]string{}, plan.Seeded...),
	}
	if !dryRun {
		r.PreRunRef = RefPrefix + id
	}
	for _, c := range plan.Archives() {
		r.Archived = append(r.Archived, Moved{Name: c.Name, From: c.Dir, To: c.ArchiveDir})
	}
	r.Summary = Summary(plan.Counts, dryRun)
	r.Recovery = r.recovery()
	return r
}

// Summary is the reference's one-line summary of phase 1.
func Summary(c Counts, dryRun bool) string {
	var prefix string
	if dryRun {
		prefix = "[dry-run] "
	}
	if c.MarkedStale+c.Archived+c.Reactivated == 0 {
		return prefix + "auto: no changes"
	}
	return fmt.Sprintf("%sauto: %d marked stale, %d archived, %d reactivated", prefix, c.MarkedStale, c.Archived, c.Reactivated)
}

func (r *Run) recovery() []string {
	out := []string{}
	if r.DryRun || len(r.Archived)+len(r.Transitions) == 0 {
		return out
	}
	out = append(out, "skillrepo curator rollback "+r.ID)
	for _, m := range r.Archived {
		out = append(out, "skillrepo skill restore "+m.Name)
	}
	return out
}

// NewRunID names a run after its start time in UTC (the reference's
// YYYYMMDD-HHMMSS), adding -2, -3 … when taken reports the name is in use.
func NewRunID(now time.Time, taken func(string) bool) string {
	base := now.UTC().Format("20060102-150405")
	id := base
	for i := 2; taken(id); i++ {
		id = fmt.Sprintf("%s-%d", base, i)
	}
	return id
}

// WriteReport writes run.json and REPORT.md into dir (created if needed)
// and returns the path of REPORT.md.
func WriteReport(dir string, r *Run) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("curator report dir: %w", err)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode run.json: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, "run.json"), append(b, '\n'), 0o644, true); err != nil {
		return "", fmt.Errorf("write run.json: %w", err)
	}
	md := filepath.Join(dir, "REPORT.md")
	if err := atomicfile.Write(md, []byte(r.Markdown()), 0o644, true); err != nil {
		return "", fmt.Errorf("write REPORT.md: %w", err)
	}
	return md, nil
}

// ReadRun reads a run's run.json from its report folder.
func ReadRun(dir string) (*Run, error) {
	b, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		return nil, fmt.Errorf("read curator run: %w", err)
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("read curator run %s: %w", dir, err)
	}
	if r.Version > RunVersion {
		return nil, fmt.Errorf("curator run %s has version %d, this binary knows %d", dir, r.Version, RunVersion)
	}
	return &r, nil
}

// Markdown renders the human report: counts, transitions, archived
// skills and the commands that undo the run.
func (r *Run) Markdown() string {
	var b strings.Builder
	title := "Curator run " + r.ID
	if r.DryRun {
		title = "Curator plan " + r.ID + " (dry run: nothing was changed)"
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "- started: %s\n", r.StartedAt.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "- branch: %s (before the run: %s)\n", r.Branch, short(r.PreRunCommit))
	if r.MergeCommit != "" {
		fmt.Fprintf(&b, "- merged as: %s (%d commits)\n", short(r.MergeCommit), len(r.Commits))
	}
	if r.Kind == RunKindPrune {
		fmt.Fprintf(&b, "- prune: archive skills idle at least %d days\n", r.Thresholds.ArchiveAfterDays)
	} else {
		fmt.Fprintf(&b, "- thresholds: stale after %d days, archive after %d days\n", r.Thresholds.StaleAfterDays, r.Thresholds.ArchiveAfterDays)
	}
	fmt.Fprintf(&b, "- summary: %s\n\n", r.Summary)

	c := r.Counts
	b.WriteString("## Counts\n\n| checked | marked stale | archived | reactivated | seeded | pinned | scheduled | unmanaged |\n")
	b.WriteString("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %d | %d | %d |\n\n",
		c.Checked, c.MarkedStale, c.Archived, c.Reactivated, c.Seeded, c.Pinned, c.Scheduled, c.Unmanaged)

	b.WriteString("## Transitions\n\n")
	if len(r.Transitions) == 0 {
		b.WriteString("None.\n")
	}
	for _, t := range r.Transitions {
		fmt.Fprintf(&b, "- `%s`: %s → %s — %s\n", t.Name, t.From, t.To, t.Reason)
	}
	b.WriteString("\n## Archived\n\n")
	if len(r.Archived) == 0 {
		b.WriteString("None.\n")
	}
	for _, m := range r.Archived {
		fmt.Fprintf(&b, "- `%s`: `%s/` → `%s/`\n", m.Name, m.From, m.To)
	}
	if len(r.Seeded) > 0 {
		b.WriteString("\n## Seeded\n\nUsage clock started now for: ")
		b.WriteString("`" + strings.Join(r.Seeded, "`, `") + "`\n")
	}
	b.WriteString("\n## Recovery\n\n")
	if len(r.Recovery) == 0 {
		b.WriteString("Nothing to recover.\n")
	}
	for _, cmd := range r.Recovery {
		fmt.Fprintf(&b, "- `%s`\n", cmd)
	}
	if r.PreRunRef != "" {
		fmt.Fprintf(&b, "\nThe library as it was before this run is kept at `%s` (%s).\n", r.PreRunRef, short(r.PreRunCommit))
	}
	if r.RolledBack != nil {
		fmt.Fprintf(&b, "\nRolled back at %s by %s.\n", r.RolledBack.At.UTC().Format(time.RFC3339), short(r.RolledBack.Commit))
	}
	return b.String()
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	if hash == "" {
		return "(none)"
	}
	return hash
}
