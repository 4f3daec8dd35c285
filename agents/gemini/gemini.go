// Package gemini is Gemini CLI in skillrepo: everything that is particular to
// it, behind the small interfaces of the packages that use it (doctor's
// Checker, …); the registry, package agents, lists it (docs/agents.md).
package gemini

import "github.com/skillrepo/skillrepo/agent"

// Agent is Gemini CLI.
type Agent struct{}

// Name is the agent's name in skillrepo's commands.
func (Agent) Name() agent.Name { return agent.Gemini }

// Aliases are the other spellings a command accepts.
func (Agent) Aliases() []string { return []string{"gemini-cli", "geminicli"} }

// Scopes are the settings files an install may write.
func (Agent) Scopes() []agent.Scope { return scopes }

var scopes = []agent.Scope{agent.ScopeUser, agent.ScopeProject}
