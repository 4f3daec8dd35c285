package skillcmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// MoveOptions is what `skill move` was asked.
type MoveOptions struct {
	Factory  *cmdutil.Factory
	Ctx      context.Context
	W        cmdutil.WriteFlags
	Name     string
	Category string
	Flat     bool
	NewName  string
}

// NewCmdMove is `skill move`; runF, when not nil, runs instead of moveRun.
func NewCmdMove(f *cmdutil.Factory, runF func(*MoveOptions) error) *cobra.Command {
	opts := &MoveOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "move <name> {--category <category> | --flat} [--name <new-name>]",
		Short: "Move a skill to another category and/or rename it (one commit)",
		Long: `Move a skill's folder to another category (or to the top level with --flat)
and/or rename it, in one commit (Skill-Action: move or rename, Skill-From: the
old folder). A rename rewrites the name field of SKILL.md to match. The skill
keeps its history (skill log and blame follow it), its owner and its pin.`,
		Example: `  skillrepo skill move deploy --category devops
  skillrepo skill move deploy --flat
  skillrepo skill move deploy --category devops --name deploy-service`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name, opts.Ctx = args[0], cmd.Context()
			if opts.Flat && opts.Category != "" {
				return cmdutil.UsageErrorf("--category and --flat are exclusive")
			}
			if !opts.Flat && opts.Category == "" && opts.NewName == "" {
				return cmdutil.UsageErrorf("give --category <category> or --flat (and/or --name <new-name>)")
			}
			if err := opts.W.Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return moveRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Category, "category", "", "the category folder to move to")
	fl.BoolVar(&opts.Flat, "flat", false, "move to the top level (no category)")
	fl.StringVar(&opts.NewName, "name", "", "rename the skill")
	cmdutil.AddWriteFlags(cmd, &opts.W)
	return cmd
}

func moveRun(opts *MoveOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	category := opts.Category
	if !opts.Flat && category == "" {
		// Only a rename: the skill stays in its category.
		snap, err := lib.Snapshot("")
		if err != nil {
			return err
		}
		si, err := snap.FindSkill(opts.Name)
		if err != nil {
			return err
		}
		category = si.Category
	}
	pol, route, err := opts.W.WriteTarget(lib)
	if err != nil {
		return err
	}
	res, err := pol.MoveSkill(opts.Ctx, opts.Name, skillrepo.MoveOptions{
		Category: category, NewName: opts.NewName, DryRun: opts.W.DryRun,
	})
	if err != nil {
		return err
	}
	return reportMeta(f, res, opts.W.DryRun, route.Proposal)
}
