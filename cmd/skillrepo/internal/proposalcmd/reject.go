package proposalcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// RejectOptions is what `proposal reject` was asked.
type RejectOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	ID      string
	By      string
	Reason  string
	DryRun  bool
}

// NewCmdReject is `proposal reject`; runF, when not nil, runs instead of rejectRun.
func NewCmdReject(f *cmdutil.Factory, runF func(*RejectOptions) error) *cobra.Command {
	opts := &RejectOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "reject <id> [--reason <text>] [--by <who>] [--dry-run]",
		Short: "Reject a proposal, keeping its commits for the record",
		Long: `Delete a proposal's branch and keep its tip under refs/skillrepo/rejected/<id>
with a record commit carrying Rejected-By and Reason, so the audit trail
stays ('skillrepo proposal list --rejected' shows them, and 'skillrepo push'
shares them).`,
		Example: `  skillrepo proposal reject p-20261130-0a1b2c --reason "duplicates ci-debugging"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID, opts.Ctx = args[0], cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return rejectRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Reason, "reason", "", "why the proposal is rejected")
	cmd.Flags().StringVar(&opts.By, "by", "", "Rejected-By value (default: your git identity)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "report what would be recorded, write nothing")
	return cmd
}

type rejectJSON struct {
	ID     string `json:"id"`
	Tip    string `json:"tip"`
	Record string `json:"record"`
	Ref    string `json:"ref"`
	DryRun bool   `json:"dry_run"`
}

func rejectRun(opts *RejectOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	pol, err := lib.Policy(skillrepo.Writer{})
	if err != nil {
		return err
	}
	res, err := pol.RejectProposal(opts.Ctx, opts.ID, skillrepo.RejectOptions{By: opts.By, Reason: opts.Reason, DryRun: opts.DryRun})
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, rejectJSON{ID: res.ID, Tip: cmdutil.HashString(res.Tip), Record: cmdutil.HashString(res.Record), Ref: res.Ref, DryRun: res.DryRun})
	}
	if res.DryRun {
		fmt.Fprintf(f.IO.ErrOut, "dry run: would reject %s and keep %s under %s\n", res.ID, cmdutil.Short(res.Tip), res.Ref)
		return nil
	}
	fmt.Fprintf(f.IO.ErrOut, "%s rejected %s: its tip %s is kept under %s\n", f.IO.Green("✓"), res.ID, cmdutil.Short(res.Tip), res.Ref)
	return nil
}
