package skillcmd

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo/history"
)

// BlameOptions is what `skill blame` was asked.
type BlameOptions struct {
	Factory *cmdutil.Factory
	Name    string
	File    string
	Rev     string
}

// NewCmdBlame is `skill blame`; runF, when not nil, runs instead of blameRun.
func NewCmdBlame(f *cmdutil.Factory, runF func(*BlameOptions) error) *cobra.Command {
	opts := &BlameOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "blame <name> [<file>]",
		Short: "Show which commit, origin, review and model last wrote each line of a skill",
		Long: `Show, for each line of a skill's SKILL.md (or a support file given relative to
the skill folder), the commit that last wrote it, its date, its origin (user,
foreground, background-review, curator, import), review id and model. The
skill is followed through renames, moves, archive and restore, and into merged
proposals. Columns: commit, origin, review id, model, date, line number, text.`,
		Example: `  skillrepo skill blame ci-debugging
  skillrepo skill blame ci-debugging references/common-failures.md
  skillrepo skill blame ci-debugging --json`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if len(args) == 2 {
				opts.File = args[1]
			}
			if runF != nil {
				return runF(opts)
			}
			return blameRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Rev, "rev", "", "read this branch or commit instead of the main branch")
	return cmd
}

type blameLineJSON struct {
	Line        int    `json:"line"`
	Text        string `json:"text"`
	Commit      string `json:"commit"`
	OrigLine    int    `json:"orig_line"`
	Path        string `json:"path"`
	AuthorName  string `json:"author_name"`
	AuthorEmail string `json:"author_email"`
	AuthorDate  string `json:"author_date"`
	CommitDate  string `json:"commit_date"`
	Subject     string `json:"subject"`
	Action      string `json:"action"`
	Origin      string `json:"origin"`
	ReviewID    string `json:"review_id,omitempty"`
	SessionID   string `json:"session_id,omitempty"`
	Model       string `json:"model,omitempty"`
	// Truncated: the line is attributed to a shallow clone's boundary
	// commit, which may only have inherited it.
	Truncated bool `json:"truncated,omitempty"`
}

func blameRun(opts *BlameOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	b, err := lib.History().Blame(opts.Name, opts.File, history.BlameOptions{Rev: opts.Rev})
	if err != nil {
		return err
	}
	if f.JSON {
		out := make([]blameLineJSON, 0, len(b.Lines))
		for _, ln := range b.Lines {
			out = append(out, blameLineJSON{
				Line: ln.Line, Text: ln.Text, Commit: ln.Commit.String(), OrigLine: ln.OrigLine, Path: ln.Path,
				AuthorName: ln.AuthorName, AuthorEmail: ln.AuthorEmail,
				AuthorDate: cmdutil.RFC3339(ln.AuthorDate), CommitDate: cmdutil.RFC3339(ln.CommitDate),
				Subject: ln.Subject, Action: ln.Action, Origin: ln.Origin,
				ReviewID: ln.ReviewID, SessionID: ln.SessionID, Model: ln.Model,
				Truncated: b.Truncated && lib.History().CutAt(ln.Commit),
			})
		}
		return cmdutil.PrintJSON(f.IO.Out, out)
	}
	// Aligned like git blame: fixed-width columns, then the line.
	wOrigin, wReview, wModel := 1, 1, 1
	for _, ln := range b.Lines {
		wOrigin = max(wOrigin, len(cmdutil.Dash(ln.Origin)))
		wReview = max(wReview, len(cmdutil.Dash(ln.ReviewID)))
		wModel = max(wModel, len(cmdutil.Dash(ln.Model)))
	}
	wLine := len(strconv.Itoa(len(b.Lines)))
	for _, ln := range b.Lines {
		fmt.Fprintf(f.IO.Out, "%s (%-*s %-*s %-*s %s %*d) %s\n",
			f.IO.Yellow(ln.Commit.String()[:8]),
			wOrigin, cmdutil.Dash(ln.Origin), wReview, cmdutil.Dash(ln.ReviewID), wModel, cmdutil.Dash(ln.Model),
			ln.AuthorDate.Format("2006-01-02"), wLine, ln.Line, ln.Text)
	}
	if b.Truncated {
		fmt.Fprintln(f.IO.ErrOut, "note: history is truncated (a shallow clone): lines attributed to its oldest commit may be older; 'git fetch --unshallow' fetches the rest")
	}
	return nil
}
