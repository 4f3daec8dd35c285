package curator

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/statefile"
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
	// Landing is set on the record written just before the run's merge
	// and cleared once the run is recorded: a record still landing is a
	// run stopped at that instant (its merge may or may not be on main).
	Landing bool `json:"landing,omitempty"`
	// Consolidation is phase 2 (curator run --consolidate); nil when off.
	Consolidation *Consolidation `json:"consolidation,omitempty"`
}

// Moved is one archived skill: where it was and where it went.
type Moved struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}

// RefPrefix is where each run's pre-run commit is kept, for a library
// that is the whole repository; [skillrepo.CuratorRuns.Ref] names it
// for any library.
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
	// A run without consolidation says so, as the reference's report does;
	// a consolidating run replaces the line with its phase 2's.
	r.Summary = Summary(plan.Counts, dryRun) + "; llm: skipped (consolidation off)"
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
	phase2 := r.Consolidation != nil && len(r.Consolidation.Commits) > 0
	if r.DryRun || len(r.Archived)+len(r.Transitions) == 0 && !phase2 {
		return out
	}
	if r.Consolidation != nil && r.Consolidation.Proposal != "" {
		out = append(out, "skillrepo proposal show "+r.Consolidation.Proposal,
			"skillrepo proposal approve "+r.Consolidation.Proposal,
			"skillrepo proposal reject "+r.Consolidation.Proposal)
		return out
	}
	out = append(out, "skillrepo curator rollback "+r.ID)
	for _, m := range r.Archived {
		out = append(out, "skillrepo skill restore "+m.Name)
	}
	if r.Consolidation != nil {
		for _, cl := range r.Consolidation.Consolidated {
			out = append(out, "skillrepo skill restore "+cl.Name)
		}
		for _, p := range r.Consolidation.Pruned {
			if p.Phase == 2 {
				out = append(out, "skillrepo skill restore "+p.Name)
			}
		}
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

func runFile(dir string) statefile.File[Run] {
	return statefile.File[Run]{Path: filepath.Join(dir, "run.json"), Limit: maxStateFile, Version: RunVersion, Perm: 0o644, Sync: true}
}

// WriteReport writes run.json and REPORT.md into dir (created if needed)
// and returns the path of REPORT.md.
func WriteReport(dir string, r *Run) (string, error) {
	if err := runFile(dir).Write(*r); err != nil {
		return "", fmt.Errorf("curator run: %w", err)
	}
	md := filepath.Join(dir, "REPORT.md")
	if err := atomicfile.Write(md, []byte(r.Markdown()), 0o644, true); err != nil {
		return "", fmt.Errorf("write REPORT.md: %w", err)
	}
	return md, nil
}

// ReadRun reads a run's run.json from its report folder.
func ReadRun(dir string) (*Run, error) {
	r, err := runFile(dir).Read()
	if err != nil {
		return nil, fmt.Errorf("read curator run: %w", err)
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
		fmt.Fprintf(&b, "- merged as: %s (%s)\n", short(r.MergeCommit), commitsText(len(r.Commits)))
	}
	if r.Kind == RunKindPrune {
		fmt.Fprintf(&b, "- prune: archive skills idle at least %d days\n", r.Thresholds.ArchiveAfterDays)
	} else {
		fmt.Fprintf(&b, "- thresholds: stale after %d days, archive after %d days\n", r.Thresholds.StaleAfterDays, r.Thresholds.ArchiveAfterDays)
	}
	fmt.Fprintf(&b, "- summary: %s\n\n", r.Summary)

	c := r.Counts
	b.WriteString("## Counts\n\n| checked | marked stale | archived | reactivated | seeded | pinned | scheduled | user-owned (pinned) |\n")
	b.WriteString("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %d | %d | %d (%d) |\n\n",
		c.Checked, c.MarkedStale, c.Archived, c.Reactivated, c.Seeded, c.Pinned, c.Scheduled, c.UserOwned(), c.PinnedUnmanaged)

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
	if r.Consolidation != nil {
		r.Consolidation.markdown(&b, r.DryRun)
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

// reportCap bounds each list of the human report; run.json has them all.
const reportCap = 50

// markdown renders phase 2 (docs/reference-behaviour.md §6.8): the pass,
// what was consolidated where and pruned (with the evidence), new
// umbrellas, the rename map, follow-ups, a dry run's would-be writes and
// the model's own summary.
func (c *Consolidation) markdown(b *strings.Builder, dryRun bool) {
	fmt.Fprintf(b, "\n## Consolidation (phase 2)\n\n")
	fmt.Fprintf(b, "- model: %s; status: %s", c.Model, c.Status)
	if c.Reason != "" {
		fmt.Fprintf(b, " (%s)", c.Reason)
	}
	fmt.Fprintf(b, "\n- candidates: %d (%d pinned or scheduled, untouchable); clusters found in code: %d\n", len(c.Candidates), len(c.Untouchable), len(c.Clusters))
	fmt.Fprintf(b, "- model calls: %d; tool calls: %d (%d refused); commits: %d\n", c.ModelCalls, len(c.ToolCalls), c.Refused, len(c.Commits))
	if c.Proposal != "" {
		fmt.Fprintf(b, "- not merged: waits as proposal `%s`\n", c.Proposal)
	}
	list := func(title string, n int, none string, item func(i int)) {
		fmt.Fprintf(b, "\n### %s\n\n", title)
		if n == 0 {
			b.WriteString(none + "\n")
			return
		}
		for i := 0; i < n && i < reportCap; i++ {
			item(i)
		}
		if n > reportCap {
			fmt.Fprintf(b, "- … and %d more (run.json has them all)\n", n-reportCap)
		}
	}
	list("Consolidated", len(c.Consolidated), "None.", func(i int) {
		x := c.Consolidated[i]
		fmt.Fprintf(b, "- `%s` → `%s` — %s\n", x.Name, x.Into, x.Evidence)
	})
	list("Pruned", len(c.Pruned), "None.", func(i int) {
		x := c.Pruned[i]
		fmt.Fprintf(b, "- `%s` — %s", x.Name, x.Evidence)
		if x.Reason != "" {
			fmt.Fprintf(b, " (%s)", x.Reason)
		}
		b.WriteString("\n")
	})
	list("New umbrellas", len(c.Added), "None.", func(i int) { fmt.Fprintf(b, "- `%s`\n", c.Added[i]) })
	names := make([]string, 0, len(c.RenameMap))
	for n := range c.RenameMap {
		names = append(names, n)
	}
	sort.Strings(names)
	list("Rename map", len(names), "None.", func(i int) { fmt.Fprintf(b, "- `%s` → `%s`\n", names[i], c.RenameMap[names[i]]) })
	if len(c.Disagreements) > 0 {
		list("The model's summary disagrees with git (git wins)", len(c.Disagreements), "", func(i int) { fmt.Fprintf(b, "- %s\n", c.Disagreements[i]) })
	}
	list("Follow-ups: active skills that still name an archived skill", len(c.FollowUps), "None.", func(i int) {
		f := c.FollowUps[i]
		fmt.Fprintf(b, "- `%s:%d` names `%s`", f.Path, f.Line, strings.Join(f.Names, "`, `"))
		if f.Into != "" {
			fmt.Fprintf(b, " (now in `%s`)", f.Into)
		}
		b.WriteString("\n")
	})
	if dryRun || len(c.WouldWrite) > 0 {
		list("Would write (dry run: not written)", len(c.WouldWrite), "None.", func(i int) {
			w := c.WouldWrite[i]
			fmt.Fprintf(b, "- %s %s\n", w.Name, describeOps(w))
		})
	}
	if len(c.LintErrors) > 0 {
		list("Lint errors in the result", len(c.LintErrors), "", func(i int) { fmt.Fprintf(b, "- %s\n", c.LintErrors[i]) })
	}
	if c.SummaryError != "" {
		fmt.Fprintf(b, "\nThe model's structured summary could not be read: %s.\n", c.SummaryError)
	}
	if c.Final != "" {
		b.WriteString("\n### The model's summary\n\n")
		b.WriteString(strings.TrimSpace(c.Final))
		b.WriteString("\n")
	}
}

// describeOps says in a few words what a write call asked for.
func describeOps(w ToolCall) string {
	if len(w.Ops) == 0 {
		return w.Arguments
	}
	var parts []string
	for _, op := range w.Ops {
		p := op.Action + " " + op.Name
		switch {
		case op.Action == "move_file":
			to := op.ToPath
			if to == "" {
				to = op.FilePath
			}
			p = fmt.Sprintf("move %s/%s → %s/%s", op.Name, op.FilePath, op.ToSkill, to)
		case op.Action == "delete" && op.AbsorbedInto != nil && *op.AbsorbedInto != "":
			p += " (absorbed into " + *op.AbsorbedInto + ")"
		case op.Action == "delete":
			p += " (prune)"
		case op.FilePath != "":
			p += " " + op.FilePath
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}
