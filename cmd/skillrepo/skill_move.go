package main

import (
	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

type skillMoveOptions struct {
	f        *cmdutil.Factory
	w        writeFlags
	Name     string
	Category string
	Flat     bool
	NewName  string
}

func newSkillMoveCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &skillMoveOptions{f: f}
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
			opts.Name = args[0]
			return runSkillMove(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Category, "category", "", "the category folder to move to")
	fl.BoolVar(&opts.Flat, "flat", false, "move to the top level (no category)")
	fl.StringVar(&opts.NewName, "name", "", "rename the skill")
	addWriteFlags(cmd, &opts.w)
	return cmd
}

func runSkillMove(cmd *cobra.Command, opts *skillMoveOptions) error {
	f := opts.f
	if opts.Flat && opts.Category != "" {
		return cmdutil.UsageErrorf("--category and --flat are exclusive")
	}
	if !opts.Flat && opts.Category == "" && opts.NewName == "" {
		return cmdutil.UsageErrorf("give --category <category> or --flat (and/or --name <new-name>)")
	}
	if _, err := opts.w.provenance(); err != nil {
		return err
	}
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
	pol, route, err := opts.w.writeTarget(lib)
	if err != nil {
		return err
	}
	res, err := pol.MoveSkill(cmd.Context(), opts.Name, skillrepo.MoveOptions{
		Category: category, NewName: opts.NewName, DryRun: opts.w.DryRun,
	})
	if err != nil {
		return err
	}
	return reportMeta(f, res, opts.w.DryRun, route.Proposal)
}
