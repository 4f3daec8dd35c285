package skillcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// RestoreOptions is what `skill restore` was asked.
type RestoreOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Name    string
	DryRun  bool
}

// NewCmdRestore is `skill restore`; runF, when not nil, runs instead of restoreRun.
func NewCmdRestore(f *cmdutil.Factory, runF func(*RestoreOptions) error) *cobra.Command {
	opts := &RestoreOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "restore <name> [--dry-run]",
		Short: "Bring an archived skill back where it was (one commit)",
		Long: `Restore an archived skill to the folder it was archived from, category
included (read from history), in one commit; its history stays continuous.
NAME is the skill's name or its archive folder (.archive/<x>). A skill that
'curator purge' removed from the tree is read back from the commit before the
purge. When history does not say where it lived, it comes back as <name>/. A
taken destination is refused.`,
		Example: `  skillrepo skill restore docker-cleanup
  skillrepo skill restore .archive/docker-cleanup-20261130120000`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name, opts.Ctx = args[0], cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return restoreRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "show where it would go, write nothing")
	return cmd
}

func restoreRun(opts *RestoreOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	pol, err := lib.Policy(skillrepo.Writer{})
	if err != nil {
		return err
	}
	res, err := pol.Restore(opts.Ctx, skillrepo.RestoreOptions{Name: opts.Name, DryRun: opts.DryRun})
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, archiveJSON{Name: res.Name, From: res.From, To: res.To, Commit: cmdutil.HashString(res.Commit), DryRun: opts.DryRun, PurgedIn: res.PurgedIn})
	}
	if res.PurgedIn != "" {
		fmt.Fprintf(f.IO.ErrOut, "%s was purged from the tree in %.7s: restoring it from history\n", res.From, res.PurgedIn)
	}
	if res.Guessed {
		fmt.Fprintf(f.IO.ErrOut, "history does not say where %s lived: restoring it as %s\n", res.From, res.To)
	}
	if opts.DryRun {
		fmt.Fprintf(f.IO.ErrOut, "dry run: would restore %s: %s -> %s\n", res.Name, res.From, res.To)
		return nil
	}
	fmt.Fprintf(f.IO.ErrOut, "%s restored %s: %s -> %s (%s)\n", f.IO.Green("✓"), res.Name, res.From, res.To, cmdutil.Short(res.Commit))
	return nil
}
