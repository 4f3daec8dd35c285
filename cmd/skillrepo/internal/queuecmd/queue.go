// Package queuecmd is the `skillrepo queue` command group: list, show,
// retry and drop. Each verb has an options struct, a NewCmd… that only
// parses flags and arguments into it (handed a runF, a test checks the
// parse without a library) and a run function (docs/architecture.md §6).
package queuecmd

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/worker"
)

// NewCmdQueue is the queue command group.
func NewCmdQueue(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "queue <command>",
		Short: "See and manage the queued reviews and curator runs",
		Long: `The queue holds the reviews and curator runs agent hooks asked for, until
the worker runs them (.git/skillrepo/queue/, one JSON file per entry). An entry
is queued, running, done or failed (parked with its reason after
review.max_attempts, or at once for an error a retry cannot fix).`,
		Example: `  skillrepo queue list
  skillrepo queue show q-20261201-103327-0a1b2c
  skillrepo queue retry q-20261201-103327
  skillrepo queue drop q-20261201-103327`,
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdShow(f, nil), NewCmdRetry(f, nil), NewCmdDrop(f, nil))
	return cmd
}

func queueStore(f *cmdutil.Factory) (*queue.Store, error) {
	lib, err := f.Library()
	if err != nil {
		return nil, err
	}
	s := queue.New(lib.State().Queue())
	s.Now = f.Now
	return s, nil
}

func queueLookupError(err error, id string) error {
	if errors.Is(err, queue.ErrNotFound) {
		return skillrepo.WithHint(err, "run 'skillrepo queue list' to see the entries")
	}
	return err
}

// ListOptions is what `queue list` was asked.
type ListOptions struct {
	Factory *cmdutil.Factory
	State   string
}

// NewCmdList is `queue list`; runF, when not nil, runs instead of listRun.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{Factory: f}
	cmd := &cobra.Command{
		Use:     "list [--state {queued|running|done|failed}]",
		Short:   "List the queue, oldest first",
		Example: "  skillrepo queue list\n  skillrepo queue list --state failed --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.State, "state", "", "only entries in this state")
	return cmd
}

func listRun(opts *ListOptions) error {
	f := opts.Factory
	s, err := queueStore(f)
	if err != nil {
		return err
	}
	all, err := s.List()
	if err != nil {
		return err
	}
	out := []queue.Entry{}
	for _, e := range all {
		if opts.State == "" || string(e.State) == opts.State {
			out = append(out, redacted(e))
		}
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, out)
	}
	if len(out) == 0 {
		fmt.Fprintln(f.IO.ErrOut, "the queue is empty")
		return nil
	}
	tw := cmdutil.NewTable(f.IO.Out)
	tw.Header(f.IO, "ID", "KIND", "STATE", "ATTEMPTS", "SESSION", "ENQUEUED", "NOTE")
	for _, e := range out {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\n", e.ID, e.Kind, e.State, e.Attempts, cmdutil.OrDash(e.SessionID), cmdutil.RFC3339(e.EnqueuedAt), entryNote(e, f.Now()))
	}
	return tw.Flush()
}

// entryNote is the one-line state of an entry for people.
func entryNote(e queue.Entry, now time.Time) string {
	switch e.State {
	case queue.Queued:
		if e.NextAttemptAt != nil && now.Before(*e.NextAttemptAt) {
			return fmt.Sprintf("retry after %s: %s", cmdutil.RFC3339(*e.NextAttemptAt), cmdutil.OneLine(e.LastError))
		}
		if e.Interruptions > 0 {
			return fmt.Sprintf("interrupted by a new user turn (%d of %d); waits for quiet", e.Interruptions, queue.MaxInterruptions)
		}
		return cmdutil.OneLine(e.Due.Reason)
	case queue.Running:
		return "review " + e.ReviewID
	case queue.Done:
		if e.Outcome != nil {
			return cmdutil.OneLine(e.Outcome.Summary)
		}
	case queue.Failed, queue.Corrupt:
		return cmdutil.OneLine(e.LastError)
	}
	return ""
}

// ShowOptions is what `queue show` was asked.
type ShowOptions struct {
	Factory *cmdutil.Factory
	ID      string
}

