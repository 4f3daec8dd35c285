package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillrepo/skillrepo/agenttools"
)

// A session server serves one agent pass (Options.Session) to an agent's
// own program: the pass's tools, each call run by the pass's own Call in
// the serving process, so a review or a consolidation held by the program
// runs its tools exactly as the in-process loop does.

// NewSession makes a server of one pass, with no library behind it: the
// pass's Call reaches the library.
func NewSession(sess *Session, version string) (*Server, error) {
	if sess == nil || sess.Call == nil {
		return nil, errors.New("mcp session: no tools")
	}
	return newSessionServer(&Server{opts: Options{Session: sess, Version: version}, log: discardLogger()})
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newSessionServer(s *Server) (*Server, error) {
	sess := s.opts.Session
	if sess.Call == nil {
		return nil, errors.New("mcp session: no tools")
	}
	if s.opts.Version == "" {
		s.opts.Version = "dev"
	}
	s.server = mcp.NewServer(&mcp.Implementation{Name: "skillrepo", Title: "skillrepo skills library", Version: s.opts.Version}, &mcp.ServerOptions{
		Instructions: sess.Instructions,
		Logger:       s.log,
		Capabilities: &mcp.ServerCapabilities{},
	})
	for _, d := range sess.Tools {
		readOnly := d.Name != agenttools.SkillManage && d.Name != agenttools.Memory && d.Name != "skill_move_file"
		name := d.Name
		s.server.AddTool(&mcp.Tool{
			Name: d.Name, Description: d.Description, InputSchema: d.Parameters,
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: readOnly, DestructiveHint: ptr(!readOnly), IdempotentHint: readOnly, OpenWorldHint: ptr(false)},
		}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args string
			if req.Params != nil {
				args = string(req.Params.Arguments)
			}
			// One call at a time: the pass's tools are not safe for
			// concurrent use.
			s.mu.Lock()
			defer s.mu.Unlock()
			text, isErr := sess.Call(ctx, name, args)
			return textResult(text, isErr), nil
		})
	}
	return s, nil
}

// ServeListener serves every connection ln accepts (a program may connect
// more than once: Claude Code probes, then reconnects) until ctx ends or
// ln is closed; it then waits for the connections it serves.
func (s *Server) ServeListener(ctx context.Context, ln net.Listener) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("mcp session: accept: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close()
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			go func() {
				<-cctx.Done()
				conn.Close()
			}()
			if err := s.Serve(cctx, conn, conn); err != nil {
				s.log.Warn("mcp session connection", "error", err)
			}
		}()
	}
}

// ServeSession serves one pass's tools on ln until ctx ends: the server
// an agent's own program reaches through `skillrepo mcp --relay`.
func ServeSession(ctx context.Context, ln net.Listener, tools []agenttools.Definition, instructions string,
	call func(ctx context.Context, name, args string) (string, bool)) error {
	srv, err := NewSession(&Session{Tools: tools, Instructions: instructions, Call: call}, "skillrepo")
	if err != nil {
		ln.Close()
		return err
	}
	return srv.ServeListener(ctx, ln)
}
