package main

import (
	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

type skillDeleteOptions struct {
	f            *cmdutil.Factory
	w            writeFlags
	AbsorbedInto string
}

func newSkillDeleteCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &skillDeleteOptions{f: f}
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
			op := skillrepo.Op{Action: skillrepo.ActionDelete, Name: args[0]}
			if cmd.Flags().Changed("absorbed-into") {
				op.AbsorbedInto = &opts.AbsorbedInto
			}
			return applyOps(cmd, f, &opts.w, []skillrepo.Op{op})
		},
	}
	cmd.Flags().StringVar(&opts.AbsorbedInto, "absorbed-into", "", "the skill that now holds this one's content")
	addWriteFlags(cmd, &opts.w)
	return cmd
}