// NewCmdShow is `queue show`; runF, when not nil, runs instead of showRun.
func NewCmdShow(f *cmdutil.Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{Factory: f}
	return &cobra.Command{
		Use:     "show <id>",
		Short:   "Show one queue entry (an id prefix will do)",
		Example: "  skillrepo queue show q-20261201-103327\n  skillrepo queue show q-20261201-103327 --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
}

func showRun(opts *ShowOptions) error {
	f := opts.Factory
	s, err := queueStore(f)
	if err != nil {
		return err
	}
	e, err := s.Get(opts.ID)
	if err != nil {
		return queueLookupError(err, opts.ID)
	}
	e = redacted(e)
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, e)
	}
	w := f.IO.Out
	fmt.Fprintf(w, "entry %s: %s, %s\n", e.ID, e.Kind, e.State)
	if e.Kind == queue.KindReview {
		what := []string{}
		if e.Due.Memory {
			what = append(what, "memory")
		}
		if e.Due.Skills {
			what = append(what, "skills")
		}
		fmt.Fprintf(w, "review of: %s%s\n", strings.Join(what, " and "), map[bool]string{true: " (final review at session end)"}[e.Due.Final])
		fmt.Fprintf(w, "agent: %s, session %s\ntranscript: %s (%s)\n", cmdutil.OrDash(e.Agent), cmdutil.OrDash(e.SessionID), cmdutil.TerminalSafe(e.Transcript), cmdutil.OrDash(e.Format))
		if e.Backend != "" || e.Model != "" {
			fmt.Fprintf(w, "model: %s, backend %s\n", cmdutil.OrDash(e.Model), cmdutil.OrDash(e.Backend))
		}
		if e.Cwd != "" || e.Program != "" {
			fmt.Fprintf(w, "session folder: %s, program %s\n", cmdutil.OrDash(e.Cwd), cmdutil.OrDash(e.Program))
		}
		if len(e.Env) > 0 {
			keys := make([]string, 0, len(e.Env))
			for k := range e.Env {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			fmt.Fprintln(w, "session environment:")
			for _, k := range keys {
				fmt.Fprintf(w, "  %s=%s\n", k, e.Env[k])
			}
		}
	}
	if e.Due.Reason != "" {
		fmt.Fprintf(w, "why: %s\n", e.Due.Reason)
	}
	fmt.Fprintf(w, "enqueued: %s\nattempts: %d\n", cmdutil.RFC3339(e.EnqueuedAt), e.Attempts)
	if e.Interruptions > 0 {
		fmt.Fprintf(w, "interrupted by new user turns: %d (at most %d, then dropped)\n", e.Interruptions, queue.MaxInterruptions)
	}
	if e.NextAttemptAt != nil {
		fmt.Fprintf(w, "next attempt: %s\n", cmdutil.RFC3339(*e.NextAttemptAt))
	}
	if len(e.ReviewIDs) > 0 {
		fmt.Fprintf(w, "review ids: %s\n", strings.Join(e.ReviewIDs, ", "))
	}
	if e.LastError != "" {
		fmt.Fprintf(w, "last error: %s\n", e.LastError)
	}
	if o := e.Outcome; o != nil {
		fmt.Fprintf(w, "outcome: %s", o.Status)
		if o.Merged {
			fmt.Fprintf(w, ", merged as %.12s", o.MergeCommit)
		} else if o.Proposal != "" {
			fmt.Fprintf(w, ", proposal %s waits", o.Proposal)
		}
		fmt.Fprintln(w)
		if o.Summary != "" {
			fmt.Fprintf(w, "  %s\n", o.Summary)
		}
		if o.MergeError != "" {
			fmt.Fprintf(w, "  merge failed: %s\n", o.MergeError)
		}
	}
	return nil
}

// RetryOptions is what `queue retry` was asked.
type RetryOptions struct {
	Factory *cmdutil.Factory
	ID      string
}

// NewCmdRetry is `queue retry`; runF, when not nil, runs instead of retryRun.
func NewCmdRetry(f *cmdutil.Factory, runF func(*RetryOptions) error) *cobra.Command {
	opts := &RetryOptions{Factory: f}
	return &cobra.Command{
		Use:     "retry <id>",
		Short:   "Put a failed entry back in the queue, its attempts reset",
		Example: "  skillrepo queue retry q-20261201-103327",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return retryRun(opts)
		},
	}
}

func retryRun(opts *RetryOptions) error {
	f := opts.Factory
	s, err := queueStore(f)
	if err != nil {
		return err
	}
	e, err := s.Retry(opts.ID)
	if err != nil {
		return queueLookupError(err, opts.ID)
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, e)
	}
	fmt.Fprintf(f.IO.ErrOut, "%s %s is queued again; the next agent hook starts a worker, or run 'skillrepo worker --once'\n", f.IO.Green("✓"), e.ID)
	return nil
}

// DropOptions is what `queue drop` was asked.
type DropOptions struct {
	Factory *cmdutil.Factory
	ID      string
	Force   bool
}

// NewCmdDrop is `queue drop`; runF, when not nil, runs instead of dropRun.
func NewCmdDrop(f *cmdutil.Factory, runF func(*DropOptions) error) *cobra.Command {
	opts := &DropOptions{Factory: f}
	cmd := &cobra.Command{
		Use:     "drop <id> [--force]",
		Short:   "Remove an entry from the queue",
		Example: "  skillrepo queue drop q-20261201-103327",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(opts)
			}
			return dropRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Force, "force", false, "drop a running entry (only when no worker runs)")
	return cmd
}

func dropRun(opts *DropOptions) error {
	f := opts.Factory
	s, err := queueStore(f)
	if err != nil {
		return err
	}
	lib, _ := f.Library()
	if opts.Force && worker.Running(lib.State().Worker()) {
		return fmt.Errorf("a worker is running; --force drops a running entry only when none does")
	}
	e, err := s.Drop(opts.ID, opts.Force)
	if err != nil {
		return queueLookupError(err, opts.ID)
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, e)
	}
	fmt.Fprintf(f.IO.ErrOut, "%s dropped %s (%s, %s)\n", f.IO.Green("✓"), e.ID, e.Kind, e.State)
	return nil
}

// redacted is e with the values of the credentials in its session
// environment replaced by "(set)": a queue listing is no place for keys.
func redacted(e queue.Entry) queue.Entry {
	if len(e.Env) == 0 {
		return e
	}
	env := make(map[string]string, len(e.Env))
	for k, v := range e.Env {
		if queue.SecretKey(k) {
			v = "(set)"
		}
		env[k] = v
	}
	e.Env = env
	return e
}
