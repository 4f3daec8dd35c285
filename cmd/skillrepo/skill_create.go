package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

type skillCreateOptions struct {
	f           *cmdutil.Factory
	w           writeFlags
	Name        string
	Category    string
	ContentFile string
	ForceNew    bool
	Reason      string
}

func newSkillCreateCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &skillCreateOptions{f: f}
	cmd := &cobra.Command{
		Use:   "create <name> --content-file <file|-> [--category <c>]",
		Short: "Create a skill from a SKILL.md",
		Long: `Create a skill from SKILL.md content (YAML frontmatter with name and
description, then Markdown). The name follows the skill-name rules (lowercase
letters, digits, '.', '_' and '-', at most 64 characters) and must be unique in
the library. The result must pass lint under the library's profile (its
runtime's unless the config names one): in a Hermes library a new skill's
description must fit the 60 characters its index shows; Claude Code and
Codex have no such limit. --force writes despite lint errors.

A skill that overlaps an existing one (name, description and body compared
as 'curator overlap' does) is refused when --origin is background-review or
curator, naming the existing skill to patch instead; --force-new with a
--reason creates it anyway and records the reason in a Force-New trailer. A
person's create only warns.`,
		Example: `  skillrepo skill create pdf-forms --content-file SKILL.md
  cat SKILL.md | skillrepo skill create pdf-forms --category docs --content-file -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			content, err := readContent(f, opts.ContentFile)
			if err != nil {
				return err
			}
			if opts.ForceNew && strings.TrimSpace(opts.Reason) == "" {
				return cmdutil.UsageErrorf("--force-new needs --reason: say how this skill differs from the one it overlaps")
			}
			if !opts.ForceNew && opts.Reason != "" {
				return cmdutil.UsageErrorf("--reason goes with --force-new")
			}
			return applyOps(cmd, f, &opts.w, []skillrepo.Op{{Action: skillrepo.ActionCreate, Name: opts.Name, Category: opts.Category, Content: &content, ForceNew: opts.ForceNew, Reason: opts.Reason}})
		},
	}
	cmd.Flags().StringVar(&opts.ContentFile, "content-file", "", "SKILL.md to read (- for standard input)")
	cmd.Flags().BoolVar(&opts.ForceNew, "force-new", false, "create although the skill overlaps an existing one (needs --reason)")
	cmd.Flags().StringVar(&opts.Reason, "reason", "", "with --force-new: how this skill differs (goes into a Force-New trailer)")
	cmd.Flags().StringVar(&opts.Category, "category", "", "category folder to create the skill in")
	addWriteFlags(cmd, &opts.w)
	return cmd
}

type skillEditOptions struct {
	f           *cmdutil.Factory
	w           writeFlags
	ContentFile string
}

func newSkillEditCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &skillEditOptions{f: f}
	cmd := &cobra.Command{
		Use:     "edit <name> --content-file <file|->",
		Short:   "Replace a skill's SKILL.md",
		Example: `  skillrepo skill edit ci-debugging --content-file new-SKILL.md`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			content, err := readContent(f, opts.ContentFile)
			if err != nil {
				return err
			}
			return applyOps(cmd, f, &opts.w, []skillrepo.Op{{Action: skillrepo.ActionEdit, Name: args[0], Content: &content}})
		},
	}
	cmd.Flags().StringVar(&opts.ContentFile, "content-file", "", "new SKILL.md (- for standard input)")
	addWriteFlags(cmd, &opts.w)
	return cmd
}
