// Package agent names the agents skillrepo serves, the hook events it
// handles, the scopes of an install and the folders each agent keeps its
// files in (docs/architecture.md §1, docs/agents.md). It is a leaf: it
// imports nothing of ours, so every package may name an agent through it,
// and an agent's behaviour lives in its folder under agents/ (the
// registry, package agents, lists them).
package agent

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Name is an agent as skillrepo's commands name it (`skillrepo hooks run
// <name> <event>`, `lint --profile <name>`, a commit's Agent trailer).
type Name string

// The agents skillrepo serves. Their string values appear nowhere else
// outside agents/ (internal/archtest, TestAgentNamesLiveInTheirFolders).
const (
	ClaudeCode Name = "claude-code"
	Codex      Name = "codex"
	Gemini     Name = "gemini"
	Hermes     Name = "hermes"
	Copilot    Name = "copilot"
	OpenCode   Name = "opencode"
)

// labels are the agents' names as people write them.
var labels = map[Name]string{
	ClaudeCode: "Claude Code",
	Codex:      "Codex",
	Gemini:     "Gemini CLI",
	Hermes:     "Hermes Agent",
	Copilot:    "GitHub Copilot CLI",
	OpenCode:   "OpenCode",
}

// Label is the agent's name as people write it ("Gemini CLI"); an agent
// this package does not know is labelled by its name.
func (n Name) Label() string {
	if l, ok := labels[n]; ok {
		return l
	}
	return string(n)
}

// Scope is which settings file of an agent an install writes.
type Scope string

// Scopes: the user's settings (every project), the project's shared
// settings, or the project's personal settings (Claude Code only).
const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
	ScopeLocal   Scope = "local"
)

// Event names as Claude Code spells them; they are also the names the
// hook runner works with (ParseEvent maps another agent's names to them).
const (
	EventSessionStart        = "SessionStart"
	EventPostToolUse         = "PostToolUse"
	EventUserPromptExpansion = "UserPromptExpansion"
	EventStop                = "Stop"
	EventSessionEnd          = "SessionEnd"
	EventUserPromptSubmit    = "UserPromptSubmit"
)

// Gemini CLI's names for the events it shares with Claude Code: a tool
// ran, a prompt arrived, the agent finished its turn (AfterAgent can deny
// the stop, as Stop can block it).
const (
	GeminiAfterTool   = "AfterTool"
	GeminiBeforeAgent = "BeforeAgent"
	GeminiAfterAgent  = "AfterAgent"
)

// Hermes Agent's events skillrepo handles (docs/hermes.md §6).
const (
	HermesSessionStart    = "on_session_start"
	HermesPreLLMCall      = "pre_llm_call"
	HermesPostToolCall    = "post_tool_call"
	HermesSessionFinalize = "on_session_finalize"
)

// ParseEvent accepts an event name in any case, with or without dashes,
// in Claude Code's or Gemini CLI's spelling, and returns Claude Code's.
func ParseEvent(s string) (string, error) {
	k := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(s))
	for _, e := range []string{EventSessionStart, EventPostToolUse, EventUserPromptExpansion, EventUserPromptSubmit, EventStop, EventSessionEnd} {
		if strings.ToLower(e) == k {
			return e, nil
		}
	}
	switch k {
	case "aftertool":
		return EventPostToolUse, nil
	case "beforeagent":
		return EventUserPromptSubmit, nil
	case "afteragent":
		return EventStop, nil
	}
	return "", fmt.Errorf("unknown hook event %q: want SessionStart, PostToolUse, UserPromptExpansion, UserPromptSubmit, Stop or SessionEnd (Gemini CLI: AfterTool, BeforeAgent, AfterAgent)", s)
}

// The environment variables that move an agent's folder.
const (
	EnvClaudeConfigDir = "CLAUDE_CONFIG_DIR" // Claude Code's folder (else ~/.claude)
	EnvCodexHome       = "CODEX_HOME"        // Codex's folder (else ~/.codex)
	EnvGeminiCLIHome   = "GEMINI_CLI_HOME"   // the folder holding Gemini CLI's .gemini (else ~)
	EnvHermesHome      = "HERMES_HOME"       // Hermes Agent's folder (else ~/.hermes)
)

// Homes are the folders the agents keep their user files in, as each
// agent finds them: Claude Code's CLAUDE_CONFIG_DIR (else ~/.claude),
// Codex's CODEX_HOME (else ~/.codex), Gemini CLI's GEMINI_CLI_HOME/.gemini
// (else ~/.gemini), Hermes Agent's HERMES_HOME (else ~/.hermes).
//
// An agent added later resolves its own folder from Home and Getenv in
// its folder (agents/<name>), so adding one changes nothing here.
type Homes struct {
	Home         string
	ClaudeConfig string
	CodexHome    string
	GeminiDir    string
	HermesHome   string
	// Getenv is the environment the folders were resolved in (nil: none).
	Getenv func(string) string
}

// Dir is the folder an agent's environment variable names, else home's
// folder def (~/.copilot for COPILOT_HOME and ".copilot").
func (h Homes) Dir(variable, def string) string {
	if h.Getenv != nil {
		if v := h.Getenv(variable); v != "" {
			return v
		}
	}
	return filepath.Join(h.Home, def)
}

// HomesFrom resolves the agents' folders for a home folder and an
// environment (nil: the defaults under home).
func HomesFrom(home string, getenv func(string) string) Homes {
	h := Homes{
		Home:         home,
		ClaudeConfig: filepath.Join(home, ".claude"),
		CodexHome:    filepath.Join(home, ".codex"),
		GeminiDir:    filepath.Join(home, ".gemini"),
		HermesHome:   filepath.Join(home, ".hermes"),
		Getenv:       getenv,
	}
	if getenv == nil {
		return h
	}
	if v := getenv(EnvClaudeConfigDir); v != "" {
		h.ClaudeConfig = v
	}
	if v := getenv(EnvCodexHome); v != "" {
		h.CodexHome = v
	}
	if v := getenv(EnvGeminiCLIHome); v != "" {
		h.GeminiDir = filepath.Join(v, ".gemini")
	}
	if v := getenv(EnvHermesHome); v != "" {
		h.HermesHome = v
	}
	return h
}
