package skillcmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo/history"
)

// LogOptions is what `skill log` was asked.
type LogOptions struct {
	Factory  *cmdutil.Factory
	Name     string
	Rev      string
	Patch    bool
	MaxCount int
}

// NewCmdLog is `skill log`; runF, when not nil, runs instead of logRun.
func NewCmdLog(f *cmdutil.Factory, runF func(*LogOptions) error) *cobra.Command {
	opts := &LogOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "log <name> [--patch] [-n <count>]",
		Short: "Show every commit that touched a skill, with its provenance",
		Long: `Show the commits that touched a skill, newest first, following it through
renames, category moves, archive and restore, and into merged proposals. Each
commit shows what happened to the skill (created, modified, renamed, moved,
archived, restored, deleted, merged; "meta" for adopt, disown, pin and unpin),
who wrote it (origin: user, foreground, background-review, curator, import),
and the review id and model when an agent wrote it.`,
		Example: `  skillrepo skill log ci-debugging
  skillrepo skill log ci-debugging --patch -n 3
  skillrepo skill log ci-debugging --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if opts.MaxCount < 0 {
				return cmdutil.UsageErrorf("-n must be 0 (all) or more")
			}
			if runF != nil {
				return runF(opts)
			}
			return logRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Rev, "rev", "", "read this branch or commit instead of the main branch")
	cmd.Flags().BoolVarP(&opts.Patch, "patch", "p", false, "show the diff of the skill's files in each commit")
	cmd.Flags().IntVarP(&opts.MaxCount, "max-count", "n", 0, "show at most this many commits (0 = all)")
	return cmd
}

type skillLogJSON struct {
	Commit      string   `json:"commit"`
	Parents     []string `json:"parents"`
	AuthorName  string   `json:"author_name"`
	AuthorEmail string   `json:"author_email"`
	AuthorDate  string   `json:"author_date"`
	CommitDate  string   `json:"commit_date"`
	Subject     string   `json:"subject"`
	Change      string   `json:"change"`
	Path        string   `json:"path"`
	From        string   `json:"from,omitempty"`
	Action      string   `json:"action"`
	Origin      string   `json:"origin"`
	ReviewID    string   `json:"review_id,omitempty"`
	SessionID   string   `json:"session_id,omitempty"`
	Model       string   `json:"model,omitempty"`
	CuratorRun  string   `json:"curator_run,omitempty"`
	Patch       string   `json:"patch,omitempty"`
	// Truncated marks a shallow clone's boundary commit: the history
	// before it is not in this clone.
	Truncated bool `json:"truncated,omitempty"`
}

func logRun(opts *LogOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	entries, err := lib.History().Log(opts.Name, history.LogOptions{Rev: opts.Rev, Patch: opts.Patch, MaxCount: opts.MaxCount})
	if err != nil {
		return err
	}
	if f.JSON {
		out := make([]skillLogJSON, 0, len(entries))
		for _, e := range entries {
			parents := make([]string, 0, len(e.Parents))
			for _, p := range e.Parents {
				parents = append(parents, p.String())
			}
			out = append(out, skillLogJSON{
				Commit: e.Commit.String(), Parents: parents,
				AuthorName: e.AuthorName, AuthorEmail: e.AuthorEmail,
				AuthorDate: cmdutil.RFC3339(e.AuthorDate), CommitDate: cmdutil.RFC3339(e.CommitDate),
				Subject: e.Subject, Change: e.Change, Path: e.Path, From: e.From,
				Action: e.Action, Origin: e.Origin, ReviewID: e.ReviewID, SessionID: e.SessionID,
				Model: e.Model, CuratorRun: e.CuratorRun, Patch: e.Patch,
				Truncated: e.Truncated,
			})
		}
		return cmdutil.PrintJSON(f.IO.Out, out)
	}
	w := f.IO.Out
	for i, e := range entries {
		if i > 0 && opts.Patch {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s %s %s %s\n", f.IO.Yellow("commit "+e.Commit.String()), e.Change, cmdutil.Dash(e.Origin), f.IO.Faint(e.Subject))
		fmt.Fprintf(w, "    Author: %s <%s>  Date: %s\n", e.AuthorName, e.AuthorEmail, e.AuthorDate.Format("2006-01-02 15:04:05 -0700"))
		if d := logDetails(e); d != "" {
			fmt.Fprintf(w, "    %s\n", d)
		}
		if opts.Patch && e.Patch != "" {
			fmt.Fprintln(w)
			fmt.Fprint(w, e.Patch)
		}
		if e.Truncated {
			fmt.Fprintf(w, "    (history is truncated here: this is a shallow clone; 'git fetch --unshallow' fetches the rest)\n")
		}
	}
	return nil
}

// logDetails is the second line of an entry: path changes and agent
// provenance.
func logDetails(e history.LogEntry) string {
	var parts []string
	switch {
	case e.Change == history.ChangeDeleted:
		parts = append(parts, "deleted "+e.From)
	case e.From != "":
		parts = append(parts, e.From+" -> "+e.Path)
	}
	if e.Change == history.ChangeMeta {
		parts = append(parts, "Action: "+e.Action)
	}
	if e.ReviewID != "" {
		parts = append(parts, "Review-Id: "+e.ReviewID)
	}
	if e.Model != "" {
		parts = append(parts, "Model: "+e.Model)
	}
	if e.CuratorRun != "" {
		parts = append(parts, "Curator-Run: "+e.CuratorRun)
	}
	return strings.Join(parts, "  ")
}
