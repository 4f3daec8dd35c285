package skillcmd

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// CreateOptions is what `skill create` was asked.
type CreateOptions struct {
	Factory     *cmdutil.Factory
	Ctx         context.Context
	W           cmdutil.WriteFlags
	Name        string
	Category    string
	ContentFile string
	ForceNew    bool
	Reason      string
}

// NewCmdCreate is `skill create`; runF, when not nil, runs instead of createRun.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{Factory: f}
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
			opts.Name, opts.Ctx = args[0], cmd.Context()
			if err := requireContentFile(opts.ContentFile); err != nil {
				return err
			}
			if opts.ForceNew && strings.TrimSpace(opts.Reason) == "" {
				return cmdutil.UsageErrorf("--force-new needs --reason: say how this skill differs from the one it overlaps")
			}
			if !opts.ForceNew && opts.Reason != "" {
				return cmdutil.UsageErrorf("--reason goes with --force-new")
			}
			if err := opts.W.Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return createRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.ContentFile, "content-file", "", "SKILL.md to read (- for standard input)")
	cmd.Flags().BoolVar(&opts.ForceNew, "force-new", false, "create although the skill overlaps an existing one (needs --reason)")
	cmd.Flags().StringVar(&opts.Reason, "reason", "", "with --force-new: how this skill differs (goes into a Force-New trailer)")
	cmd.Flags().StringVar(&opts.Category, "category", "", "category folder to create the skill in")
	cmdutil.AddWriteFlags(cmd, &opts.W)
	return cmd
}

// EditOptions is what `skill edit` was asked.
func createRun(opts *CreateOptions) error {
	content, err := readContent(opts.Factory, opts.ContentFile)
	if err != nil {
		return err
	}
	return applyOps(opts.Ctx, opts.Factory, &opts.W, []skillrepo.Op{{Action: skillrepo.ActionCreate, Name: opts.Name, Category: opts.Category, Content: &content, ForceNew: opts.ForceNew, Reason: opts.Reason}})
}

type EditOptions struct {
	Factory     *cmdutil.Factory
	Ctx         context.Context
	Name        string
	W           cmdutil.WriteFlags
	ContentFile string
}

// NewCmdEdit is `skill edit`; runF, when not nil, runs instead of editRun.
func NewCmdEdit(f *cmdutil.Factory, runF func(*EditOptions) error) *cobra.Command {
	opts := &EditOptions{Factory: f}
	cmd := &cobra.Command{
		Use:     "edit <name> --content-file <file|->",
		Short:   "Replace a skill's SKILL.md",
		Example: `  skillrepo skill edit ci-debugging --content-file new-SKILL.md`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name, opts.Ctx = args[0], cmd.Context()
			if err := requireContentFile(opts.ContentFile); err != nil {
				return err
			}
			if err := opts.W.Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return editRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.ContentFile, "content-file", "", "new SKILL.md (- for standard input)")
	cmdutil.AddWriteFlags(cmd, &opts.W)
	return cmd
}

func editRun(opts *EditOptions) error {
	content, err := readContent(opts.Factory, opts.ContentFile)
	if err != nil {
		return err
	}
	return applyOps(opts.Ctx, opts.Factory, &opts.W, []skillrepo.Op{{Action: skillrepo.ActionEdit, Name: opts.Name, Content: &content}})
}
