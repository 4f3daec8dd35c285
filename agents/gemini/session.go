package gemini

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
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

// envInside is the variable Gemini CLI sets in the commands it runs
// (GEMINI_CLI=1); it exports no session id there.
const envInside = "GEMINI_CLI"

// sessionHeader is the first line of a session file (JSON Lines).
type sessionHeader struct {
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
}

func (h Agent) sessionFiles(homes agent.Homes, name string) []string {
	var patterns []string
	for _, root := range h.TranscriptRoots(homes) {
		patterns = append(patterns, filepath.Join(root, name+".jsonl"), filepath.Join(root, name+".json"))
	}
	return review.SessionFiles(patterns...)
}

// SessionFile: chats/session-<time>-<first 8 characters of the id>.jsonl
// in a project's folder, whose header names the id.
func (h Agent) SessionFile(homes agent.Homes, id string) string {
	short := id
	if len(short) > 8 {
		short = short[:8]
	}
	for _, f := range h.sessionFiles(homes, "session-*-"+short) {
		var hd sessionHeader
		if json.Unmarshal(review.SessionHead(f), &hd) == nil && hd.SessionID == id {
			return f
		}
	}
	return ""
}

// maxSessions bounds how many of the newest session files LatestSession
// opens to find one of the project's.
const maxSessions = 200

// LatestSession: the newest session file whose header names the project
// (Gemini CLI's project hash is the SHA-256 of the project's path).
func (h Agent) LatestSession(homes agent.Homes, dir string) (string, string) {
	sum := sha256.Sum256([]byte(dir))
	want := hex.EncodeToString(sum[:])
	for i, f := range h.sessionFiles(homes, "session-*") {
		if i == maxSessions {
			break
		}
		var hd sessionHeader
		if json.Unmarshal(review.SessionHead(f), &hd) == nil && hd.SessionID != "" && hd.ProjectHash == want {
			return hd.SessionID, f
		}
	}
	return "", ""
}

// InSession: inside Gemini CLI's commands, with no id (the latest
// session of the folder is the one).
func (Agent) InSession(getenv func(string) string) (bool, string) {
	return getenv(envInside) != "", ""
}
