package copilot

import (
	"encoding/json"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/review"
)

// Copilot CLI's hook events as the hook runner (package agentsession)
// reads and answers them.

// SkillTool: Copilot CLI has no skill tool of its own in its hook
// payloads; the model reads a SKILL.md with its bash tool
// (tool_input.command) or its view tool (tool_input.path), both looked at
// as a read of the library's files.
func (Agent) SkillTool(tool string, _ json.RawMessage) (string, bool, error) {
	switch tool {
	case "bash", "view":
		return "", true, nil
	}
	return "", false, nil
}

// StopReply: Stop takes decision "block" with the reason as the next
// turn's prompt; Copilot CLI shows no message of a hook, so a note or
// context is not sent.
func (Agent) StopReply(block bool, reason, _, _ string) map[string]any {
	if !block {
		return nil
	}
	return map[string]any{"decision": "block", "reason": reason}
}

// ReloadSkills: Copilot CLI processes no SessionStart output.
func (Agent) ReloadSkills() bool { return false }

// TranscriptFormat: skillrepo has no reader of Copilot CLI's session
// files yet; the review tells the format from the file (docs/agents.md).
func (Agent) TranscriptFormat() review.Format { return review.FormatAuto }

// TranscriptRoots: Copilot CLI keeps sessions in its folder's
// session-state/.
func (Agent) TranscriptRoots(h agent.Homes) []string {
	return []string{filepath.Join(home(h), "session-state")}
}
