package main

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/mcpserver"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo"
)

type mcpOptions struct {
	f            *factory
	Library      string
	Origin       string
	Propose      bool
	AllowApprove bool
	SessionID    string
	Poll         time.Duration
	Review       string
	ReviewRecord string
}

func newMCPCmd(f *factory) *cobra.Command {
	opts := &mcpOptions{f: f}
	cmd := &cobra.Command{
		Use:   "mcp [--library DIR] [--origin foreground] [--propose] [--allow-approve]",
		Short: "Serve the library to an agent over MCP (stdio)",
		Long: `Serve the skills library over the Model Context Protocol on standard input
and output, for Claude Code, Codex, Cursor and any other MCP client. The agent
gets the tools skills_list, skill_view, skill_manage and memory (the same
validation, guards and messages as the background review's tools) and
proposal_list and proposal_show; with --allow-approve also proposal_approve
and proposal_reject. Every write is one commit with Skill-Origin (--origin,
default foreground), the client's Session-Id when it passes one, and an Agent
trailer naming the client. With --propose, or review.write_approval in the
config, writes land on a proposal branch that waits for approval.

Resources: skillrepo://index (markdown), skillrepo://index/hermes,
skillrepo://index/markdown, skillrepo://index/xml, and skillrepo://skill/<name>;
the server notifies the client when a commit changes the library.

The server holds no lock while idle; any number of servers may serve one
library. It ends when standard input closes. See docs/mcp.md, and
'skillrepo mcp install' to register it with an agent.

With --review JOB the server holds the tools of one background review run
by an agent's own program (the worker writes JOB and starts the program):
exactly the review's tools and guards, its provenance, writes on its
proposal branch, its cap of calls; what the tools did is written to
--review-record after every call.`,
		Example: `  skillrepo mcp --library ~/.claude/skills
  skillrepo mcp install --claude-code --scope user --library ~/.claude/skills`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !skillrepo.ValidOrigin(opts.Origin) {
				return usageErrorf("--origin %q: want user, foreground, background-review, curator or import", opts.Origin)
			}
			if opts.Library != "" {
				f.Dir = opts.Library
			}
			return runMCP(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Library, "library", "", "library `directory` (default: -C, $SKILLREPO_LIBRARY, else the current directory)")
	fl.StringVar(&opts.Origin, "origin", skillrepo.OriginForeground, "Skill-Origin of the writes: foreground, user, background-review or curator (the last two get the autonomous guards)")
	fl.BoolVar(&opts.Propose, "propose", false, "land writes on a proposal branch that waits for approval")
	fl.BoolVar(&opts.AllowApprove, "allow-approve", false, "offer proposal_approve and proposal_reject")
	fl.StringVar(&opts.SessionID, "session-id", "", "Session-Id of writes whose client passes none in _meta")
	fl.DurationVar(&opts.Poll, "poll", time.Second, "how often to check for commits made by others (0 or less: never)")
	fl.StringVar(&opts.Review, "review", "", "serve the tools of the background review described by this job `file`")
	fl.StringVar(&opts.ReviewRecord, "review-record", "", "with --review, write what the tools did to this `file` after every call")
	cmd.AddCommand(newMCPInstallCmd(f), newMCPUninstallCmd(f))
	return cmd
}

func runMCP(cmd *cobra.Command, opts *mcpOptions) error {
	f := opts.f
	lib, err := f.Library()
	if err != nil {
		return err
	}
	poll := opts.Poll
	if poll <= 0 {
		poll = -1
	}
	mopts := mcpserver.Options{
		Origin: opts.Origin, Propose: opts.Propose, AllowApprove: opts.AllowApprove,
		SessionID: opts.SessionID, Version: version(), Poll: poll,
		// Standard output is the protocol's; diagnostics go to stderr.
		Logger: slog.New(slog.NewTextHandler(f.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if opts.Review != "" {
		if mopts.Session, err = reviewSession(lib, opts.Review, opts.ReviewRecord, mopts.Logger); err != nil {
			return err
		}
	}
	srv, err := mcpserver.New(lib, mopts)
	if err != nil {
		return err
	}
	return srv.Serve(cmd.Context(), f.IO.In, f.IO.Out)
}

// version is the module version the binary was built from ("dev" for a
// local build).
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// reviewInstructions are the review-mode server's instructions: the
// review prompt itself comes as the conversation's last message.
const reviewInstructions = `These are the tools of a background review of the conversation so far: read the skills library (skills_list, skill_view, read_file, search_files) and improve it (skill_manage, and memory when offered), as the last message asks. Each successful write is a git commit on the review's proposal; guards refuse what the review may not do, saying why.`

// reviewSession is the MCP session of one background review run by an
// agent's own program: the review's toolbox (package review makes it, as
// for the in-process loop), its cap, and the record left for the worker.
func reviewSession(lib *skillrepo.Library, jobPath, recordPath string, log *slog.Logger) (*mcpserver.Session, error) {
	job, err := review.ReadJob(jobPath)
	if err != nil {
		return nil, err
	}
	if _, err := lib.Snapshot(job.Base); err != nil {
		return nil, fmt.Errorf("review job %s: base %s is not a commit of this library: %w", job.ReviewID, job.Base, err)
	}
	sess := &mcpserver.Session{
		Toolbox:      job.Toolbox(review.Open(lib), nil),
		CapReached:   job.CapReached,
		Instructions: reviewInstructions,
	}
	if recordPath != "" {
		sess.Report = func(rec agenttools.Record, capped bool) {
			if err := review.WriteJSON(recordPath, review.JobRecord{Version: review.JobVersion, Record: rec, Capped: capped}); err != nil {
				log.Error("write the review record", "error", err)
			}
		}
	}
	return sess, nil
}
