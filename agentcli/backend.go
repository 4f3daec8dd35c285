package agentcli

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/internal/agentid"
	"github.com/skillrepo/skillrepo/internal/modelcall"
)

// Backend is the agent's own program as a [modelcall.Backend]: it runs a
// pass (a review, a consolidation) under the session's model, provider
// and credentials. With Task.Resume it forks that session headless, so the
// model sees the real conversation (and its provider's prompt cache still
// holds it) and gets only the prompt; else it starts a fresh session
// given the conversation as text.
//
// The tools run here, in the calling process: Run serves the task's tools
// on a Unix socket (Serve: an MCP server whose calls go to
// Task.Dispatch), and the program's only MCP server is `skillrepo mcp
// --relay SOCKET`, which copies bytes between the program and that
// socket. So a pass held by the program runs its tools through the very
// code, state and guards the in-process loop uses, and lands the same
// commits for the same calls.
type Backend struct {
	Program
	// Serve serves tools on a listener until ctx ends: an MCP server of
	// the pass (cmd/skillrepo hands in package mcpserver's), each call
	// run by call, one at a time.
	Serve ServeFunc
}

// ServeFunc serves tools over MCP on ln until ctx ends; call runs one
// tool call and returns the text for the model and whether it failed.
type ServeFunc func(ctx context.Context, ln net.Listener, tools []agenttools.Definition, instructions string,
	call func(ctx context.Context, name, args string) (string, bool)) error

// capMessage answers a call past the task's cap.
const capMessage = `{"success":false,"error":"The cap of tool calls for this run is reached; nothing more can be read or written. Give your final answer now, in one short paragraph, without calling a tool."}`

