package curatorcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
)

// RollbackOptions is what `curator rollback` was asked.
type RollbackOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Run     string
	DryRun  bool
}

// NewCmdRollback is `curator rollback`; runF, when not nil, runs instead of rollbackRun.
func NewCmdRollback(f *cmdutil.Factory, runF func(*RollbackOptions) error) *cobra.Command {
	opts := &RollbackOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "rollback <run-id> [--dry-run]",
		Short: "Undo one curator run with a new commit, keeping later work",
		Long: `Undo exactly one curator run: a new commit on the main branch moves every
skill the run archived back to where it was (category included), and the
usage states the run set are put back. Commits made after the run stay. When
a later commit changed an archived skill or took its old folder, nothing is
written and the conflicting skills and commits are listed (exit 3).`,
		Example: `  skillrepo curator rollback 20261130-120000 --dry-run
  skillrepo curator rollback 20261130-120000`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Run, opts.Ctx = args[0], cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return rollbackRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "show what would be undone, write nothing")
	return cmd
}

func rollbackRun(opts *RollbackOptions) error {
	f := opts.Factory
	c, done, err := curatorFor(f, opts.DryRun)
	if err != nil {
		return err
	}
	defer done()
	res, err := c.Rollback(opts.Ctx, opts.Run, curator.RollbackOptions{DryRun: opts.DryRun})
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, res)
	}
	w := f.IO.ErrOut
	verb := "restored"
	if res.DryRun {
		verb = "would restore"
	}
	for _, m := range res.Restored {
		fmt.Fprintf(w, "%s %s %s: %s -> %s\n", f.IO.Green("✓"), verb, m.Name, m.From, m.To)
	}
	for _, s := range res.States {
		fmt.Fprintf(w, "  %s: %s -> %s (usage sidecar)\n", s.Name, s.From, s.To)
	}
	if res.DryRun {
		fmt.Fprintf(w, "dry run: nothing was written\n")
	} else if res.Commit != "" {
		fmt.Fprintf(w, "rolled back run %s in %.7s\n", res.Run, res.Commit)
	} else {
		fmt.Fprintf(w, "rolled back run %s (usage states only: the run archived nothing)\n", res.Run)
	}
	return nil
}
