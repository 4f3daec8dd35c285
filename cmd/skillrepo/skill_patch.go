package main

import (
	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/skillrepo"
)

type skillPatchOptions struct {
	f          *factory
	w          writeFlags
	Old, New   string
	File       string
	ReplaceAll bool
}

func newSkillPatchCmd(f *factory) *cobra.Command {
	opts := &skillPatchOptions{f: f}
	cmd := &cobra.Command{
		Use:   "patch <name> --old <text> --new <text> [--file <path>] [--replace-all]",
		Short: "Replace text in a skill's SKILL.md or support file",
		Long: `Replace --old with --new in SKILL.md (or --file, a support file such as
references/api.md). The old text must match exactly once unless --replace-all;
when it does not match exactly, matching ignores surrounding whitespace per line
and then runs of whitespace. --new "" deletes the match. The patched SKILL.md
must still be valid.`,
		Example: `  skillrepo skill patch ci-debugging --old "step one" --new "step 1"
  skillrepo skill patch ci-debugging --file references/common-failures.md --old "fails" --new "breaks" --replace-all`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("old") {
				return usageErrorf("--old is required")
			}
			if !cmd.Flags().Changed("new") {
				return usageErrorf("--new is required (use --new \"\" to delete the match)")
			}
			op := skillrepo.Op{Action: skillrepo.ActionPatch, Name: args[0], OldString: &opts.Old, NewString: &opts.New, ReplaceAll: opts.ReplaceAll, FilePath: opts.File}
			return applyOps(cmd, f, &opts.w, []skillrepo.Op{op})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Old, "old", "", "text to replace")
	fl.StringVar(&opts.New, "new", "", "replacement text")
	fl.StringVar(&opts.File, "file", "", "support file to patch instead of SKILL.md")
	fl.BoolVar(&opts.ReplaceAll, "replace-all", false, "replace every match")
	addWriteFlags(cmd, &opts.w)
	return cmd
}
