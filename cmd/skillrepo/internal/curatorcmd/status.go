package curatorcmd

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
)

// StatusOptions is what `curator status` was asked.
type StatusOptions struct {
	Factory *cmdutil.Factory
}

// NewCmdStatus is `curator status`; runF, when not nil, runs instead of statusRun.
func NewCmdStatus(f *cmdutil.Factory, runF func(*StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{Factory: f}
	return &cobra.Command{
		Use:   "status",
		Short: "Show the curator's schedule, last run and the library by state",
		Example: `  skillrepo curator status
  skillrepo curator status --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return statusRun(opts)
		},
	}
}

func printCuratorStatus(f *cmdutil.Factory, st *curator.Status) {
	w := f.IO.Out
	state := "enabled"
	switch {
	case !st.Enabled:
		state = "disabled"
	case st.Paused:
		state = "paused"
	}
	fmt.Fprintf(w, "curator: %s\n", state)
	fmt.Fprintf(w, "runs: %s (%s)\n", st.Owner, st.OwnerNote)
	if h := st.Hermes; h != nil {
		hs := "enabled"
		switch {
		case !h.Enabled:
			hs = "disabled"
		case h.Paused:
			hs = "paused"
		}
		line := fmt.Sprintf("Hermes' curator: %s, %s", hs, cmdutil.NounCount(h.RunCount, "run"))
		if h.LastRun != nil {
			line += fmt.Sprintf(", last %s", cmdutil.RFC3339(*h.LastRun))
			if h.Summary != "" {
				line += ": " + h.Summary
			}
		}
		if h.NextRunAt != nil && h.Enabled && !h.Paused {
			line += fmt.Sprintf("; next due %s (every %dh)", cmdutil.RFC3339(*h.NextRunAt), h.IntervalHours)
		}
		fmt.Fprintln(w, line)
	}
	if st.LastRunAt == nil {
		fmt.Fprintln(w, "last run: never (the first scheduled call starts the clock)")
	} else {
		id := st.LastRunID
		if id == "" {
			id = "seeded"
		}
		fmt.Fprintf(w, "last run: %s (%s), %s: %s\n", cmdutil.RFC3339(*st.LastRunAt), id, cmdutil.NounCount(st.RunCount, "run"), st.LastRunSummary)
	}
	if st.LastReportPath != "" {
		missing := ""
		if st.LastReportMissing {
			missing = " (missing)"
		}
		fmt.Fprintf(w, "last report: %s%s\n", st.LastReportPath, missing)
	}
	for _, b := range st.OrphanBranches {
		fmt.Fprintf(w, "left behind: branch %s, of a stopped run (the next run deletes it)\n", b)
	}
	switch {
	case st.NextRunAt == nil:
		fmt.Fprintln(w, "next run: not scheduled")
	case st.Due:
		fmt.Fprintf(w, "next run: due now (since %s)\n", cmdutil.RFC3339(*st.NextRunAt))
	default:
		fmt.Fprintf(w, "next run: %s\n", cmdutil.RFC3339(*st.NextRunAt))
	}
	fmt.Fprintf(w, "interval: %dh; stale after %s, archive after %s\n", st.IntervalHours, cmdutil.NounCount(st.Thresholds.StaleAfterDays, "day"), cmdutil.NounCount(st.Thresholds.ArchiveAfterDays, "day"))
	scheduled := make([]string, len(st.ScheduledSkills))
	for i, n := range st.ScheduledSkills {
		scheduled[i] = n
		// The listed ones need no word on where they come from.
		if by := st.ScheduledBy[n]; by != "" && by != "curator.scheduled_skills" {
			scheduled[i] += " (" + by + ")"
		}
	}
	fmt.Fprintf(w, "scheduled skills: %s\n", listOrNone(scheduled))
	if st.Consolidate {
		fmt.Fprintf(w, "consolidation: on (curator.consolidate)\n")
	} else {
		fmt.Fprintf(w, "consolidation: off (curator run --consolidate for one run)\n")
	}
	owners := []string{curator.OwnerCurator, curator.OwnerUser}
	if st.OwnershipUnknown != "" {
		owners = []string{curator.OwnerUnknown}
		fmt.Fprintf(w, "ownership: unknown (%s; 'git fetch --unshallow' reads it)\n", st.OwnershipUnknown)
	}
	for _, owner := range owners {
		var parts []string
		for _, s := range []curator.State{curator.StateActive, curator.StateStale, curator.StateArchived} {
			parts = append(parts, fmt.Sprintf("%d %s", st.Counts[owner+"/"+string(s)], s))
		}
		label := map[string]string{curator.OwnerCurator: "curator-managed", curator.OwnerUser: "user-owned", curator.OwnerUnknown: "owner unknown"}[owner]
		pinned := ""
		if n := st.PinnedBy[owner]; n > 0 {
			pinned = fmt.Sprintf(" (%d of them pinned)", n)
		}
		fmt.Fprintf(w, "%s: %s%s\n", label, strings.Join(parts, ", "), pinned)
	}
	fmt.Fprintf(w, "pinned: %s\n", listOrNone(st.Pinned))
	fmt.Fprintf(w, "least recently active: %s\n", activityList(st.LeastRecentlyActive))
	fmt.Fprintf(w, "most recently active: %s\n", activityList(st.MostRecentlyActive))
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

func activityList(as []curator.Activity) string {
	if len(as) == 0 {
		return "none"
	}
	var parts []string
	for _, a := range as {
		when := "never"
		if a.LastActivityAt != nil {
			when = a.LastActivityAt.UTC().Format(time.DateOnly)
		}
		parts = append(parts, fmt.Sprintf("%s (%s, %s)", a.Name, when, a.State))
	}
	return strings.Join(parts, ", ")
}

func statusRun(opts *StatusOptions) error {
	f := opts.Factory
	c, err := cmdutil.NewCurator(f)
	if err != nil {
		return err
	}
	st, err := c.Status()
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, st)
	}
	printCuratorStatus(f, st)
	return nil
}
