package codex

import (
	"fmt"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
)

// Codex's hooks as the installer (package hooks) writes them.

// Handlers: Codex has no Skill tool, so every shell command is looked at
// for a SKILL.md it reads (PostToolUse, matcher Bash). SessionEnd carries
// no timeout (Codex gives it 1 s by default, and the handler returns well
// within it); Stop may ask a goal judge (30 s at most), so it gets 45 s.
func (Agent) Handlers() []hooks.Handler {
	return []hooks.Handler{
		{Event: agent.EventSessionStart, Timeout: 10},
		{Event: agent.EventPostToolUse, Matcher: "Bash", Timeout: 5},
		{Event: agent.EventUserPromptSubmit, Timeout: 5},
		{Event: agent.EventStop, Timeout: 45},
		{Event: agent.EventSessionEnd},
	}
}

// SettingsPath: hooks.json in CODEX_HOME (user) or the project's
// .codex/hooks.json (project).
func (Agent) SettingsPath(scope agent.Scope, homes agent.Homes, project string) (string, error) {
	switch scope {
	case agent.ScopeUser, "":
		return filepath.Join(homes.CodexHome, "hooks.json"), nil
	case agent.ScopeProject:
		return filepath.Join(project, ".codex", "hooks.json"), nil
	case agent.ScopeLocal:
		return "", fmt.Errorf("codex has no local scope: use --scope user or project")
	}
	return "", fmt.Errorf("unknown scope %q: want user, project or local", scope)
}

// DefaultLibrary: ~/.agents/skills, or <project>/.agents/skills.
func (Agent) DefaultLibrary(scope agent.Scope, homes agent.Homes, project string) string {
	if scope == agent.ScopeProject || scope == agent.ScopeLocal {
		return filepath.Join(filepath.Clean(project), ".agents", "skills")
	}
	return filepath.Join(homes.Home, ".agents", "skills")
}

// Format: Claude Code's shape, timeouts in seconds; a project's file names
// the library relative to the project.
func (Agent) Format() hooks.Format { return hooks.Format{} }

var _ hooks.Target = Agent{}
