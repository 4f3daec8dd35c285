package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillrepo/skillrepo/agenttools"
)

// A session server serves one autonomous run (Options.Session): the
// background review when an agent's own program holds the conversation
// and calls our tools over MCP. Everything the in-process run enforces is
// the toolbox's, so the two land the same commits for the same calls; the
// server adds only the cap, counted in tool calls because it never sees
// the model's turns.

func (s *Server) newSessionServer() (*Server, error) {
	sess := s.opts.Session
	if sess.Toolbox == nil {
		return nil, fmt.Errorf("mcp session: no toolbox")
	}
	s.server = mcp.NewServer(&mcp.Implementation{Name: "skillrepo", Title: "skillrepo skills library", Version: s.opts.Version}, &mcp.ServerOptions{
		Instructions: sess.Instructions,
		Logger:       s.log,
		Capabilities: &mcp.ServerCapabilities{},
	})
	defs, err := agenttools.Definitions(sess.Toolbox.Tools())
	if err != nil {
		return nil, err
	}
	for _, d := range defs {
		readOnly := d.Name != agenttools.SkillManage && d.Name != agenttools.Memory
		name := d.Name
		s.server.AddTool(&mcp.Tool{
			Name: d.Name, Description: d.Description, InputSchema: d.Parameters,
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: readOnly, DestructiveHint: ptr(!readOnly), IdempotentHint: readOnly, OpenWorldHint: ptr(false)},
		}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return s.sessionCall(ctx, req, name), nil
		})
	}
	return s, nil
}

// capMessage is the refusal once the run's calls are spent.
const capMessage = "The cap of tool calls for this run is reached; nothing more can be read or written. Give your final answer now, in one short paragraph, without calling a tool."

func (s *Server) sessionCall(ctx context.Context, req *mcp.CallToolRequest, name string) *mcp.CallToolResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.opts.Session
	tb := sess.Toolbox
	if sess.CapReached != nil && sess.CapReached(tb.Record().Calls) {
		sess.capped = true
		if sess.Report != nil {
			sess.Report(tb.Record(), true)
		}
		data, _ := json.Marshal(map[string]any{"success": false, "error": capMessage})
		return textResult(string(data), true)
	}
	var args string
	if req.Params != nil {
		args = string(req.Params.Arguments)
	}
	r := tb.Call(ctx, name, args)
	if sess.Report != nil {
		sess.Report(tb.Record(), sess.capped)
	}
	return textResult(r.Text, !r.OK)
}
