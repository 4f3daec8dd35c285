package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/skillrepo"
)

type proposalListOptions struct {
	f        *factory
	Rejected bool
}

func newProposalListCmd(f *factory) *cobra.Command {
	opts := &proposalListOptions{f: f}
	cmd := &cobra.Command{
		Use:   "list [--rejected]",
		Short: "List proposals, oldest first, and whether each still merges",
		Long: `List the proposal branches, oldest first: id, age, origin, review id, skills
touched, lines added and deleted against the fork point, and whether the
proposal still merges into main cleanly: "yes", "conflict", "merged" for a
branch that git or GitHub already merged, or "applied" when main already has
its changes (a squash or rebase merge on GitHub). --rejected lists rejected proposals
with who rejected them and why.`,
		Example: `  skillrepo proposal list
  skillrepo proposal list --rejected
  skillrepo proposal list --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runProposalList(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Rejected, "rejected", false, "list rejected proposals instead")
	return cmd
}

func runProposalList(opts *proposalListOptions) error {
	f := opts.f
	lib, err := f.Library()
	if err != nil {
		return err
	}
	props, err := lib.Proposals(skillrepo.ProposalQuery{Rejected: opts.Rejected, CheckMerge: !opts.Rejected})
	if err != nil {
		return err
	}
	if f.JSON {
		out := make([]proposalJSON, 0, len(props))
		for _, p := range props {
			out = append(out, toProposalJSON(p))
		}
		return printJSON(f.IO.Out, out)
	}
	tw := newTable(f.IO.Out)
	last := "MERGES"
	if opts.Rejected {
		last = "REASON"
	}
	tw.header(f.IO, "ID", "AGE", "ORIGIN", "REVIEW", "SKILLS", "+/-", last)
	now := f.Now()
	for _, p := range props {
		last := mergeState(p)
		switch {
		case p.Rejection != nil:
			last = p.Rejection.Reason
		case last == "yes":
			last = f.IO.Green(last)
		case last == "conflict":
			last = f.IO.Red(last)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t+%d -%d\t%s\n", p.ID, age(now, p.Created), dash(p.Origin), dash(p.ReviewID),
			dash(strings.Join(p.Skills, ",")), p.Added, p.Deleted, dash(last))
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
