package gemini

import (
	"fmt"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
)

// Gemini CLI's hooks as the installer (package hooks) writes them.

// Handlers, in Gemini CLI's event names, each named for its /hooks panel
// and hooksConfig.disabled: a skill loads with activate_skill (AfterTool),
// BeforeAgent is a prompt, AfterAgent the end of a turn (it can deny the
// stop, as Stop can block it).
func (Agent) Handlers() []hooks.Handler {
	return []hooks.Handler{
		{Event: agent.EventSessionStart, Timeout: 10, Name: "skillrepo-session-start"},
		{Event: agent.GeminiAfterTool, Matcher: "^" + activateSkill + "$", Timeout: 5, Name: "skillrepo-count-skill"},
		{Event: agent.GeminiBeforeAgent, Timeout: 5, Name: "skillrepo-prompt"},
		{Event: agent.GeminiAfterAgent, Timeout: 45, Name: "skillrepo-turn-end"},
		{Event: agent.EventSessionEnd, Name: "skillrepo-session-end"},
	}
}

// SettingsPath: settings.json in ~/.gemini (or GEMINI_CLI_HOME/.gemini;
// user) or the project's .gemini/settings.json (project).
func (Agent) SettingsPath(scope agent.Scope, homes agent.Homes, project string) (string, error) {
	switch scope {
	case agent.ScopeUser, "":
		return filepath.Join(homes.GeminiDir, "settings.json"), nil
	case agent.ScopeProject:
		return filepath.Join(project, ".gemini", "settings.json"), nil
	case agent.ScopeLocal:
		return "", fmt.Errorf("gemini has no local scope: use --scope user or project")
	}
	return "", fmt.Errorf("unknown scope %q: want user, project or local", scope)
}

// DefaultLibrary: ~/.gemini/skills, or <project>/.gemini/skills.
func (Agent) DefaultLibrary(scope agent.Scope, homes agent.Homes, project string) string {
	if scope == agent.ScopeProject || scope == agent.ScopeLocal {
		return filepath.Join(filepath.Clean(project), ".gemini", "skills")
	}
	return filepath.Join(homes.GeminiDir, "skills")
}

// Format: timeouts in milliseconds, and the hooks object also holds
// Gemini CLI's enabled, disabled and notifications settings.
func (Agent) Format() hooks.Format {
	return hooks.Format{TimeoutMillis: true, NotEvents: []string{"enabled", "disabled", "notifications"}}
}

var _ hooks.Target = Agent{}
