package codex

import (
	"encoding/json"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/review"
)

// Codex's hook events as the hook runner (package agentsession) reads and
// answers them (docs/agents.md).

// SkillTool: Codex has no skill tool; the model reads a SKILL.md through
// its shell, so every tool call the hooks see (matcher Bash) is looked
// at as a shell command.
func (Agent) SkillTool(string, json.RawMessage) (string, bool, error) { return "", true, nil }

// StopReply: Codex's Stop output schema is Claude Code's without
// hookSpecificOutput (it rejects unknown fields), so context for the
// model goes out as a systemMessage.
func (Agent) StopReply(block bool, reason, message, context string) map[string]any {
	switch {
	case block && message != "":
		return map[string]any{"decision": "block", "reason": reason, "systemMessage": message}
	case block:
		return map[string]any{"decision": "block", "reason": reason}
	case message != "" && context == "":
		return map[string]any{"systemMessage": message}
	case context != "":
		return map[string]any{"systemMessage": context}
	}
	return nil
}

// ReloadSkills: Codex's SessionStart output schema has no reloadSkills;
// it reads skills at the start of every turn anyway.
func (Agent) ReloadSkills() bool { return false }

// TranscriptFormat: a rollout, enveloped or of the older bare shape,
// which the reader tells apart (review.FormatAuto).
func (Agent) TranscriptFormat() review.Format { return review.FormatAuto }

// TranscriptRoots: $CODEX_HOME/sessions and archived_sessions.
func (Agent) TranscriptRoots(h agent.Homes) []string {
	return []string{filepath.Join(h.CodexHome, "sessions"), filepath.Join(h.CodexHome, "archived_sessions")}
}
