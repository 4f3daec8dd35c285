package agent

import (
	"path/filepath"
	"reflect"
	"testing"
)

func TestHomesFrom(t *testing.T) {
	home := filepath.Join(string(filepath.Separator), "home", "ada")
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, tc := range []struct {
		name   string
		getenv func(string) string
		want   Homes
	}{
		{"defaults", nil, Homes{Home: home, ClaudeConfig: filepath.Join(home, ".claude"), CodexHome: filepath.Join(home, ".codex"),
			GeminiDir: filepath.Join(home, ".gemini"), HermesHome: filepath.Join(home, ".hermes")}},
		{"empty variables keep the defaults", env(map[string]string{EnvCodexHome: ""}), Homes{Home: home, ClaudeConfig: filepath.Join(home, ".claude"),
			CodexHome: filepath.Join(home, ".codex"), GeminiDir: filepath.Join(home, ".gemini"), HermesHome: filepath.Join(home, ".hermes")}},
		{"each variable moves its agent's folder", env(map[string]string{EnvClaudeConfigDir: "/c", EnvCodexHome: "/x", EnvGeminiCLIHome: "/g", EnvHermesHome: "/h"}),
			// GEMINI_CLI_HOME holds Gemini CLI's .gemini, the others are the folder itself.
			Homes{Home: home, ClaudeConfig: "/c", CodexHome: "/x", GeminiDir: filepath.Join("/g", ".gemini"), HermesHome: "/h"}},
	} {
		got := HomesFrom(home, tc.getenv)
		got.Getenv = nil
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: HomesFrom = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestHomesDir(t *testing.T) {
	home := filepath.Join(string(filepath.Separator), "home", "ada")
	if got := HomesFrom(home, nil).Dir("COPILOT_HOME", ".copilot"); got != filepath.Join(home, ".copilot") {
		t.Errorf("Dir without the variable = %s", got)
	}
	env := func(k string) string { return map[string]string{"COPILOT_HOME": "/x"}[k] }
	if got := HomesFrom(home, env).Dir("COPILOT_HOME", ".copilot"); got != "/x" {
		t.Errorf("Dir with the variable = %s", got)
	}
}

func TestParseEvent(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SessionStart", EventSessionStart},
		{"session-start", EventSessionStart},
		{"post_tool_use", EventPostToolUse},
		{"userpromptexpansion", EventUserPromptExpansion},
		{"USERPROMPTSUBMIT", EventUserPromptSubmit},
		{"Stop", EventStop},
		{"SessionEnd", EventSessionEnd},
		{GeminiAfterTool, EventPostToolUse},
		{GeminiBeforeAgent, EventUserPromptSubmit},
		{GeminiAfterAgent, EventStop},
		{"PreToolUse", ""},
		{"", ""},
	} {
		got, err := ParseEvent(tc.in)
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("ParseEvent(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		n    Name
		want string
	}{{ClaudeCode, "Claude Code"}, {Codex, "Codex"}, {Gemini, "Gemini CLI"}, {Hermes, "Hermes Agent"}, {"cursor", "cursor"}} {
		if got := tc.n.Label(); got != tc.want {
			t.Errorf("%s.Label() = %q, want %q", tc.n, got, tc.want)
		}
	}
}
