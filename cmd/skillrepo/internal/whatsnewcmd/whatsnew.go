// Package whatsnewcmd is `skillrepo whatsnew`, what the loop learned
// since the last session: Options, NewCmdWhatsnew that only
// parses flags and arguments into it (handed a runF, a test checks the
// parse without a library) and whatsnewRun (docs/architecture.md §6).
package whatsnewcmd

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agentsession"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// Options is what `whatsnew` was asked.
type Options struct {
	Factory *cmdutil.Factory
	Since   string
	// since is Since parsed when the flags are (zero when not given).
	since time.Time
}

// NewCmdWhatsnew is `whatsnew`; runF, when not nil, runs instead of whatsnewRun.
func NewCmdWhatsnew(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "whatsnew [--since TIME]",
		Short: "What the agent learned since a time or since the last session",
		Long: `Show what the background reviews learned — the skills they created, patched
or archived and the memory they changed, in each review's words — since the
newest session of this library started (by default), or since --since: a
duration back from now (90m, 2h, 3d) or a time (2026-12-07, RFC 3339). Then the
proposals that wait for your approval, with the command to look at each.
Read from the queue of reviews the agents' hooks asked for (a review run by
hand with 'skillrepo review' is in 'git log'). Nothing is written.`,
		Example: `  skillrepo whatsnew
  skillrepo whatsnew --since 3d
  skillrepo whatsnew --since 2026-12-01 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Since != "" {
				var err error
				if opts.since, err = parseSince(opts.Since, f.Now()); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return whatsnewRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Since, "since", "", "a duration back from now (2h, 3d) or a time (2026-12-07, RFC 3339); default: the last session's start")
	return cmd
}

type whatsnewJSON struct {
	Since   string             `json:"since"`
	Reviews []whatsnewReview   `json:"reviews"`
	Waiting []whatsnewProposal `json:"waiting"`
}

type whatsnewReview struct {
	ID         string `json:"id"`
	ReviewID   string `json:"review_id,omitempty"`
	Agent      string `json:"agent,omitempty"`
	SessionID  string `json:"session_id,omitempty"`
	FinishedAt string `json:"finished_at"`
	Summary    string `json:"summary"`
	Proposal   string `json:"proposal,omitempty"`
	Merged     bool   `json:"merged"`
	Applied    int    `json:"applied"`
	Staged     int    `json:"staged"`
}

type whatsnewProposal struct {
	ID      string   `json:"id"`
	Skills  []string `json:"skills"`
	Updated string   `json:"updated"`
}

func whatsnewRun(opts *Options) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	since := opts.since
	what := "since " + cmdutil.RFC3339(since)
	if opts.Since == "" {
		since = agentsession.LastSessionStart(lib.State().Hooks())
		what = "since the last session started (" + cmdutil.RFC3339(since) + ")"
		if since.IsZero() {
			since, what = f.Now().Add(-24*time.Hour), "in the last 24 hours (no session has started yet)"
		}
	}
	entries, err := queue.New(lib.State().Queue()).List()
	if err != nil {
		return err
	}
	learned, _ := agentsession.Learned(entries, since)
	ps, err := lib.Proposals().List(skillrepo.ProposalQuery{})
	if err != nil {
		return err
	}
	out := whatsnewJSON{Since: cmdutil.RFC3339(since), Reviews: []whatsnewReview{}, Waiting: []whatsnewProposal{}}
	for _, e := range learned {
		out.Reviews = append(out.Reviews, whatsnewReview{ID: e.ID, ReviewID: e.ReviewID, Agent: e.Agent, SessionID: e.SessionID, FinishedAt: cmdutil.RFC3339(*e.FinishedAt),
			Summary: e.Outcome.Summary, Proposal: e.Outcome.Proposal, Merged: e.Outcome.Merged, Applied: e.Outcome.Applied, Staged: e.Outcome.Staged})
	}
	for _, p := range ps {
		if p.State == skillrepo.ProposalOpen {
			out.Waiting = append(out.Waiting, whatsnewProposal{ID: p.ID, Skills: cmdutil.NonNil(p.Skills), Updated: cmdutil.RFC3339(p.Updated)})
		}
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, out)
	}
	w := f.IO.Out
	if len(out.Reviews) == 0 {
		fmt.Fprintf(w, "the agent learned nothing %s\n", what)
	} else {
		fmt.Fprintf(w, "the agent learned %s:\n", what)
		for _, r := range out.Reviews {
			who := r.Agent
			if r.SessionID != "" {
				who += " session " + shortID(r.SessionID)
			}
			fmt.Fprintf(w, "  %s  review %s (%s)\n      %s\n", r.FinishedAt, cmp.Or(r.ReviewID, r.ID), strings.TrimSpace(who), r.Summary)
		}
	}
	if len(out.Waiting) > 0 {
		fmt.Fprintf(w, "waiting for your approval (%d):\n", len(out.Waiting))
		for _, p := range out.Waiting {
			fmt.Fprintf(w, "  %s  %s  skillrepo proposal show %s\n", p.ID, strings.Join(p.Skills, ", "), p.ID)
		}
	}
	return nil
}

// parseSince reads --since: a duration back from now (with d for days),
// a date, or an RFC 3339 time. "" is the zero time.
func parseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if days, err := strconv.Atoi(n); err == nil && days >= 0 {
			return now.Add(-time.Duration(days) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, cmdutil.UsageErrorf("--since %q: give a duration back from now (90m, 2h, 3d) or a time (2026-12-07, 2026-12-07T14:00:00Z)", s)
}

func shortID(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return s
}