// Run holds the task's conversation through the program.
func (b Backend) Run(ctx context.Context, t modelcall.Task) modelcall.Outcome {
	if err := b.Check(); err != nil {
		return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: err.Error()}
	}
	if b.Agent != Gemini {
		// Claude Code, Codex and OpenCode take the session to fork by its
		// id, on their command line (Gemini CLI's Resume is a file we copy).
		if err := agentid.Check("the session id to fork", t.Resume); err != nil {
			return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "refused: " + err.Error()}
		}
	}
	if b.Serve == nil {
		return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "agentcli: no MCP server to serve the tools"}
	}
	// A short folder of the caller's own (0700): a Unix socket's path is
	// limited to about 100 bytes.
	tmp, err := os.MkdirTemp(b.TempDir, "skillrepo-")
	if err != nil {
		return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "agent run files: " + err.Error()}
	}
	defer os.RemoveAll(tmp)
	sock := filepath.Join(tmp, "mcp.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "agent run socket: " + err.Error()}
	}
	tools := toolDefinitions(t.Request.Tools)
	names := make([]string, len(tools))
	for i, d := range tools {
		names[i] = d.Name
	}
	var mu sync.Mutex
	calls, capped := 0, false
	call := func(ctx context.Context, name, args string) (string, bool) {
		mu.Lock()
		defer mu.Unlock()
		// The program's turns are its own; the cap is held in tool calls,
		// one for each model call it allows (what the prompts ask: one
		// call a turn).
		if t.MaxCalls > 0 && calls >= t.MaxCalls {
			capped = true
			return capMessage, true
		}
		calls++
		text := t.Dispatch(ctx, openai.ToolCall{ID: fmt.Sprintf("mcp-%d", calls), Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: name, Arguments: args}})
		return text, failure(text)
	}
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	served := make(chan struct{})
	go func() {
		defer close(served)
		b.Serve(sctx, ln, tools, "These tools belong to the task in the last message; use them as it asks. Each write is a git commit; guards refuse what the task may not do, saying why.", call)
	}()
	defer func() { stop(); <-served }()

	relay := []string{"mcp", "--relay", sock}
	prompt := t.Prompt
	if t.Resume == "" {
		prompt = t.Text
	}
	var args []string
	switch b.Agent {
	case ClaudeCode:
		cfg, err := claudeMCPConfig(b.Self, relay)
		if err == nil {
			err = os.WriteFile(filepath.Join(tmp, "mcp.json"), cfg, 0o600)
		}
		if err != nil {
			return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "agent run files: " + err.Error()}
		}
		system := ""
		if t.Resume == "" {
			system = t.System
		}
		args = claudeRunArgs(t.Resume, b.Model, system, filepath.Join(tmp, "mcp.json"), names, t.MaxCalls, b.ReadProject)
	case Codex:
		if t.Resume == "" && t.System != "" {
			// Codex takes no system prompt on its command line.
			prompt = t.System + "\n\n" + prompt
		}
		args = codexRunArgs(t.Resume, b.Model, b.Provider, b.Self, relay, codexOwnServers(b.Env))
	case Gemini:
		// Gemini CLI continues a session from its file: Resume is the
		// session file's path.
		var env []string
		args, env, b.Dir, err = geminiRun(tmp, geminiDir(b.Env), b.Self, relay, names, b.Model, t.Resume, t.System)
		if err != nil {
			return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "agent run files: " + err.Error()}
		}
		b.Env = append(slices.Clone(b.Env), env...)
	case OpenCode:
		system := ""
		if t.Resume == "" {
			system = t.System
		}
		cfg, err := opencodeConfig(b.Self, relay, names, system)
		if err != nil {
			return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "agent run files: " + err.Error()}
		}
		args = opencodeArgs(t.Resume, b.Model)
		b.Env = append(slices.Clone(b.Env), "OPENCODE_CONFIG_CONTENT="+string(cfg))
	case Copilot:
		// No fork: a fresh pass, the instructions leading the
		// conversation as text.
		cfg, err := copilotMCPConfig(b.Self, relay)
		if err != nil {
			return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "agent run files: " + err.Error()}
		}
		prompt = strings.TrimSpace(t.System + "\n\n" + t.Text)
		args = copilotArgs(b.Model, cfg)
	}
	out, err := b.run(ctx, args, prompt)
	if b.Agent == OpenCode {
		b.opencodeForget(ctx, out)
	}
	if err == nil && b.Agent == Codex && t.Resume != "" && noFork(out) {
		out, err = b.run(ctx, codexResumeArgs(t.Resume, b.Model, b.Provider, b.Self, relay, codexOwnServers(b.Env)), prompt)
	}
	var o modelcall.Outcome
	switch {
	case err != nil && ctx.Err() != nil:
		o = modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "interrupted: " + err.Error()}
	case err != nil:
		o = failed(err.Error(), out)
	case b.Agent == ClaudeCode:
		o = parseClaude(out)
	case b.Agent == Gemini:
		o = parseGemini(out)
	case b.Agent == OpenCode:
		o = parseOpenCode(out)
	case b.Agent == Copilot:
		o = parseCopilot(out)
	default:
		o = parseCodex(out)
	}
	mu.Lock()
	defer mu.Unlock()
	if capped && o.Status == modelcall.StatusCompleted {
		o.Status, o.Reason = modelcall.StatusCapped, fmt.Sprintf("stopped at the cap of %d tool calls", t.MaxCalls)
	}
	return o
}

// failure reports whether a tool result is a refusal or an error (our
// tools answer a JSON object with "success").
func failure(text string) bool {
	var r struct {
		Success *bool `json:"success"`
	}
	return json.Unmarshal([]byte(text), &r) == nil && r.Success != nil && !*r.Success
}

// toolDefinitions are the request's tools as the MCP server offers them.
func toolDefinitions(tools []openai.Tool) []agenttools.Definition {
	var out []agenttools.Definition
	for _, t := range tools {
		if t.Function == nil {
			continue
		}
		params, err := json.Marshal(t.Function.Parameters)
		if err != nil || string(params) == "null" {
			params = []byte(`{"type":"object"}`)
		}
		out = append(out, agenttools.Definition{Name: t.Function.Name, Description: t.Function.Description, Parameters: params})
	}
	return out
}
