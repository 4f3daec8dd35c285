package claudecode

import (
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
)

// CommandFile: a personal slash command, <config>/commands/refine.md
// (/refine in every session). A project's settings name the library
// under $CLAUDE_PROJECT_DIR, which a command's shell line cannot count
// on, so the other scopes get none.
func (Agent) CommandFile(scope agent.Scope, homes agent.Homes, _ string) string {
	if scope != agent.ScopeUser && scope != "" {
		return ""
	}
	return filepath.Join(homes.ClaudeConfig, "commands", "refine.md")
}

// CommandContent: the slash command runs the review in its !`…` line
// before the model sees the prompt ($ARGUMENTS is the person's focus),
// so its outcome is in the conversation; allowed-tools lets that line run
// without a permission prompt.
func (Agent) CommandContent(run string) []byte {
	program, _, _ := strings.Cut(run, " ")
	return []byte(RefineCommand(program, run))
}

// RefineCommand is the slash command's file for a program and the shell
// line it runs (plugins/claude-code/commands/refine.md is this with the
// plugin's line).
func RefineCommand(program, run string) string {
	return `---
description: Review this session now and keep what it taught as skills and memory (skillrepo)
argument-hint: [focus]
allowed-tools: Bash(` + program + `:*)
---
!` + "`" + run + ` --focus "$ARGUMENTS"` + "`" + `

Above is the outcome of skillrepo's review of this session. Tell the user in one or two sentences what it created, patched or left for their approval, or why it wrote nothing, and how to look (skillrepo log, skillrepo proposal show). Do not write or edit skills yourself for this request.
`
}

var _ hooks.Commander = Agent{}
