package skillcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// skill pin, unpin, adopt and disown: one file, four small commands that
// each record one commit (see skillrepo/pins.go).

// MetaOptions is what `skill pin`, `unpin`, `adopt` or `disown` was
// asked (Action says which).
type MetaOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	W       cmdutil.WriteFlags
	Name    string
	Reason  string
	Action  string
}

type skillMetaJSON struct {
	Name     string `json:"name"`
	Action   string `json:"action"`
	Changed  bool   `json:"changed"`
	Commit   string `json:"commit,omitempty"`
	Branch   string `json:"branch"`
	Proposal string `json:"proposal,omitempty"`
	DryRun   bool   `json:"dry_run"`
	Message  string `json:"message"`
}

// NewCmdPin is `skill pin`; runF, when not nil, runs instead of metaRun.
func NewCmdPin(f *cmdutil.Factory, runF func(*MetaOptions) error) *cobra.Command {
	return newCmdMeta(f, runF, skillrepo.ActionPin,
		"Pin a skill: it cannot be deleted or archived (patches stay allowed)",
		`Pin a skill. Pins live in the tracked file .skillrepo/pins, so a pin is a
commit (Skill-Action: pin) that travels with the library. A pinned skill cannot
be deleted or archived, by a person or an agent; patches and edits stay
allowed. The usage sidecar's "pinned" flag is kept in step for Hermes.`,
		`  skillrepo skill pin ci-debugging
  skillrepo skill pin ci-debugging --reason "the release checklist depends on it"`)
}

// NewCmdUnpin is `skill unpin`; runF, when not nil, runs instead of metaRun.
func NewCmdUnpin(f *cmdutil.Factory, runF func(*MetaOptions) error) *cobra.Command {
	return newCmdMeta(f, runF, skillrepo.ActionUnpin,
		"Unpin a skill",
		`Remove a skill from .skillrepo/pins in one commit (Skill-Action: unpin).`,
		`  skillrepo skill unpin ci-debugging`)
}

// NewCmdAdopt is `skill adopt`; runF, when not nil, runs instead of metaRun.
func NewCmdAdopt(f *cmdutil.Factory, runF func(*MetaOptions) error) *cobra.Command {
	return newCmdMeta(f, runF, skillrepo.ActionAdopt,
		"Let the curator and background reviews manage a skill",
		`Make a user-owned skill curator-managed. Ownership is read from history: a
skill is curator-managed when a background review or the curator created it,
or when its newest adopt/disown commit is an adopt. This records that commit
(an empty commit with Skill-Action: adopt); it follows the skill through later
renames and moves.`,
		`  skillrepo skill adopt release-notes`)
}

// NewCmdDisown is `skill disown`; runF, when not nil, runs instead of metaRun.
func NewCmdDisown(f *cmdutil.Factory, runF func(*MetaOptions) error) *cobra.Command {
	return newCmdMeta(f, runF, skillrepo.ActionDisown,
		"Take a skill back from the curator and background reviews",
		`Make a curator-managed skill user-owned with an empty commit carrying
Skill-Action: disown. Background reviews and the curator leave user-owned
skills alone.`,
		`  skillrepo skill disown release-notes`)
}

func newCmdMeta(f *cmdutil.Factory, runF func(*MetaOptions) error, action, short, long, example string) *cobra.Command {
	opts := &MetaOptions{Factory: f, Action: action}
	cmd := &cobra.Command{
		Use:     action + " <name> [--reason <text>]",
		Short:   short,
		Long:    long,
		Example: example,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name, opts.Ctx = args[0], cmd.Context()
			if err := opts.W.Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return metaRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Reason, "reason", "", "why (recorded as a Reason trailer)")
	cmdutil.AddWriteFlags(cmd, &opts.W)
	return cmd
}

func metaRun(opts *MetaOptions) error {
	ctx := opts.Ctx
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	pol, route, err := opts.W.WriteTarget(lib)
	if err != nil {
		return err
	}
	proposal := route.Proposal
	mo := skillrepo.MetaOptions{Reason: opts.Reason, DryRun: opts.W.DryRun}
	var res *skillrepo.MetaResult
	switch opts.Action {
	case skillrepo.ActionPin:
		res, err = pol.Pin(ctx, opts.Name, mo)
	case skillrepo.ActionUnpin:
		res, err = pol.Unpin(ctx, opts.Name, mo)
	case skillrepo.ActionAdopt:
		res, err = pol.Adopt(ctx, opts.Name, mo)
	case skillrepo.ActionDisown:
		res, err = pol.Disown(ctx, opts.Name, mo)
	}
	if err != nil {
		return err
	}
	return reportMeta(f, res, opts.W.DryRun, proposal)
}

// reportMeta prints what a pin, unpin, adopt, disown or move did.
func reportMeta(f *cmdutil.Factory, res *skillrepo.MetaResult, dryRun bool, proposal string) error {
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, skillMetaJSON{Name: res.Name, Action: res.Action, Changed: res.Changed,
			Commit: cmdutil.HashString(res.Commit), Branch: res.Update.Branch, Proposal: proposal, DryRun: dryRun, Message: res.Message})
	}
	out := f.IO.ErrOut
	switch {
	case !res.Changed:
		fmt.Fprintf(out, "%s\n", res.Message)
	case dryRun:
		fmt.Fprintf(out, "dry run: would commit to %s: %s\n", res.Update.Branch, res.Message)
	default:
		fmt.Fprintf(out, "%s %s\ncommitted %s on %s\n", f.IO.Green("✓"), res.Message, cmdutil.Short(res.Commit), res.Update.Branch)
		if proposal != "" {
			cmdutil.ReportProposed(f, proposal)
		}
	}
	return nil
}

// ownersAndPins reads, for skill list, the owner of every skill (keyed by
// folder; a skill missing from the result is user-owned) and the pins.
// Where history cannot tell ownership (a shallow clone), every skill is
// shown "unknown" and unknown says why.
func ownersAndPins(lib *skillrepo.Library, snap *skillrepo.Snapshot) (owners map[string]skillrepo.Ownership, pins map[string]bool, unknown error, err error) {
	owners, unknown, err = lib.Owners().ForDisplay(snap.Commit().String())
	if snap.Commit().IsZero() {
		owners, unknown, err = map[string]skillrepo.Ownership{}, nil, nil
	}
	if err != nil {
		return nil, nil, nil, err
	}
	for dir, o := range owners {
		if o.Owner == "" {
			o.Owner = skillrepo.OwnerUser
			owners[dir] = o
		}
	}
	pins = map[string]bool{}
	if !snap.Commit().IsZero() {
		list, err := lib.Owners().Pins(snap.Commit().String())
		if err != nil {
			return nil, nil, nil, err
		}
		for _, n := range list {
			pins[n] = true
		}
	}
	return owners, pins, unknown, nil
}
