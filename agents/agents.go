// Package agents is the registry of the agents skillrepo serves: one
// table, one line per agent, each line an agent's folder (agents/<name>;
// docs/architecture.md §1). Commands list, parse and dispatch agents
// through it: what a package needs of an agent is a small interface
// defined in that package (hooks.Target, doctor.Checker,
// agentsession.Agent, …), which the folder's Agent
// implements, and [Implementing] finds. Adding an agent is its folder and
// its line here.
package agents

import (
	"fmt"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents/claudecode"
	"github.com/skillrepo/skillrepo/agents/codex"
	"github.com/skillrepo/skillrepo/agents/copilot"
	"github.com/skillrepo/skillrepo/agents/gemini"
	"github.com/skillrepo/skillrepo/agents/hermes"
	"github.com/skillrepo/skillrepo/agents/opencode"
)

// Agent is what every agent's folder provides.
type Agent interface {
	Name() agent.Name
	// Aliases are the other spellings a command accepts for it.
	Aliases() []string
	// Scopes are the settings files an install may write, user first.
	Scopes() []agent.Scope
}

// table is the registry, in the order commands list the agents.
var table = []Agent{
	claudecode.Agent{},
	codex.Agent{},
	gemini.Agent{},
	hermes.Agent{},
	copilot.Agent{},
	opencode.Agent{},
}

// All lists the registry's agents in order.
func All() []Agent { return append([]Agent(nil), table...) }

// Implementing lists the agents that implement T (an interface of the
// package that uses them, doctor.Checker for one), in order.
func Implementing[T any]() []T {
	var out []T
	for _, a := range table {
		if t, ok := a.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

// Find is the agent named n as a T (an interface of the package that uses
// it); false when there is no such agent or it does not implement T.
func Find[T any](n agent.Name) (T, bool) {
	for _, a := range table {
		if a.Name() == n {
			t, ok := a.(T)
			return t, ok
		}
	}
	var zero T
	return zero, false
}

// Parse accepts an agent's name or one of its aliases, in any case.
func Parse(s string) (agent.Name, error) {
	k := strings.ToLower(s)
	names := make([]string, 0, len(table))
	for _, a := range table {
		if k == string(a.Name()) {
			return a.Name(), nil
		}
		for _, al := range a.Aliases() {
			if k == al {
				return a.Name(), nil
			}
		}
		names = append(names, string(a.Name()))
	}
	return "", fmt.Errorf("unknown agent %q: want %s or %s", s, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}
