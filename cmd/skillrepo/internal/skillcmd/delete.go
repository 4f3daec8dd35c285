package skillcmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// DeleteOptions is what `skill delete` was asked.
type DeleteOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Name    string
	// HasAbsorbedInto: --absorbed-into was given (its value may be "").
	HasAbsorbedInto bool
	W               cmdutil.WriteFlags
	AbsorbedInto    string
}

// NewCmdDelete is `skill delete`; runF, when not nil, runs instead of deleteRun.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "delete <name> [--absorbed-into <umbrella>]",
		Short: "Delete a skill (an agent's delete archives it)",
		Long: `Delete a skill. A person's delete removes the folder (git history keeps it).
A delete from an autonomous origin (background-review, curator) must name the
umbrella skill that absorbed the content with --absorbed-into, and archives the
skill to .archive/<name>/ instead of deleting it.`,
		Example: `  skillrepo skill delete old-notes
  skillrepo skill delete pr-1234-fix --absorbed-into ci-debugging --origin curator`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name, opts.Ctx = args[0], cmd.Context()
			opts.HasAbsorbedInto = cmd.Flags().Changed("absorbed-into")
			if err := opts.W.Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return deleteRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.AbsorbedInto, "absorbed-into", "", "the skill that now holds this one's content")
	cmdutil.AddWriteFlags(cmd, &opts.W)
	return cmd
}

func deleteRun(opts *DeleteOptions) error {
	op := skillrepo.Op{Action: skillrepo.ActionDelete, Name: opts.Name}
	if opts.HasAbsorbedInto {
		op.AbsorbedInto = &opts.AbsorbedInto
	}
	return applyOps(opts.Ctx, opts.Factory, &opts.W, []skillrepo.Op{op})
}
