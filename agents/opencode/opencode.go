// Package opencode is OpenCode in skillrepo: everything that is
// particular to it, behind the small interfaces of the packages that use
// it (hooks.FileTarget, agentsession.Agent, doctor.Checker); the
// registry, package agents, lists it (docs/agents.md, "OpenCode").
//
// OpenCode reads skills (SKILL.md) from its own skills folders
// (~/.config/opencode/skills, a project's .opencode/skills) and from
// ~/.claude/skills and ~/.agents/skills. It has no command hooks: its
// plugins are JavaScript modules it loads from ~/.config/opencode/plugins
// and a project's .opencode/plugins, each a function returning event
// handlers. skillrepo's hooks are such a module (skillrepo.js, embedded
// here), which turns OpenCode's events into the hook events `skillrepo
// hooks run opencode <event>` reads, in Claude Code's snake_case shape.
package opencode

import (
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
)

// Name is OpenCode's name in skillrepo's commands
// (`skillrepo hooks install --opencode`).
const Name = agent.OpenCode

// Agent is OpenCode.
type Agent struct{}

// Name is the agent's name in skillrepo's commands.
func (Agent) Name() agent.Name { return Name }

// Aliases are the other spellings a command accepts.
func (Agent) Aliases() []string { return []string{"open-code", "opencode-ai"} }

// Scopes: the user's plugins folder, or the project's .opencode/plugins.
func (Agent) Scopes() []agent.Scope { return scopes }

var scopes = []agent.Scope{agent.ScopeUser, agent.ScopeProject}

// configDir is OpenCode's user folder: $XDG_CONFIG_HOME/opencode, else
// ~/.config/opencode.
func configDir(h agent.Homes) string {
	if h.Getenv != nil {
		if x := h.Getenv("XDG_CONFIG_HOME"); x != "" {
			return filepath.Join(x, "opencode")
		}
	}
	return filepath.Join(h.Home, ".config", "opencode")
}
