// Package workercmd is `skillrepo worker`, the process that drains the
// queue: Options, NewCmdWorker that only
// parses flags and arguments into it (handed a runF, a test checks the
// parse without a library) and workerRun (docs/architecture.md §6).
package workercmd

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/mcpserver"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/worker"
)

// Options is what `worker` was asked.
type Options struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Once    bool
	Verbose bool
}

type workerJSON struct {
	AlreadyRunning bool `json:"already_running"`
	Done           int  `json:"done"`
	Failed         int  `json:"failed"`
	Retried        int  `json:"retried"`
	Recovered      int  `json:"recovered"`
}

// NewCmdWorker is `worker`; runF, when not nil, runs instead of workerRun.
func NewCmdWorker(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "worker [--once] [--verbose]",
		Short: "Drain the review queue: run queued reviews and curator runs",
		Long: `Run the queued reviews and curator runs of the library, oldest first. Agent
hooks start a worker by themselves, fully detached; you rarely run one by hand.

One worker runs per library: a second one exits at once (exit 0). A review
waits until the agent has been quiet for review.defer_quiet (default 15s) and
at most review.defer_max (30m) after it was queued; it lands on a proposal
branch, merged unless review.write_approval is set. A model that is down or
busy (HTTP 408/409/429/5xx, network errors) is retried with an exponential
back-off from review.retry_backoff (30s) up to review.max_attempts (5); then,
or at once for any other error, the entry is parked as failed with its reason
('skillrepo queue list', 'skillrepo queue retry ID').

--once drains the queue (waiting for quiet and back-offs) and exits, for cron
and tests; otherwise the worker exits after review.worker_idle (60s) with
nothing queued. Progress goes to .git/skillrepo/logs/worker.log (--verbose
also prints it).`,
		Example: `  skillrepo worker --once --verbose
  skillrepo -C ~/.claude/skills worker`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return workerRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Once, "once", false, "drain the queue, then exit")
	cmd.Flags().BoolVarP(&opts.Verbose, "verbose", "v", false, "print the log lines on stderr too")
	return cmd
}

func workerRun(opts *Options) error {
	f := opts.Factory
	// Everything this process starts (git, a model behind an agent's own
	// CLI) sees the guard, so a review never fires agent hooks.
	os.Setenv(queue.EnvInReview, "1")
	var echo io.Writer
	if opts.Verbose {
		echo = f.IO.ErrOut
	}
	res, err := worker.Run(opts.Ctx, worker.Options{Dir: f.Dir, Getenv: f.Getenv, Now: f.Now, Once: opts.Once, Echo: echo, Self: cmdutil.SelfExecutable(), Serve: mcpserver.ServeSession,
		Unattended: agents.Implementing[curator.Unattended]()})
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, workerJSON{AlreadyRunning: res.AlreadyRunning, Done: res.Done, Failed: res.Failed, Retried: res.Retried, Recovered: res.Recovered})
	}
	if res.AlreadyRunning {
		fmt.Fprintln(f.IO.ErrOut, "another worker is running on this library; it will take the queue")
		return nil
	}
	fmt.Fprintf(f.IO.ErrOut, "worker: %d done, %d failed, %d retried later, %d recovered\n", res.Done, res.Failed, res.Retried, res.Recovered)
	return nil
}
