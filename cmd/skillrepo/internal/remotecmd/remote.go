// Package remotecmd is how the library travels through a git remote:
// `push`, `pull` and `remote sync` (the shared remote of remote.md), per
// verb an options struct, a NewCmd… that only parses flags into it
// (handed a runF, a test checks the parse without a library) and a run
// function over skillrepo/remote (docs/architecture.md §6).
package remotecmd

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/skillrepo/remote"
)

// NewCmdRemote is the remote command group.
func NewCmdRemote(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "remote <command>",
		Short: "Share the library through its git host (the remote: settings)",
		Long: `A team shares one library through its git host: proposals travel as pull
requests and approvals come back by themselves (docs/remote.md). The remote:
section of .skillrepo/config.yaml says what travels:

  remote:
    name: origin          # the git remote
    proposals: push       # publish proposals staged by reviews and the curator
    main: both            # pull | push | both | off: what happens to main
    pull_request: gh      # off | gh | glab: open a pull request per proposal

Agent hooks run 'remote sync' in the background at session start, and
every write to main starts one when remote.main pushes; 'skillrepo status'
shows how it went.`,
		Example: `  skillrepo remote sync
  skillrepo remote sync --json`,
	}
	cmd.AddCommand(NewCmdSync(f, nil))
	return cmd
}

// SyncOptions is what `remote sync` was asked.
type SyncOptions struct {
	Factory    *cmdutil.Factory
	Ctx        context.Context
	Background bool
	Attempts   int
}

// remoteBudget bounds a background remote sync: the wait for the clone's
// remote lock and the network both end by then.
const remoteBudget = 2 * time.Minute

// NewCmdSync is `remote sync`; runF, when not nil, runs instead of
// syncRun.
func NewCmdSync(f *cmdutil.Factory, runF func(*SyncOptions) error) *cobra.Command {
	opts := &SyncOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "sync [--json]",
		Short: "Fetch, bring main in and send it out, settle and publish proposals",
		Long: `Fetch the remote (remote.name) and, as the remote: settings say:

- remote.main pull|both: bring the remote's main in: a fast-forward, or a
  three-way merge when this clone has commits the remote lacks (as
  'proposal approve' merges); a conflict leaves this clone's own work as a
  proposal (diverged-<date>-<hex>, published) and main follows the remote's;
- remote.main push|both: send main out with a lease (never forced); a push
  that loses the race to another clone fetches, merges and tries again,
  --attempts times, then leaves the work as a published proposal;
- proposals merged on the host (merge, squash or rebase) are settled here;
- remote.proposals push: publish the proposals reviews and the curator
  staged that are not published yet (and new commits of published ones).

A library in a folder of a project never touches main: it is the project's
(git pull is yours to run). Failures are kept for 'skillrepo status' with
their fix (credentials, the host unreachable, a protected branch).`,
		Example: `  skillrepo remote sync
  skillrepo remote sync --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return syncRun(opts)
		},
	}
	cmd.Flags().IntVar(&opts.Attempts, "attempts", remote.DefaultShareAttempts, "pushes of main to try when other clones win the race")
	cmd.Flags().BoolVar(&opts.Background, "background", false, "run as the background sync hooks start: at most one waits behind a running one, bounded in time")
	_ = cmd.Flags().MarkHidden("background")
	return cmd
}

type remoteSyncJSON struct {
	Remote    string                `json:"remote"`
	Fetched   bool                  `json:"fetched"`
	Main      string                `json:"main"`
	Before    string                `json:"before"`
	After     string                `json:"after"`
	Pushes    int                   `json:"pushes"`
	Rounds    int                   `json:"rounds"`
	Proposal  string                `json:"proposal,omitempty"`
	Reason    string                `json:"reason,omitempty"`
	Settled   []string              `json:"settled"`
	Published []cmdutil.PublishJSON `json:"published"`
	Notes     []string              `json:"notes"`
	// Skipped says why a background sync did nothing (one was waiting).
	Skipped string `json:"skipped,omitempty"`
}

func syncRun(opts *SyncOptions) error {
	f, ctx := opts.Factory, opts.Ctx
	f.NoShare = true // this command is the share
	lib, err := f.Library()
	if err != nil {
		return err
	}
	sopts := remote.SyncOptions{Attempts: opts.Attempts}
	if opts.Background {
		// One sync runs and at most one waits behind it: a sync started
		// while another waits has nothing to add (the waiting one reads
		// main only once it holds the lock).
		unlock, ok, err := statefile.TryLock(filepath.Join(lib.State().Remote(), "queued.lock"))
		if err != nil {
			return err
		}
		if !ok {
			return printRemoteSync(f, nil, "another background sync is waiting and will include this")
		}
		defer unlock()
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, remoteBudget)
		defer cancel()
		sopts.LockWait = remoteBudget
		sopts.Locked = unlock
	}
	res, err := remote.New(lib).Sync(ctx, sopts)
	if perr := printRemoteSync(f, res, ""); perr != nil {
		return perr
	}
	return err
}

func printRemoteSync(f *cmdutil.Factory, res *remote.SyncResult, skipped string) error {
	if res == nil {
		res = &remote.SyncResult{Main: remote.MainSkipped}
	}
	if f.JSON {
		out := remoteSyncJSON{Remote: res.Remote, Fetched: res.Fetched, Main: res.Main, Before: cmdutil.HashString(res.Before), After: cmdutil.HashString(res.After),
			Pushes: res.Pushes, Rounds: res.Rounds, Proposal: res.Proposal, Reason: res.Reason, Settled: cmdutil.NonNil(res.Settled),
			Published: []cmdutil.PublishJSON{}, Notes: cmdutil.NonNil(res.Notes), Skipped: skipped}
		for _, p := range res.Published {
			out.Published = append(out.Published, cmdutil.NewPublishJSON(p))
		}
		return cmdutil.PrintJSON(f.IO.Out, out)
	}
	w := f.IO.ErrOut
	if skipped != "" {
		fmt.Fprintln(w, skipped)
		return nil
	}
	if res.Fetched {
		line := fmt.Sprintf("fetched %s; main: %s", res.Remote, res.Main)
		if res.Before != res.After {
			line += fmt.Sprintf(" (%s..%s)", cmdutil.Short(res.Before), cmdutil.Short(res.After))
		}
		if res.Pushes > 0 {
			line += fmt.Sprintf(", %d %s", res.Pushes, cmdutil.Plural(res.Pushes, "push", "pushes"))
		}
		fmt.Fprintln(w, line)
	}
	for _, id := range res.Settled {
		fmt.Fprintf(w, "settled proposal %s (approved on the host)\n", id)
	}
	for _, p := range res.Published {
		cmdutil.ReportPublished(f, p)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}
