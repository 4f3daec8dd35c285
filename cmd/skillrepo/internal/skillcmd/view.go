package skillcmd

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// ViewOptions is what `skill view` was asked.
type ViewOptions struct {
	Factory  *cmdutil.Factory
	Name     string
	File     string
	Rev      string
	Proposal string
	AsAgent  bool
	NoRecord bool // kept so old scripts still run: a person's view never counts now
}

// NewCmdView is `skill view`; runF, when not nil, runs instead of viewRun.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "view <name> [<file>]",
		Short: "Print a skill's SKILL.md or one of its files",
		Long: `Print a skill's SKILL.md, or a support file given relative to the skill
folder. A person reading a skill is not an agent using it, so a view does
not count in the usage sidecar (.usage.json), whose counts keep an
agent-made skill from being archived as unused. --as-agent counts the view
as the agent's skill_view does (a view and a use); agents' hooks count
their own loads.`,
		Example: `  skillrepo skill view ci-debugging
  skillrepo skill view ci-debugging references/common-failures.md
  skillrepo skill view ci-debugging --json`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if len(args) == 2 {
				opts.File = args[1]
			}
			var err error
			if opts.Rev, err = cmdutil.ProposalRev(opts.Proposal, opts.Rev); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return viewRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Rev, "rev", "", "read this branch or commit instead of the main branch")
	cmd.Flags().StringVar(&opts.Proposal, "proposal", "", "read proposal `id` (its branch) instead of the main branch")
	cmd.Flags().BoolVar(&opts.AsAgent, "as-agent", false, "count this view in the usage sidecar as an agent's use")
	cmd.Flags().BoolVar(&opts.NoRecord, "no-record", false, "do not count this view (the default now)")
	_ = cmd.Flags().MarkHidden("no-record")
	cmd.MarkFlagsMutuallyExclusive("as-agent", "no-record")
	return cmd
}

type skillViewJSON struct {
	Name        string   `json:"name"`
	Category    string   `json:"category"`
	Path        string   `json:"path"`
	Archived    bool     `json:"archived"`
	File        string   `json:"file"`
	Description string   `json:"description,omitempty"`
	Content     string   `json:"content"`
	Files       []string `json:"files"`
}

func viewRun(opts *ViewOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	snap, err := lib.Snapshot(opts.Rev)
	if err != nil {
		return err
	}
	si, err := snap.FindSkill(opts.Name)
	if err != nil {
		return err
	}
	rel := skill.FileName
	if opts.File != "" {
		if rel, err = lib.Rules().ValidateSupportPath(opts.File); err != nil {
			return err
		}
	}
	content, err := snap.ReadFile(si.Dir + "/" + rel)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("skill %s has no file %s: %w", si.Name, rel, skillrepo.ErrNotFound)
	}
	if err != nil {
		return err
	}
	if opts.AsAgent {
		if opts.Rev != "" || si.Archived {
			return cmdutil.UsageErrorf("--as-agent counts a view of the main branch's active skills; not with --rev, --proposal or an archived skill")
		}
		// Telemetry is best effort: a read never fails on it.
		_, _ = lib.RecordSessionUse(si.Name, skillrepo.UseView, "", "")
	}
	if !f.JSON {
		_, err = f.IO.Out.Write(content)
		return err
	}
	all, err := snap.List(si.Dir)
	if err != nil {
		return err
	}
	files := []string{}
	for _, p := range all {
		r := strings.TrimPrefix(p, si.Dir+"/")
		if r != skill.FileName {
			files = append(files, r)
		}
	}
	out := skillViewJSON{Name: si.Name, Category: si.Category, Path: si.Dir, Archived: si.Archived, File: rel, Content: string(content), Files: files}
	if rel == skill.FileName {
		if doc, err := skill.Parse(content); err == nil {
			out.Description = doc.Description
		}
	}
	return cmdutil.PrintJSON(f.IO.Out, out)
}
