package skillcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// ArchiveOptions is what `skill archive` was asked.
type ArchiveOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Name    string
	Reason  string
	DryRun  bool
}

type archiveJSON struct {
	Name   string `json:"name"`
	From   string `json:"from"`
	To     string `json:"to"`
	Commit string `json:"commit,omitempty"`
	DryRun bool   `json:"dry_run"`
	// PurgedIn is the commit that purged a skill restored from history.
	PurgedIn string `json:"purged_in,omitempty"`
}

// NewCmdArchive is `skill archive`; runF, when not nil, runs instead of archiveRun.
func NewCmdArchive(f *cmdutil.Factory, runF func(*ArchiveOptions) error) *cobra.Command {
	opts := &ArchiveOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "archive <name> [--reason <text>] [--dry-run]",
		Short: "Move a skill to .archive/<name>/ (one commit)",
		Long: `Archive a skill by hand: its folder moves to .archive/<name>/ (with a
-YYYYMMDDHHMMSS suffix when that is taken) in one commit, so agents stop seeing
it and 'skill restore' can bring it back where it was. Pinned skills are
refused.`,
		Example: `  skillrepo skill archive docker-cleanup --reason "replaced by devops-hygiene"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name, opts.Ctx = args[0], cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return archiveRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Reason, "reason", "", "why (the commit message body)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "show where it would go, write nothing")
	return cmd
}

func archiveRun(opts *ArchiveOptions) error {
	f := opts.Factory
	c, err := cmdutil.NewCurator(f)
	if err != nil {
		return err
	}
	res, err := c.Archive(opts.Ctx, opts.Name, opts.Reason, opts.DryRun)
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, archiveJSON{Name: res.Name, From: res.From, To: res.To, Commit: cmdutil.HashString(res.Commit), DryRun: opts.DryRun})
	}
	if opts.DryRun {
		fmt.Fprintf(f.IO.ErrOut, "dry run: would archive %s: %s -> %s\n", res.Name, res.From, res.To)
		return nil
	}
	fmt.Fprintf(f.IO.ErrOut, "%s archived %s: %s -> %s (%s)\n", f.IO.Green("✓"), res.Name, res.From, res.To, cmdutil.Short(res.Commit))
	return nil
}
