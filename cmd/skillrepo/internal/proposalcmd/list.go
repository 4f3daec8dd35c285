package proposalcmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/remote"
)

// ListOptions is what `proposal list` was asked.
type ListOptions struct {
	Factory  *cmdutil.Factory
	Rejected bool
}

// NewCmdList is `proposal list`; runF, when not nil, runs instead of listRun.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "list [--rejected]",
		Short: "List proposals, oldest first, and whether each still merges",
		Long: `List the proposal branches, oldest first: id, age, origin, review id, skills
touched, lines added and deleted against the fork point, and whether the
proposal still merges into main cleanly: "yes", "conflict", "merged" for a
branch that git or GitHub already merged, or "applied" when main already has
its changes (a squash or rebase merge on GitHub). --rejected lists rejected proposals
with who rejected them and why.

With a shared remote (docs/remote.md) a REMOTE column says where each
proposal stands there, as of the last fetch: published, unpushed (new
commits here), pending (publishing failed; the next sync retries), ahead or
diverged (the host's branch moved), merged or closed on the host — and its
pull request's URL.`,
		Example: `  skillrepo proposal list
  skillrepo proposal list --rejected
  skillrepo proposal list --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Rejected, "rejected", false, "list rejected proposals instead")
	return cmd
}

func listRun(opts *ListOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	props, err := lib.Proposals().List(skillrepo.ProposalQuery{Rejected: opts.Rejected, CheckMerge: !opts.Rejected})
	if err != nil {
		return err
	}
	remotes, err := remote.New(lib).Proposals(props)
	if err != nil {
		return err
	}
	if f.JSON {
		out := make([]proposalJSON, 0, len(props))
		for _, p := range props {
			j := toProposalJSON(p)
			if r, ok := remotes[p.ID]; ok {
				j.Remote = toProposalRemoteJSON(r)
			}
			out = append(out, j)
		}
		return cmdutil.PrintJSON(f.IO.Out, out)
	}
	if len(props) == 0 {
		if opts.Rejected {
			fmt.Fprintln(f.IO.ErrOut, "no rejected proposals")
		} else {
			fmt.Fprintln(f.IO.ErrOut, "no open proposals")
		}
		return nil
	}
	tw := cmdutil.NewTable(f.IO.Out)
	last := "MERGES"
	if opts.Rejected {
		last = "REASON"
	}
	showRemote := !opts.Rejected && (lib.Config.Remote.Enabled() || len(remotes) > 0)
	cols := []string{"ID", "AGE", "ORIGIN", "REVIEW", "SKILLS", "+/-", last}
	if showRemote {
		cols = append(cols, "REMOTE")
	}
	tw.Header(f.IO, cols...)
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t+%d -%d\t%s", p.ID, cmdutil.Age(now, p.Created), cmdutil.Dash(p.Origin), cmdutil.Dash(p.ReviewID),
			cmdutil.Dash(strings.Join(p.Skills, ",")), p.Added, p.Deleted, cmdutil.Dash(last))
		if showRemote {
			r := remotes[p.ID]
			fmt.Fprintf(tw, "\t%s", cmdutil.Dash(strings.TrimSpace(r.State+" "+r.PullRequest)))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
