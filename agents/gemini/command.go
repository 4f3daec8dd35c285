package gemini

import (
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
)

// CommandFile: a personal custom command, commands/refine.toml in the
// Gemini CLI folder (/refine in every session); the other scopes name
// the library relative to the project, so they get none.
func (Agent) CommandFile(scope agent.Scope, homes agent.Homes, _ string) string {
	if scope != agent.ScopeUser && scope != "" {
		return ""
	}
	return filepath.Join(homes.GeminiDir, "commands", "refine.toml")
}

// CommandContent: the prompt's !{…} runs the review before the model sees
// it (Gemini CLI asks the person to confirm the shell line once); {{args}}
// inside it is the person's focus, which Gemini CLI quotes for the shell.
func (Agent) CommandContent(run string) []byte {
	return []byte(RefineCommand(run))
}

// tomlEscape escapes s for a TOML basic string.
var tomlEscape = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// gitEnvRestored undoes what Gemini CLI's shell does to git (0.61,
// getSafeGitEnv): GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM at /dev/null,
// and eight `git -c` pairs. The review commits as the person, with their
// git configuration, as it does from a hook.
const gitEnvRestored = "unset GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM GIT_CONFIG_NOSYSTEM GIT_CONFIG_COUNT; "

// RefineCommand is the custom command's file for the shell line it runs
// (plugins/gemini/commands/refine.toml is this with the extension's
// line). The prompt is a TOML multi-line basic string, so a backslash or
// a quote in the line is escaped.
func RefineCommand(run string) string {
	return `# skillrepo's /refine: review this session now (docs/agents.md)
description = "Review this session now and keep what it taught as skills and memory (skillrepo)"
prompt = """
!{` + gitEnvRestored + tomlEscape.Replace(run) + ` --focus {{args}}}

Above is the outcome of skillrepo's review of this session. Tell the user in one or two sentences what it created, patched or left for their approval, or why it wrote nothing, and how to look (skillrepo log, skillrepo proposal show). Do not write or edit skills yourself for this request.
"""
`
}

var _ hooks.Commander = Agent{}
