package claudecode

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/review"
)

// Claude Code's hook events as the hook runner (package agentsession)
// reads and answers them (docs/agents.md).

// SkillTool: Claude Code loads a skill with its Skill tool
// (tool_input.skill); any other tool the hooks see is looked at as a
// shell command that may read a SKILL.md.
func (Agent) SkillTool(tool string, input json.RawMessage) (string, bool, error) {
	if tool != "Skill" {
		return "", true, nil
	}
	var ti struct {
		Skill string `json:"skill"`
	}
	_ = json.Unmarshal(input, &ti)
	if ti.Skill == "" {
		return "", false, errors.New("the Skill tool call has no tool_input.skill")
	}
	return ti.Skill, false, nil
}

// StopReply: decision "block" with the reason as the next prompt, a
// systemMessage for the person, and context for the model as Stop's
// hookSpecificOutput.additionalContext (Claude Code 2.1.163 and later).
func (Agent) StopReply(block bool, reason, message, context string) map[string]any {
	switch {
	case block && message != "":
		return map[string]any{"decision": "block", "reason": reason, "systemMessage": message}
	case block:
		return map[string]any{"decision": "block", "reason": reason}
	case message != "" && context == "":
		return map[string]any{"systemMessage": message}
	case context != "":
		return map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": agent.EventStop, "additionalContext": context}}
	}
	return nil
}

// ReloadSkills: Claude Code's SessionStart output takes reloadSkills
// (2.1.152 and later), so skills a sync brought in load at once.
func (Agent) ReloadSkills() bool { return true }

// Headless: Claude Code names how it was started in its environment,
// which its hooks inherit: CLAUDE_CODE_ENTRYPOINT is sdk-cli for
// `claude -p`, sdk-ts or sdk-py under the Agent SDK (cli when a person
// runs it).
func (Agent) Headless(getenv func(string) string, _ string) (bool, string) {
	switch e := getenv("CLAUDE_CODE_ENTRYPOINT"); e {
	case "sdk-cli", "sdk-ts", "sdk-py":
		return true, "CLAUDE_CODE_ENTRYPOINT=" + e
	}
	return false, ""
}

// TranscriptFormat is Claude Code's session file (JSON Lines).
func (Agent) TranscriptFormat() review.Format { return review.FormatClaudeCode }

// TranscriptRoots: Claude Code keeps sessions in <config>/projects.
func (Agent) TranscriptRoots(h agent.Homes) []string {
	return []string{filepath.Join(h.ClaudeConfig, "projects")}
}

// The variables Claude Code sets in the commands it runs (its Bash tool, a
// slash command's !`…` lines, hooks): CLAUDECODE=1, and the session's id.
const (
	envInside    = "CLAUDECODE"
	envSessionID = "CLAUDE_CODE_SESSION_ID"
)

// SessionFile: <config>/projects/<project>/<id>.jsonl.
func (Agent) SessionFile(h agent.Homes, id string) string {
	files := review.SessionFiles(filepath.Join(h.ClaudeConfig, "projects", "*", id+".jsonl"))
	if len(files) == 0 {
		return ""
	}
	return files[0]
}

// LatestSession: the newest session file of the project's folder, which
// Claude Code names after the project's path with every character but a
// letter or digit made "-".
func (Agent) LatestSession(h agent.Homes, dir string) (string, string) {
	files := review.SessionFiles(filepath.Join(h.ClaudeConfig, "projects", projectFolder(dir), "*.jsonl"))
	if len(files) == 0 {
		return "", ""
	}
	return strings.TrimSuffix(filepath.Base(files[0]), ".jsonl"), files[0]
}

func projectFolder(dir string) string {
	b := []byte(dir)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// InSession: CLAUDECODE is set in Claude Code's commands, with the
// session's id beside it.
func (Agent) InSession(getenv func(string) string) (bool, string) {
	id := getenv(envSessionID)
	return getenv(envInside) != "" || id != "", id
}
