// Package copilot is GitHub Copilot CLI in skillrepo: everything that is
// particular to it, behind the small interfaces of the packages that use
// it (hooks.Target, agentsession.Agent, doctor.Checker); the registry,
// package agents, lists it (docs/agents.md, "GitHub Copilot CLI").
//
// Copilot CLI reads skills (SKILL.md) from ~/.copilot/skills,
// ~/.claude/skills and ~/.agents/skills, and in a repository from
// .github/skills, .claude/skills and .agents/skills. It runs the command
// hooks of every .github/hooks/*.json of the repository it works in and
// of its user folder's hooks/ ($COPILOT_HOME, else ~/.copilot). A hook
// configured under an event's PascalCase name (SessionStart, PostToolUse,
// Stop, …) is given the event as snake_case JSON, the shape Claude Code's
// hooks get, so skillrepo's hook runner reads it as it reads theirs.
package copilot

import "github.com/skillrepo/skillrepo/agent"

// Name is Copilot CLI's name in skillrepo's commands
// (`skillrepo hooks install --copilot`).
const Name = agent.Copilot

// envHome moves Copilot CLI's folder (else ~/.copilot).
const envHome = "COPILOT_HOME"

// Agent is GitHub Copilot CLI.
type Agent struct{}

// Name is the agent's name in skillrepo's commands.
func (Agent) Name() agent.Name { return Name }

// Aliases are the other spellings a command accepts.
func (Agent) Aliases() []string { return []string{"copilot-cli", "github-copilot"} }

// Scopes: the user's hooks folder, or the repository's .github/hooks.
func (Agent) Scopes() []agent.Scope { return scopes }

var scopes = []agent.Scope{agent.ScopeUser, agent.ScopeProject}

// home is Copilot CLI's user folder.
func home(h agent.Homes) string { return h.Dir(envHome, ".copilot") }
