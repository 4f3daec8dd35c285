package agentcli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"os"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/jsonedit"
	"github.com/skillrepo/skillrepo/internal/modelcall"
)

// Gemini CLI headless (docs/agents.md, "The model backend"): the prompt on
// standard input, --output-format json prints one result object. A run
// has a Gemini home of its own (GEMINI_CLI_HOME): the person's sign-in
// files are linked into it, and its settings.json is theirs with ours on
// top: only our MCP server, trusted so its calls need no approval; no
// hooks; no built-in tool (tools.core is an allowlist of tools by name,
// MCP tools included as mcp_<server>_<tool>: it names ours and no
// built-in one). Gemini CLI accepts
// no per-run settings file of a person's (its system settings file must
// belong to root), and this way the session a run imports and writes
// stays out of the person's history. A pass that continues a session
// loads a copy of its session file (--session-file imports it as a new
// session of the run's home); a fresh pass gets the task's system prompt
// through GEMINI_SYSTEM_MD. The run starts in its own folder, so no
// project's .gemini/settings.json (nor its hooks) applies; --skip-trust
// lets it start there.

// Gemini is the agent name of Gemini CLI.
const Gemini = string(agent.Gemini)

// geminiNoTool is a tool name that names none: tools.core is an
// allowlist, and an empty one means "all".
const geminiNoTool = "skillrepo-no-builtin-tool"

// Bounds on what the backend reads of the person's Gemini CLI folder: the
// settings it merges, and a session it copies to continue (the bound a
// review sets on any transcript, docs/agents.md).
const (
	maxGeminiSettings = 4 << 20
	maxGeminiSession  = 32 << 20
)

// geminiToolName is an MCP tool's name in Gemini CLI.
func geminiToolName(tool string) string { return "mcp_" + mcpServerName + "_" + tool }

// geminiSettings are a run's settings: the person's (sign-in, model
// options) with ours on top.
func geminiSettings(personal []byte, self string, relay, tools []string) ([]byte, error) {
	settings := map[string]any{}
	if std, err := jsonedit.Standard(personal); err == nil {
		_ = json.Unmarshal(std, &settings)
	}
	if settings == nil {
		settings = map[string]any{}
	}
	delete(settings, "hooks")
	settings["hooksConfig"] = map[string]any{"enabled": false}
	toolSettings, _ := settings["tools"].(map[string]any)
	if toolSettings == nil {
		toolSettings = map[string]any{}
	}
	core := []string{geminiNoTool}
	for _, t := range tools {
		core = append(core, geminiToolName(t))
	}
	toolSettings["core"] = core
	settings["tools"] = toolSettings
	servers := map[string]any{}
	if self != "" {
		servers[mcpServerName] = map[string]any{"command": self, "args": relay, "trust": true, "env": map[string]string{EnvInReview: "1"}}
	}
	settings["mcpServers"] = servers
	return json.Marshal(settings)
}

// geminiArgs are a run's arguments.
func geminiArgs(model, sessionFile string, withTools bool) []string {
	args := []string{"--output-format", "json", "--skip-trust"}
	if withTools {
		args = append(args, "--allowed-mcp-server-names", mcpServerName)
	} else {
		args = append(args, "--allowed-mcp-server-names", geminiNoTool)
	}
	if model != "" {
		args = append(args, "--model="+model)
	}
	if sessionFile != "" {
		args = append(args, "--session-file="+sessionFile)
	}
	return args
}

