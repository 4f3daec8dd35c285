package copilot

import (
	"fmt"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
)

// Copilot CLI's hooks as the installer (package hooks) writes them: a
// hook file of skillrepo's own, skillrepo.json, in the hooks folder
// Copilot CLI reads, so no file of the person's is edited.

// Handlers, under the PascalCase event names whose payloads are
// snake_case (Claude Code's shape). Copilot CLI has no matcher on
// PostToolUse: every tool call runs the hook, which counts a skill only
// when the call reads a library's SKILL.md (bash, view). Its default
// timeout is 30 s; Stop may ask a goal judge (30 s at most), so it gets
// 45 s.
func (Agent) Handlers() []hooks.Handler {
	return []hooks.Handler{
		{Event: agent.EventSessionStart, Timeout: 10},
		{Event: agent.EventPostToolUse, Timeout: 5},
		{Event: agent.EventUserPromptSubmit, Timeout: 5},
		{Event: agent.EventStop, Timeout: 45},
		{Event: agent.EventSessionEnd, Timeout: 5},
	}
}

// SettingsPath: skillrepo.json in the user folder's hooks/ (user) or in
// the repository's .github/hooks/ (project).
func (Agent) SettingsPath(scope agent.Scope, homes agent.Homes, project string) (string, error) {
	switch scope {
	case agent.ScopeUser, "":
		return filepath.Join(home(homes), "hooks", "skillrepo.json"), nil
	case agent.ScopeProject:
		return filepath.Join(project, ".github", "hooks", "skillrepo.json"), nil
	case agent.ScopeLocal:
		return "", fmt.Errorf("copilot has no local scope: use --scope user or project")
	}
	return "", fmt.Errorf("unknown scope %q: want user, project or local", scope)
}

// DefaultLibrary: Copilot CLI's own skills folder, ~/.copilot/skills, or
// the repository's .github/skills.
func (Agent) DefaultLibrary(scope agent.Scope, homes agent.Homes, project string) string {
	if scope == agent.ScopeProject || scope == agent.ScopeLocal {
		return filepath.Join(filepath.Clean(project), ".github", "skills")
	}
	return filepath.Join(home(homes), "skills")
}

// Format: handlers straight under each event, {"type": "command", "bash":
// …, "timeoutSec": …}, in a file that opens with "version": 1. A hook's
// folder is the repository's root, so a project's file names the library
// relative to it.
func (Agent) Format() hooks.Format { return hooks.Format{Flat: true} }

var _ hooks.Target = Agent{}
