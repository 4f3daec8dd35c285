package gemini

import (
	"cmp"
	"encoding/json"
	"errors"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/review"
)

// Gemini CLI's hook events as the hook runner (package agentsession)
// reads and answers them (docs/agents.md).

// activateSkill is the tool Gemini CLI loads a skill with
// (tool_input.name is the skill).
const activateSkill = "activate_skill"

// SkillTool: activate_skill {"name": skill} loaded the skill's
// instructions; Gemini CLI's AfterTool carries no call id, so each event
// counts. Other tools are not counted.
func (Agent) SkillTool(tool string, input json.RawMessage) (string, bool, error) {
	if tool != activateSkill {
		return "", false, nil
	}
	var ti struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(input, &ti)
	if ti.Name == "" {
		return "", false, errors.New("activate_skill call without tool_input.name")
	}
	return ti.Name, false, nil
}

// StopReply answers AfterAgent: "deny" with a reason makes Gemini CLI run
// another turn with the reason as the prompt; it has no context field,
// so a note goes to the person as a systemMessage.
func (Agent) StopReply(block bool, reason, message, context string) map[string]any {
	out := map[string]any{}
	if block {
		out["decision"], out["reason"] = "deny", reason
	}
	if msg := cmp.Or(message, context); msg != "" {
		out["systemMessage"] = msg
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ReloadSkills: Gemini CLI's SessionStart output has no reloadSkills.
func (Agent) ReloadSkills() bool { return false }

// TranscriptFormat is Gemini CLI's session file (JSON Lines).
func (Agent) TranscriptFormat() review.Format { return review.FormatGemini }

// TranscriptRoots: the chats/ folder of each project's folder under
// ~/.gemini/tmp (or $GEMINI_CLI_HOME/.gemini/tmp), or ~/.cache/.gemini/tmp
// in its macOS sandbox.
func (Agent) TranscriptRoots(h agent.Homes) []string {
	return []string{filepath.Join(h.GeminiDir, "tmp", "*", "chats"),
		filepath.Join(filepath.Dir(h.GeminiDir), ".cache", ".gemini", "tmp", "*", "chats")}
}
