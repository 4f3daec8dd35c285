package claudecode

import (
	"fmt"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
)

// Claude Code's hooks as the installer (package hooks) writes them.

// Handlers: a skill use counts from the Skill tool (PostToolUse, matcher
// Skill) and from a typed /name (UserPromptExpansion). SessionEnd carries
// no timeout: one would raise Claude Code's 1.5 s SessionEnd budget, and
// the handler returns well within it. The use counters run async:
// counting rewrites the usage sidecar (tens of milliseconds on a library
// of a thousand skills, more on a busy disk) and the agent need not wait
// for it; the cost is that a count still running when `claude -p` tears
// down is lost. Stop may ask a goal judge (30 s at most, failing open), so
// it gets 45 s; UserPromptSubmit lets a typed prompt pause a goal whose
// continuation it interrupted.
func (Agent) Handlers() []hooks.Handler {
	return []hooks.Handler{
		{Event: agent.EventSessionStart, Timeout: 10},
		{Event: agent.EventPostToolUse, Matcher: "Skill", Timeout: 5, Async: true},
		{Event: agent.EventUserPromptExpansion, Timeout: 5, Async: true},
		{Event: agent.EventUserPromptSubmit, Timeout: 5},
		{Event: agent.EventStop, Timeout: 45},
		{Event: agent.EventSessionEnd},
	}
}

// SettingsPath: settings.json in CLAUDE_CONFIG_DIR (user), the project's
// .claude/settings.json (project) or .claude/settings.local.json (local).
func (Agent) SettingsPath(scope agent.Scope, homes agent.Homes, project string) (string, error) {
	switch scope {
	case agent.ScopeUser, "":
		return filepath.Join(homes.ClaudeConfig, "settings.json"), nil
	case agent.ScopeProject:
		return filepath.Join(project, ".claude", "settings.json"), nil
	case agent.ScopeLocal:
		return filepath.Join(project, ".claude", "settings.local.json"), nil
	}
	return "", fmt.Errorf("unknown scope %q: want user, project or local", scope)
}

// DefaultLibrary: skills in CLAUDE_CONFIG_DIR, or <project>/.claude/skills.
func (Agent) DefaultLibrary(scope agent.Scope, homes agent.Homes, project string) string {
	if scope == agent.ScopeProject || scope == agent.ScopeLocal {
		return filepath.Join(filepath.Clean(project), ".claude", "skills")
	}
	return filepath.Join(homes.ClaudeConfig, "skills")
}

// Format: Claude Code's commands run through sh with CLAUDE_PROJECT_DIR
// set, so a project's shared settings name the library under it.
func (Agent) Format() hooks.Format { return hooks.Format{ProjectDir: "CLAUDE_PROJECT_DIR"} }

var _ hooks.Target = Agent{}
