package proposalcmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// ApproveOptions is what `proposal approve` was asked.
type ApproveOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	ID      string
	All     bool
	By      string
	DryRun  bool
}

// NewCmdApprove is `proposal approve`; runF, when not nil, runs instead of approveRun.
func NewCmdApprove(f *cmdutil.Factory, runF func(*ApproveOptions) error) *cobra.Command {
	opts := &ApproveOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "approve {<id> | --all} [--by <who>] [--dry-run]",
		Short: "Merge a proposal into main with a merge commit",
		Long: `Merge a proposal into main with a merge commit whose first parent is main and
second parent the proposal's tip, carrying Approved-By (default: your git
identity), Proposal-Id and Review-Id trailers. The work tree is updated for the
touched paths only, and the proposal branch is deleted.

When main moved since the proposal forked, the merge is three-way per file, and
line by line inside a file both sides changed. Overlapping edits are a
conflict: every conflicting path is reported, nothing is written, and the exit
code is 3. A merge that would leave an invalid SKILL.md is refused the same way,
and one whose skills would fail lint (errors, with the library's lint
settings) is refused with exit 1.

--all approves every open proposal, oldest first, skipping the ones that
conflict (exit 3 when any did).`,
		Example: `  skillrepo proposal approve p-20261130-0a1b2c
  skillrepo proposal approve p-20261130-0a1b2c --by "Ada <ada@example.com>" --dry-run
  skillrepo proposal approve --all`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case opts.All && len(args) == 1:
				return cmdutil.UsageErrorf("give a proposal id or --all, not both")
			case !opts.All && len(args) == 0:
				return cmdutil.UsageErrorf("give the id of the proposal to approve, or --all")
			case len(args) == 1:
				opts.ID = args[0]
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return approveRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.All, "all", false, "approve every open proposal, oldest first")
	cmd.Flags().StringVar(&opts.By, "by", "", "Approved-By value (default: your git identity)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "try the merge and report it, write nothing")
	return cmd
}

type approveJSON struct {
	ID         string   `json:"id"`
	Status     string   `json:"status"` // merged, already_merged, conflict, refused
	Commit     string   `json:"commit,omitempty"`
	Tip        string   `json:"tip,omitempty"`
	Paths      []string `json:"paths"`
	BranchKept bool     `json:"branch_kept"`
	// WorktreeRemoved is the linked worktree removed with the branch.
	WorktreeRemoved string         `json:"worktree_removed,omitempty"`
	DryRun          bool           `json:"dry_run"`
	Conflicts       []conflictJSON `json:"conflicts"`
	Error           string         `json:"error,omitempty"`
}

func approveRun(opts *ApproveOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	pol, err := lib.Policy(skillrepo.Writer{})
	if err != nil {
		return err
	}
	aopts := skillrepo.ApproveOptions{By: opts.By, DryRun: opts.DryRun}
	if !opts.All {
		res, err := pol.ApproveProposal(opts.Ctx, opts.ID, aopts)
		if err != nil {
			reportConflicts(f, err)
			return err
		}
		if f.JSON {
			return cmdutil.PrintJSON(f.IO.Out, approveOutcomeJSON(opts.ID, res, nil, opts.DryRun))
		}
		reportApproved(f, lib, res)
		return nil
	}
	outcomes, err := pol.ApproveAll(opts.Ctx, aopts)
	failed := 0
	out := []approveJSON{}
	for _, o := range outcomes {
		out = append(out, approveOutcomeJSON(o.ID, o.Result, o.Err, opts.DryRun))
		if o.Err != nil {
			failed++
			if !f.JSON {
				fmt.Fprintf(f.IO.ErrOut, "%s %s: %v\n", f.IO.Red("✗"), o.ID, o.Err)
				reportConflicts(f, o.Err)
			}
			continue
		}
		if !f.JSON {
			reportApproved(f, lib, o.Result)
		}
	}
	if f.JSON {
		if perr := cmdutil.PrintJSON(f.IO.Out, out); perr != nil {
			return perr
		}
	} else if len(outcomes) == 0 && err == nil {
		fmt.Fprintln(f.IO.ErrOut, "no open proposals")
	}
	if err != nil {
		return err
	}
	if failed > 0 {
		if !f.JSON {
			fmt.Fprintf(f.IO.ErrOut, "%d of %s approved; %d left open\n", len(outcomes)-failed, cmdutil.NounCount(len(outcomes), "proposal"), failed)
		}
		return &cmdutil.SilentError{Code: cmdutil.ExitConflict}
	}
	return nil
}

func approveOutcomeJSON(id string, res *skillrepo.ApproveResult, err error, dryRun bool) approveJSON {
	out := approveJSON{ID: id, Status: "merged", Paths: []string{}, Conflicts: []conflictJSON{}, DryRun: dryRun}
	var ce *skillrepo.ProposalConflictError
	switch {
	case errors.As(err, &ce):
		out.Status, out.Conflicts, out.Error = "conflict", conflictsJSON(ce.Conflicts), err.Error()
		return out
	case err != nil:
		out.Status, out.Error = "refused", err.Error()
		return out
	}
	out.Tip, out.Commit, out.BranchKept = cmdutil.HashString(res.Tip), cmdutil.HashString(res.Commit), res.BranchKept
	out.WorktreeRemoved = res.WorktreeRemoved
	if res.AlreadyMerged {
		out.Status = "already_merged"
	}
	if res.Update != nil && res.Update.Paths != nil {
		out.Paths = res.Update.Paths
	}
	return out
}

// reportConflicts lists a conflict's paths one per line on stderr.
func reportConflicts(f *cmdutil.Factory, err error) {
	var ce *skillrepo.ProposalConflictError
	if f.JSON || !errors.As(err, &ce) {
		return
	}
	for _, c := range ce.Conflicts {
		fmt.Fprintf(f.IO.ErrOut, "conflict: %s (%s): %s\n", c.Path, c.Reason, c.Detail)
	}
}

func reportApproved(f *cmdutil.Factory, lib *skillrepo.Library, res *skillrepo.ApproveResult) {
	w := f.IO.ErrOut
	switch {
	case res.AlreadyMerged:
		fmt.Fprintf(w, "%s %s was already merged into %s (by git or on the remote); deleted its branch\n", f.IO.Green("✓"), res.ID, lib.MainBranch())
		return
	case res.DryRun:
		fmt.Fprintf(w, "dry run: %s merges cleanly into %s, changing:\n", res.ID, lib.MainBranch())
	default:
		fmt.Fprintf(w, "%s approved %s: merged as %s into %s, changing:\n", f.IO.Green("✓"), res.ID, cmdutil.Short(res.Commit), lib.MainBranch())
	}
	for _, p := range res.Update.Paths {
		fmt.Fprintf(w, "  %s\n", p)
	}
	switch {
	case res.BranchKeptReason != "":
		fmt.Fprintf(w, "warning: %s is merged, but its branch stays: %s\n", res.ID, res.BranchKeptReason)
	case res.BranchKept:
		fmt.Fprintf(w, "%s received new commits meanwhile: its branch stays open with them\n", res.ID)
	}
	if res.WorktreeRemoved != "" {
		fmt.Fprintf(w, "removed the worktree %s that had its branch checked out\n", res.WorktreeRemoved)
	}
}
