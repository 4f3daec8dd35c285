package agentcli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/internal/modelcall"
)

// Claude Code headless (docs/agents.md, "The model backend"): -p reads the
// prompt from standard input and prints one JSON result; --resume ID
// --fork-session continues a copy of the finished session (the same
// conversation, so the provider's prompt cache still holds it) without
// touching the original; --tools "" offers no built-in tool (a review
// that reads the project: Read, Grep and Glob alone, see claudeSettings),
// and
// --strict-mcp-config with --mcp-config only our server, whose tools
// --allowedTools lets run without asking; --no-session-persistence writes
// no transcript of the fork; the settings turn every hook off for the run.
// A value that comes from outside (the session id, the model) is passed
// as --flag=value, never as the next argument: a value starting with "-"
// would otherwise be read as an option (--resume's value is optional).

// mcpServerName is our server's name in the programs' configuration; the
// tools are mcp__skillrepo__<tool> (Claude Code) and namespace
// mcp__skillrepo (Codex).
const mcpServerName = "skillrepo"

// noHooks are the settings of a run: no hook of the person's fires in it
// (ours would do nothing anyway, under EnvInReview).
const noHooks = `{"disableAllHooks":true}`

// claudeReadTools are Claude Code's read-only file tools, which a review
// that may read the project gets: no Bash, no Edit or Write, no web.
var claudeReadTools = []string{"Read", "Grep", "Glob"}

// claudeSettings are a run's settings: no hooks, and for a run that
// reads the project, reads refused outside its working folder (the
// project: the run starts there) and deny rules for what a review never
// reads, the same lists as our own project reads refuse (agenttools,
// project.go). A deny rule wins over every allow rule of the person's or
// the project's settings.
func claudeSettings(readProject bool) string {
	if !readProject {
		return noHooks
	}
	var deny []string
	for _, d := range agenttools.DeniedProjectDirs {
		deny = append(deny, "Read(**/"+d+"/**)")
	}
	for _, f := range agenttools.DeniedProjectFiles {
		deny = append(deny, "Read(**/"+f+")")
	}
	b, _ := json.Marshal(map[string]any{"disableAllHooks": true,
		"permissions": map[string]any{"blockReadsOutsideWorkingDirectories": true, "deny": deny}})
	return string(b)
}

// claudeMCPConfig is the --mcp-config of a run. alwaysLoad makes Claude
// Code wait for the server before its first request (it connects
// --mcp-config servers in the background otherwise, and the first turn
// would go out without our tools).
func claudeMCPConfig(command string, args []string) ([]byte, error) {
	return json.Marshal(map[string]any{"mcpServers": map[string]any{
		mcpServerName: map[string]any{"type": "stdio", "alwaysLoad": true, "command": command, "args": args, "env": map[string]string{EnvInReview: "1"}},
	}})
}

// claudeRunArgs are the arguments of a pass: forking session when it is
// set, else a fresh session (with system as its system prompt) given the
// conversation as text. With readProject the pass has Claude Code's
// read-only file tools too (claudeReadTools, under claudeSettings' deny
// rules); else no built-in tool.
func claudeRunArgs(session, model, system, mcpConfig string, tools []string, maxTurns int, readProject bool) []string {
	allowed := make([]string, len(tools))
	for i, t := range tools {
		allowed[i] = "mcp__" + mcpServerName + "__" + t
	}
	builtin := ""
	if readProject {
		builtin = strings.Join(claudeReadTools, ",")
		allowed = append(allowed, claudeReadTools...)
	}
	args := []string{"-p", "--output-format", "json", "--no-session-persistence",
		"--settings", claudeSettings(readProject), "--tools", builtin,
		"--strict-mcp-config", "--mcp-config", mcpConfig,
		"--allowedTools", strings.Join(allowed, ","),
	}
	if maxTurns > 0 {
		// One more than the cap: the cap's last turn may still call a
		// tool, whose refusal (from our server) needs the answer after.
		args = append(args, "--max-turns", strconv.Itoa(maxTurns+1))
	}
	if model != "" {
		args = append(args, "--model="+model)
	}
	if session != "" {
		// --resume takes an optional value: only the joined form keeps
		// an id from being read as the next option.
		args = append(args, "--resume="+session, "--fork-session")
	} else if system != "" {
		args = append(args, "--system-prompt="+system)
	}
	return args
}

// claudeAskArgs are the arguments of one question without tools (the goal
// judge).
func claudeAskArgs(model, system string) []string {
	args := []string{"-p", "--output-format", "json", "--no-session-persistence",
		"--settings", noHooks, "--tools", "", "--strict-mcp-config", "--max-turns", "1",
		"--system-prompt=" + system}
	if model != "" {
		args = append(args, "--model="+model)
	}
	return args
}

// claudeResult is Claude Code's -p --output-format json result.
type claudeResult struct {
	Type           string `json:"type"`
	Subtype        string `json:"subtype"`
	IsError        bool   `json:"is_error"`
	NumTurns       int    `json:"num_turns"`
	Result         string `json:"result"`
	APIErrorStatus *int   `json:"api_error_status"`
	Usage          struct {
		InputTokens         int `json:"input_tokens"`
		CacheCreationTokens int `json:"cache_creation_input_tokens"`
		CacheReadTokens     int `json:"cache_read_input_tokens"`
		OutputTokens        int `json:"output_tokens"`
	} `json:"usage"`
}

// parseClaude reads the run's result into an outcome. A run that printed
// no result is a failure naming what it said on standard error.
func parseClaude(out output) modelcall.Outcome {
	var res claudeResult
	found := false
	// The result is the last JSON object printed.
	lines := bytes.Split(bytes.TrimSpace(out.stdout), []byte("\n"))
	for i := len(lines) - 1; i >= 0 && !found; i-- {
		if json.Unmarshal(lines[i], &res) == nil && res.Type == "result" {
			found = true
		}
	}
	if !found {
		return failed(fmt.Sprintf("claude exited with status %d and no result", out.exit), out)
	}
	o := modelcall.Outcome{
		Calls:     res.NumTurns,
		TokensIn:  res.Usage.InputTokens + res.Usage.CacheCreationTokens + res.Usage.CacheReadTokens,
		TokensOut: res.Usage.OutputTokens,
	}
	switch {
	case res.Subtype == "error_max_turns":
		o.Status, o.Reason = modelcall.StatusCapped, fmt.Sprintf("stopped at the cap of model calls (claude: %d turns)", res.NumTurns)
	case res.IsError || res.Subtype != "success":
		o.Status, o.Reason = modelcall.StatusFailed, "model call failed: claude: "+cmp.Or(res.Result, res.Subtype, "an error")
		if res.APIErrorStatus != nil && *res.APIErrorStatus != 0 {
			o.Err = &modelcall.StatusError{Status: *res.APIErrorStatus, Msg: o.Reason}
		}
	default:
		o.Status, o.Final = modelcall.StatusCompleted, res.Result
	}
	return o
}

// failed is the outcome of a run that did not report how it went.
func failed(what string, out output) modelcall.Outcome {
	reason := what
	if t := tail(out.stderr); t != "" {
		reason += ": " + t
	}
	return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: reason}
}
