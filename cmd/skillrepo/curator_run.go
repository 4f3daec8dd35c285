package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/curator"
)

type curatorRunOptions struct {
	f      *factory
	DryRun bool
	Force  bool
	IfDue  bool
}

func newCuratorRunCmd(f *factory) *cobra.Command {
	opts := &curatorRunOptions{f: f}
	cmd := &cobra.Command{
		Use:   "run [--dry-run] [--force] [--if-due]",
		Short: "Run the curator now (or only when due, with --if-due)",
		Long: `Decide every curator-managed skill's state from its usage and apply it:
archived skills move to .archive/<name>/ on a branch curator/<run-id> that is
merged into the main branch as one merge; stale and active are recorded in the
usage sidecar. The main branch's tip before the run is kept at
refs/skillrepo/curator/<run-id>, and a report is written to
.git/skillrepo/curator/<run-id>/.

--dry-run prints exactly the same plan and writes nothing at all: no commit,
ref, sidecar, schedule or report. --if-due runs only when interval_hours have
passed since the last run (the first call on a library starts the clock and
waits one interval); use it from cron or an agent's start-up hook.`,
		Example: `  skillrepo curator run --dry-run
  skillrepo curator run
  skillrepo curator run --if-due --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCuratorRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the plan, write nothing")
	fl.BoolVar(&opts.Force, "force", false, "run even when the curator is disabled or paused")
	fl.BoolVar(&opts.IfDue, "if-due", false, "run only when the schedule says a run is due")
	return cmd
}

func runCuratorRun(cmd *cobra.Command, opts *curatorRunOptions) error {
	f := opts.f
	c, done, err := curatorFor(f, opts.DryRun)
	if err != nil {
		return err
	}
	defer done()
	out, err := c.Run(cmd.Context(), curator.RunOptions{DryRun: opts.DryRun, Force: opts.Force, IfDue: opts.IfDue})
	if err != nil {
		return err
	}
	if f.JSON {
		return printRunJSON(f.IO.Out, out, c.Lib.Root)
	}
	if out.Run == nil {
		fmt.Fprintf(f.IO.ErrOut, "curator: %s\n", out.Skipped)
		if out.Seeded {
			fmt.Fprintf(f.IO.ErrOut, "next run due %s; preview it now with 'skillrepo curator run --dry-run'\n", rfc3339(out.Next))
		}
		return nil
	}
	printRun(f.IO.Out, out.Run)
	if !out.Run.DryRun {
		if out.ReportPath != "" {
			fmt.Fprintf(f.IO.Out, "report: %s\n", relPath(c.Lib.Root, out.ReportPath))
		}
		if len(out.Run.Transitions) > 0 {
			fmt.Fprintf(f.IO.Out, "undo: skillrepo curator rollback %s\n", out.Run.ID)
		}
	}
	return nil
}

// printRun writes a run or a plan in one shape; only the first line says
// which it is, so a dry run can be compared with the run that follows.
func printRun(w io.Writer, r *curator.Run) {
	if r.DryRun {
		fmt.Fprintf(w, "curator plan %s (dry run: nothing was written)\n", r.ID)
	} else {
		fmt.Fprintf(w, "curator run %s\n", r.ID)
	}
	c := r.Counts
	fmt.Fprintf(w, "checked %d: %d marked stale, %d archived, %d reactivated, %d seeded; skipped %d pinned, %d scheduled; %d user-owned\n",
		c.Checked, c.MarkedStale, c.Archived, c.Reactivated, c.Seeded, c.Pinned, c.Scheduled, c.Unmanaged)
	tw := newTable(w)
	for _, t := range r.Transitions {
		where := t.Dir
		if t.ArchiveDir != "" {
			where = t.Dir + " -> " + t.ArchiveDir
		}
		fmt.Fprintf(tw, "%s\t%s\t%s -> %s\t%s\t%s\n", t.Action, t.Name, t.From, t.To, where, t.Reason)
	}
	for _, n := range r.Seeded {
		fmt.Fprintf(tw, "seed\t%s\t-\t\tno usage record: the clock starts now\n", n)
	}
	tw.Flush()
	if r.MergeCommit != "" {
		fmt.Fprintf(w, "merged as %.7s on %s (%s); before the run: %s\n", r.MergeCommit, r.Branch, nounCount(len(r.Commits), "commit"), r.PreRunRef)
	}
}

// printRunJSON writes JSON Lines: one "change" per transition, then a
// "summary" with the whole run, or one "status" when nothing ran.
func printRunJSON(w io.Writer, out *curator.Outcome, root string) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if out.Run == nil {
		var next *time.Time
		if !out.Next.IsZero() {
			next = &out.Next
		}
		return enc.Encode(struct {
			Type    string     `json:"message_type"`
			Skipped string     `json:"skipped"`
			Seeded  bool       `json:"seeded"`
			Next    *time.Time `json:"next_run_at"`
		}{"status", out.Skipped, out.Seeded, next})
	}
	for _, t := range out.Run.Transitions {
		if err := enc.Encode(struct {
			Type   string `json:"message_type"`
			DryRun bool   `json:"dry_run"`
			curator.Change
		}{"change", out.Run.DryRun, t}); err != nil {
			return err
		}
	}
	report := ""
	if out.ReportPath != "" {
		report = relPath(root, out.ReportPath)
	}
	return enc.Encode(struct {
		Type string `json:"message_type"`
		*curator.Run
		ReportPath string `json:"report_path,omitempty"`
	}{"summary", out.Run, report})
}

// relPath is p relative to the library root, slash-separated.
func relPath(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}
