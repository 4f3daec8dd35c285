package curatorcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
)

// PruneOptions is what `curator prune` was asked.
type PruneOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Days    int
	DryRun  bool
}

// NewCmdPrune is `curator prune`; runF, when not nil, runs instead of pruneRun.
func NewCmdPrune(f *cmdutil.Factory, runF func(*PruneOptions) error) *cobra.Command {
	opts := &PruneOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "prune [--days N] [--dry-run] [--json]",
		Short: "Archive curator-managed skills idle at least N days, as one run",
		Long: `Archive every curator-managed skill outside .archive/ that is neither pinned
nor used by a scheduled job and has been idle at least N days (idle = now
minus the latest of last used, viewed and patched, else its creation; a
skill with no usage record is left alone). N defaults to
curator.archive_after_days.

It is a curator run: the archives are a branch curator/<run-id> merged into
the main branch as one merge, the tip before it is kept at
refs/skillrepo/curator/<run-id>, and 'curator rollback RUN' undoes it. It does
not count as the scheduled run. --dry-run prints the same plan and writes
nothing.`,
		Example: `  skillrepo curator prune --days 60 --dry-run
  skillrepo curator prune --days 60`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("days") && opts.Days < 1 {
				return cmdutil.UsageErrorf("--days %d: want at least 1", opts.Days)
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return pruneRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&opts.Days, "days", 0, "idle days at which a skill is archived (default curator.archive_after_days)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the plan, write nothing")
	return cmd
}

func pruneRun(opts *PruneOptions) error {
	f := opts.Factory
	c, done, err := curatorFor(f, opts.DryRun)
	if err != nil {
		return err
	}
	defer done()
	out, err := c.Prune(opts.Ctx, curator.PruneOptions{Days: opts.Days, DryRun: opts.DryRun})
	if err != nil {
		return err
	}
	if f.JSON {
		return printRunJSON(f.IO.Out, out, c.Lib.Root)
	}
	printRun(f.IO, out.Run)
	if !out.Run.DryRun {
		if out.ReportPath != "" {
			fmt.Fprintf(f.IO.Out, "report: %s\n", relPath(c.Lib.Root, out.ReportPath))
		}
		if len(out.Run.Archived) > 0 {
			fmt.Fprintf(f.IO.Out, "undo: skillrepo curator rollback %s\n", out.Run.ID)
		}
	}
	return nil
}
