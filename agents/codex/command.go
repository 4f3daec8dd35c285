package codex

import (
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
)

// CommandFile: Codex dropped custom prompts (~/.codex/prompts) in 0.117;
// what the person invokes by name now is a skill ($refine, or /skills), so
// the command is a skill of Codex's own folder, $CODEX_HOME/skills/refine
// (never the library's: the install leaves it out when the library is
// that folder). The other scopes get none.
func (Agent) CommandFile(scope agent.Scope, homes agent.Homes, _ string) string {
	if scope != agent.ScopeUser && scope != "" {
		return ""
	}
	return filepath.Join(homes.CodexHome, "skills", "refine", "SKILL.md")
}

// CommandContent: a skill's instructions to the model, which runs the line
// in its shell (Codex sets CODEX_THREAD_ID there, so `current` is this
// session).
func (Agent) CommandContent(run string) []byte {
	return []byte(RefineSkill(run))
}

// RefineSkill is the skill for the shell line it runs
// (plugins/codex/skills/refine/SKILL.md is this with the plugin's line).
func RefineSkill(run string) string {
	return `---
name: refine
description: Use when the user invokes refine or asks to review this session now and keep what it taught as skills and memory (skillrepo's /refine [focus]).
---
# Review this session now (skillrepo)

Run this one shell command, with FOCUS replaced by the words the user gave after "refine" (empty when none), single-quoted for the shell:

    ` + run + ` --focus 'FOCUS'

It reviews this session and writes skills and memory through skillrepo; it needs to write the skills library and to reach the model, so run it outside the sandbox if asked. Then tell the user in one or two sentences what it created, patched or left for their approval, or why it wrote nothing, and how to look (skillrepo log, skillrepo proposal show). Do not write or edit skills yourself for this request.
`
}

var _ hooks.Commander = Agent{}