// geminiRun prepares a run's files in dir (a Gemini home, the copy of the
// session file to import, the system prompt of a fresh pass) from the
// person's Gemini folder userDir. It returns the run's arguments, the
// environment to add and the folder to run in.
func geminiRun(dir, userDir, self string, relay, tools []string, model, session, system string) ([]string, []string, string, error) {
	home := filepath.Join(dir, "home")
	gdir := filepath.Join(home, ".gemini")
	work := filepath.Join(dir, "work")
	for _, d := range []string{gdir, work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, nil, "", err
		}
	}
	// The person's sign-in and identity files, linked; their settings,
	// copied with ours on top; their sessions and history, left out.
	entries, _ := os.ReadDir(userDir)
	for _, e := range entries {
		switch e.Name() {
		case "settings.json", "tmp", "history", "trustedFolders.json", "trusted_hooks.json", "skills", "extensions":
			continue
		}
		if err := os.Symlink(filepath.Join(userDir, e.Name()), filepath.Join(gdir, e.Name())); err != nil {
			return nil, nil, "", err
		}
	}
	personal, _ := boundedread.ReadFile(filepath.Join(userDir, "settings.json"), maxGeminiSettings)
	settings, err := geminiSettings(personal, self, relay, tools)
	if err != nil {
		return nil, nil, "", err
	}
	if err := os.WriteFile(filepath.Join(gdir, "settings.json"), settings, 0o600); err != nil {
		return nil, nil, "", err
	}
	env := []string{"GEMINI_CLI_HOME=" + home}
	copyPath := ""
	if session != "" {
		data, err := boundedread.ReadFile(session, maxGeminiSession)
		if err != nil {
			return nil, nil, "", fmt.Errorf("the session to continue: %w", err)
		}
		copyPath = filepath.Join(dir, "session.jsonl")
		if err := os.WriteFile(copyPath, data, 0o600); err != nil {
			return nil, nil, "", err
		}
	} else if system != "" {
		mp := filepath.Join(dir, "system.md")
		if err := os.WriteFile(mp, []byte(system), 0o600); err != nil {
			return nil, nil, "", err
		}
		env = append(env, "GEMINI_SYSTEM_MD="+mp)
	}
	return geminiArgs(model, copyPath, self != ""), env, work, nil
}

// geminiResult is Gemini CLI's --output-format json result.
type geminiResult struct {
	SessionID string `json:"session_id"`
	Response  string `json:"response"`
	Stats     struct {
		Models map[string]struct {
			API struct {
				TotalRequests int `json:"totalRequests"`
				TotalErrors   int `json:"totalErrors"`
			} `json:"api"`
			Tokens struct {
				Prompt     int `json:"prompt"`
				Candidates int `json:"candidates"`
				Input      int `json:"input"`
			} `json:"tokens"`
		} `json:"models"`
		Tools struct {
			TotalCalls int `json:"totalCalls"`
		} `json:"tools"`
	} `json:"stats"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Code    any    `json:"code"`
	} `json:"error"`
}

// parseGemini reads the run's result object (the last JSON object on
// standard output) into an outcome.
func parseGemini(out output) modelcall.Outcome {
	var r geminiResult
	data := bytes.TrimSpace(out.stdout)
	if i := bytes.IndexByte(data, '{'); i > 0 {
		data = data[i:]
	}
	if len(data) == 0 || json.Unmarshal(data, &r) != nil {
		return failed(fmt.Sprintf("gemini exited with status %d without a result", out.exit), out)
	}
	var o modelcall.Outcome
	for _, m := range r.Stats.Models {
		o.Calls += m.API.TotalRequests
		o.TokensIn += cmp.Or(m.Tokens.Input, m.Tokens.Prompt)
		o.TokensOut += m.Tokens.Candidates
	}
	if r.Error != nil {
		o.Status, o.Reason = modelcall.StatusFailed, "model call failed: gemini: "+r.Error.Message
		if m := statusRE().FindStringSubmatch(r.Error.Message); m != nil {
			var n int
			fmt.Sscan(m[1], &n)
			o.Err = &modelcall.StatusError{Status: n, Msg: o.Reason}
		} else if code, ok := r.Error.Code.(float64); ok && code >= 400 {
			o.Err = &modelcall.StatusError{Status: int(code), Msg: o.Reason}
		}
		return o
	}
	if out.exit != 0 {
		return failed(fmt.Sprintf("gemini exited with status %d", out.exit), out)
	}
	o.Status, o.Final = modelcall.StatusCompleted, r.Response
	return o
}
