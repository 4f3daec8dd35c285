package proposalcmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// ShowOptions is what `proposal show` was asked.
type ShowOptions struct {
	Factory *cmdutil.Factory
	ID      string
}

// NewCmdShow is `proposal show`; runF, when not nil, runs instead of showRun.
func NewCmdShow(f *cmdutil.Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "show <id>",
		Short: "Show a proposal: its state, files, and commits with their trailers",
		Example: `  skillrepo proposal show p-20261130-0a1b2c
  skillrepo proposal show p-20261130-0a1b2c --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
	return cmd
}

type proposalShowJSON struct {
	proposalJSON
	CommitList []commitJSON `json:"commit_list"`
}

type commitJSON struct {
	Hash     string        `json:"hash"`
	Subject  string        `json:"subject"`
	Message  string        `json:"message"`
	Author   string        `json:"author"`
	Date     string        `json:"date"`
	Trailers []trailerJSON `json:"trailers"`
}

type trailerJSON struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

func showRun(opts *ShowOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	p, err := lib.Proposals().Get(opts.ID)
	if err != nil {
		return err
	}
	if f.JSON {
		out := proposalShowJSON{proposalJSON: toProposalJSON(p), CommitList: []commitJSON{}}
		for _, c := range p.Commits {
			cj := commitJSON{Hash: c.Hash.String(), Subject: c.Subject, Message: c.Message, Author: c.Author, Date: cmdutil.RFC3339(c.When), Trailers: []trailerJSON{}}
			for _, t := range c.Trailers {
				cj.Trailers = append(cj.Trailers, trailerJSON{Key: t.Key, Value: t.Value})
			}
			out.CommitList = append(out.CommitList, cj)
		}
		return cmdutil.PrintJSON(f.IO.Out, out)
	}
	w := f.IO.Out
	fmt.Fprintf(w, "%s %s (%s)\n", f.IO.Bold("proposal"), f.IO.Bold(p.ID), p.State)
	fmt.Fprintf(w, "ref:      %s at %s, forked from %s at %s\n", p.Ref, cmdutil.Short(p.Tip), lib.MainBranch(), cmdutil.Short(p.Base))
	if p.Rejection != nil {
		fmt.Fprintf(w, "rejected: by %s on %s: %s\n", cmdutil.Dash(p.Rejection.By), cmdutil.RFC3339(p.Rejection.When), cmdutil.Dash(p.Rejection.Reason))
	}
	fmt.Fprintf(w, "origin:   %s, review %s\n", cmdutil.Dash(p.Origin), cmdutil.Dash(p.ReviewID))
	fmt.Fprintf(w, "skills:   %s\n", cmdutil.Dash(strings.Join(p.Skills, ", ")))
	fmt.Fprintf(w, "changes:  %d %s, +%d -%d\n", len(p.Files), cmdutil.Plural(len(p.Files), "file", "files"), p.Added, p.Deleted)
	for _, fs := range p.Files {
		fmt.Fprintf(w, "  %-8s %s\n", fs.Status, fs.Path)
	}
	switch {
	case p.State != skillrepo.ProposalOpen:
	case p.Mergeable():
		fmt.Fprintf(w, "merge:    %s\n", f.IO.Green("merges cleanly into "+lib.MainBranch()))
	case p.Checked:
		fmt.Fprintf(w, "merge:    %s\n", f.IO.Red("conflicts with "+lib.MainBranch()))
		for _, c := range p.Conflicts {
			fmt.Fprintf(w, "  %s (%s): %s\n", c.Path, c.Reason, c.Detail)
		}
	}
	for _, c := range p.Commits {
		fmt.Fprintf(w, "\n%s %s\n", f.IO.Yellow("commit"), f.IO.Yellow(c.Hash.String()))
		fmt.Fprintf(w, "Author: %s\nDate:   %s\n\n", c.Author, cmdutil.RFC3339(c.When))
		for _, line := range strings.Split(strings.TrimRight(c.Message, "\n"), "\n") {
			fmt.Fprintln(w, strings.TrimRight("    "+line, " "))
		}
	}
	return nil
}
