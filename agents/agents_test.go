package agents

import (
	"slices"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents/claudecode"
	"github.com/skillrepo/skillrepo/agents/codex"
	"github.com/skillrepo/skillrepo/agents/gemini"
	"github.com/skillrepo/skillrepo/agentsession"
	"github.com/skillrepo/skillrepo/hooks"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want agent.Name
	}{
		{"claude-code", agent.ClaudeCode}, {"Claude", agent.ClaudeCode}, {"claudecode", agent.ClaudeCode},
		{"codex", agent.Codex}, {"CODEX", agent.Codex},
		{"gemini", agent.Gemini}, {"gemini-cli", agent.Gemini},
		{"hermes", agent.Hermes}, {"hermes-agent", agent.Hermes},
		{"copilot", agent.Copilot}, {"github-copilot", agent.Copilot},
		{"opencode", agent.OpenCode}, {"OpenCode", agent.OpenCode},
		{"cursor", ""}, {"", ""},
	} {
		got, err := Parse(tc.in)
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("Parse(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := Parse("cursor"); err == nil || err.Error() != `unknown agent "cursor": want claude-code, codex, gemini, hermes, copilot or opencode` {
		t.Errorf("Parse(cursor) error = %v", err)
	}
}

// TestTable holds the registry's invariants: one line per agent, every
// spelling parses to its own agent only, and the agents whose hooks live
// in JSON settings (hooks.Target) are those `hooks install --<agent>` serves.
func TestTable(t *testing.T) {
	seen := map[string]agent.Name{}
	for _, e := range All() {
		for _, s := range append([]string{string(e.Name())}, e.Aliases()...) {
			if other, ok := seen[s]; ok {
				t.Errorf("%q names both %s and %s", s, other, e.Name())
			}
			seen[s] = e.Name()
			if got, err := Parse(s); err != nil || got != e.Name() {
				t.Errorf("Parse(%q) = %q, %v; want %s", s, got, err, e.Name())
			}
		}
		if sc := e.Scopes(); len(sc) == 0 || sc[0] != agent.ScopeUser {
			t.Errorf("%s: scopes %v do not start with the user's", e.Name(), sc)
		}
	}
	var got []agent.Name
	for _, t := range Implementing[hooks.Target]() {
		got = append(got, t.Name())
	}
	if want := []agent.Name{agent.ClaudeCode, agent.Codex, agent.Gemini, agent.Copilot}; !slices.Equal(got, want) {
		t.Errorf("the agents with hooks in JSON settings are %v, want %v", got, want)
	}
}

// The folders implement the interfaces of the packages that use them
// (a folder cannot say so itself for agentsession, whose tests use the
// folders).
var (
	_ agentsession.Agent = claudecode.Agent{}
	_ agentsession.Agent = codex.Agent{}
	_ agentsession.Agent = gemini.Agent{}
)
