package agentcli

import (
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/modelcall"
)

// GitHub Copilot CLI headless (docs/agents.md, "The model backend"):
// `copilot -s --output-format json` reads the prompt on standard input
// and prints its events as JSON lines. It cannot fork a session (--resume
// would add the review to the person's session), so every pass is fresh:
// the conversation as text, the task's instructions leading it.
// --available-tools names the only tools the model sees: our MCP server's
// (added with --additional-mcp-config, its tools named skillrepo-<tool>),
// none of Copilot CLI's own, and --allow-tool lets them run unasked; the
// built-in MCP servers and custom instructions are off.

// Copilot is the agent name of GitHub Copilot CLI.
const Copilot = string(agent.Copilot)

// copilotNoTool is a tool name that names none: --available-tools is an
// allowlist, and without it every tool is available.
const copilotNoTool = "skillrepo-no-tool"

// copilotArgs are a run's arguments: with our server's configuration
// (mcp, "" for none) its tools alone, else no tool at all.
func copilotArgs(model string, mcp []byte) []string {
	args := []string{"-s", "--output-format", "json", "--disable-builtin-mcps", "--no-custom-instructions"}
	if len(mcp) > 0 {
		args = append(args, "--additional-mcp-config="+string(mcp), "--available-tools="+mcpServerName, "--allow-tool="+mcpServerName)
	} else {
		args = append(args, "--available-tools="+copilotNoTool)
	}
	if model != "" {
		args = append(args, "--model="+model)
	}
	return args
}

// copilotMCPConfig is our relay as Copilot CLI's MCP server.
func copilotMCPConfig(self string, relay []string) ([]byte, error) {
	return json.Marshal(map[string]any{"mcpServers": map[string]any{mcpServerName: map[string]any{
		"type": "local", "command": self, "args": relay, "tools": []string{"*"},
		"env": map[string]string{EnvInReview: "1"},
	}}})
}

// copilotEvent is one line of `copilot --output-format json`.
type copilotEvent struct {
	Type string `json:"type"`
	Data struct {
		Content string `json:"content"`
		Message string `json:"message"`
	} `json:"data"`
	ExitCode *int `json:"exitCode"`
}

// parseCopilot reads the run's events into an outcome: the last
// assistant message with text is the answer, each tool run a call.
// Copilot CLI reports no token counts of a provider's own.
func parseCopilot(out output) modelcall.Outcome {
	var o modelcall.Outcome
	var failure string
	result := false
	for ev := range jsonLines[copilotEvent](out.stdout) {
		switch ev.Type {
		case "assistant.message":
			if ev.Data.Content != "" {
				o.Final = ev.Data.Content
			}
		case "tool.execution_start":
			o.Calls++
		case "session.error":
			failure = cmp.Or(ev.Data.Message, "the session failed")
		case "result":
			result = true
		}
	}
	switch {
	case failure != "":
		return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "model call failed: copilot: " + failure, Calls: o.Calls}
	case out.exit != 0:
		return failed(fmt.Sprintf("copilot exited with status %d", out.exit), out)
	case !result:
		return failed("copilot printed no result", out)
	}
	o.Status = modelcall.StatusCompleted
	return o
}
