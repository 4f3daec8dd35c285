// Package agents is the registry of the agents skillrepo serves: one
// table, one line per agent (docs/architecture.md §1). Commands list,
// parse and dispatch agents through it; adding an agent is its folder
// under agents/ and its line here.
package agents

import (
	"fmt"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
)

// Entry is one agent of the registry.
type Entry struct {
	Name agent.Name
	// Aliases are the other spellings a command accepts for it.
	Aliases []string
	// SettingsHooks says skillrepo installs its hooks in the agent's JSON
	// settings (`hooks install --agent`); Hermes Agent's are installed in
	// its config.yaml by `hooks install --hermes`.
	SettingsHooks bool
}

// table is the registry, in the order commands list the agents.
var table = []Entry{
	{Name: agent.ClaudeCode, Aliases: []string{"claude", "claudecode"}, SettingsHooks: true},
	{Name: agent.Codex, SettingsHooks: true},
	{Name: agent.Gemini, Aliases: []string{"gemini-cli", "geminicli"}, SettingsHooks: true},
	{Name: agent.Hermes, Aliases: []string{"hermes-agent"}},
}

// All lists the registry's agents in order.
func All() []Entry { return append([]Entry(nil), table...) }

// WithSettingsHooks lists the agents whose hooks live in JSON settings
// files, in order.
func WithSettingsHooks() []agent.Name {
	var out []agent.Name
	for _, e := range table {
		if e.SettingsHooks {
			out = append(out, e.Name)
		}
	}
	return out
}

// Parse accepts an agent's name or one of its aliases, in any case.
func Parse(s string) (agent.Name, error) {
	k := strings.ToLower(s)
	names := make([]string, 0, len(table))
	for _, e := range table {
		if k == string(e.Name) {
			return e.Name, nil
		}
		for _, a := range e.Aliases {
			if k == a {
				return e.Name, nil
			}
		}
		names = append(names, string(e.Name))
	}
	return "", fmt.Errorf("unknown agent %q: want %s or %s", s, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}
