// Package mcpcmd is `skillrepo mcp` (serve the library to an agent over
// MCP) and `mcp install`/`uninstall`: per verb an options struct, a
// NewCmd… that only parses flags into it (handed a runF, a test checks the
// parse without a server) and a run function (docs/architecture.md §6).
package mcpcmd

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/mcpserver"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/locate"
)

// ServeOptions is what `mcp` was asked.
type ServeOptions struct {
	Factory      *cmdutil.Factory
	Ctx          context.Context
	Library      string
	Origin       string
	Propose      bool
	AllowApprove bool
	SessionID    string
	Poll         time.Duration
	Relay        string
}

// NewCmdMCP is `mcp`; runF, when not nil, runs instead of serveRun.
func NewCmdMCP(f *cmdutil.Factory, runF func(*ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{Factory: f}
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

With --relay SOCKET it serves nothing itself: it copies the protocol
between its standard input and output and the Unix socket, where the
skillrepo process that started an agent's own program (a review or a
consolidation held by the program) serves that pass's tools.`,
		Example: `  skillrepo mcp --library ~/.claude/skills
  skillrepo mcp install --claude-code --scope user --library ~/.claude/skills`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !skillrepo.ValidOrigin(opts.Origin) {
				return cmdutil.UsageErrorf("--origin %q: want user, foreground, background-review, curator or import", opts.Origin)
			}
			if opts.Library != "" {
				// A project's .mcp.json names the library relative to
				// the project, whichever of its folders the agent runs in.
				wd, err := os.Getwd()
				if err != nil {
					return err
				}
				f.Dir = locate.ResolvePath(wd, opts.Library)
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return serveRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Library, "library", "", "library `directory` (default: -C, $SKILLREPO_LIBRARY, else the current directory)")
	fl.StringVar(&opts.Origin, "origin", skillrepo.OriginForeground, "Skill-Origin of the writes: foreground, user, background-review or curator (the last two get the autonomous guards)")
	fl.BoolVar(&opts.Propose, "propose", false, "land writes on a proposal branch that waits for approval")
	fl.BoolVar(&opts.AllowApprove, "allow-approve", false, "offer proposal_approve and proposal_reject")
	fl.StringVar(&opts.SessionID, "session-id", "", "Session-Id of writes whose client passes none in _meta (default: $CLAUDE_CODE_SESSION_ID, which Claude Code sets)")
	fl.DurationVar(&opts.Poll, "poll", time.Second, "how often to check for commits made by others (0 or less: never)")
	fl.StringVar(&opts.Relay, "relay", "", "copy the protocol to and from this Unix `socket` (an agent pass's tools, served by the skillrepo that started the agent)")
	cmd.AddCommand(NewCmdInstall(f, nil), NewCmdUninstall(f, nil))
	return cmd
}

func serveRun(opts *ServeOptions) error {
	f := opts.Factory
	if opts.Relay != "" {
		return relayMCP(opts.Ctx, opts.Relay, f.IO.In, f.IO.Out)
	}
	lib, err := f.Library()
	if err != nil {
		return err
	}
	poll := opts.Poll
	if poll <= 0 {
		poll = -1
	}
	// Claude Code starts its MCP servers with CLAUDE_CODE_SESSION_ID set
	// (and sends no session in a call's _meta): the writes of this server
	// are that session's.
	session := cmp.Or(opts.SessionID, f.Getenv("CLAUDE_CODE_SESSION_ID"))
	mopts := mcpserver.Options{
		Origin: opts.Origin, Propose: opts.Propose, AllowApprove: opts.AllowApprove,
		SessionID: session, Version: f.ToolVersion, Poll: poll,
		// Standard output is the protocol's; diagnostics go to stderr.
		Logger: slog.New(slog.NewTextHandler(f.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	srv, err := mcpserver.New(lib, mopts)
	if err != nil {
		return err
	}
	return srv.Serve(opts.Ctx, f.IO.In, f.IO.Out)
}

// relayMCP copies the protocol between in/out (the agent's stdio) and the
// Unix socket sock until either side ends: the agent's own program, run
// as a model backend, reaches the tools its pass serves in the skillrepo
// process that started it (package agentcli).
func relayMCP(ctx context.Context, sock string, in io.Reader, out io.Writer) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return fmt.Errorf("mcp relay: %w", err)
	}
	defer conn.Close()
	done := make(chan struct{}, 2)
	go func() {
		io.Copy(conn, in)
		if uc, ok := conn.(*net.UnixConn); ok {
			uc.CloseWrite() // the agent is done: let the server finish
		}
		done <- struct{}{}
	}()
	go func() {
		io.Copy(out, conn)
		done <- struct{}{}
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
	return nil
}
