package copilot

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/agentid"
	"github.com/skillrepo/skillrepo/review"
)

// Copilot CLI's hook events as the hook runner (package agentsession)
// reads and answers them.

// SkillTool: Copilot CLI's skill tool loads a skill by name
// ({"skill": …}); a SKILL.md read with its shell or its view tool is
// looked at as a read of the library's files. A hook configured under the
// PascalCase event names gets the shell and view tools by Claude Code's
// names, Bash and Read (1.0.102, recorded in scripts/e2e/copilot-session.sh);
// the reference's camelCase payloads name them bash and view.
func (Agent) SkillTool(tool string, input json.RawMessage) (string, bool, error) {
	switch tool {
	case "skill":
		var in struct {
			Skill string `json:"skill"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return "", false, err
		}
		return in.Skill, false, nil
	case "Bash", "Read", "bash", "view":
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

// TranscriptFormat: told from the file — Copilot CLI's session file,
// session-state/<id>/events.jsonl, opens with its session.start line
// (review.FormatCopilot), and a transcript in another format named by a
// hook's payload is read as what it is.
func (Agent) TranscriptFormat() review.Format { return review.FormatAuto }

// TranscriptRoots: Copilot CLI keeps sessions in its folder's
// session-state/.
func (Agent) TranscriptRoots(h agent.Homes) []string {
	return []string{filepath.Join(home(h), "session-state")}
}

// SessionFile: session-state/<id>/events.jsonl in Copilot CLI's folder, a
// regular file ("" for an id that is not one, a link or a FIFO).
func (Agent) SessionFile(h agent.Homes, id string) string {
	if !agentid.Valid(id) || strings.Contains(id, "..") {
		return ""
	}
	if f := review.SessionFiles(filepath.Join(home(h), "session-state", id, "events.jsonl")); len(f) > 0 {
		return f[0]
	}
	return ""
}

// maxSessions bounds how many of the newest session files LatestSession
// opens to find one of the folder's.
const maxSessions = 200

// LatestSession: the newest session file whose session.start (its first
// line) names dir as the session's folder.
func (Agent) LatestSession(h agent.Homes, dir string) (string, string) {
	for i, f := range review.SessionFiles(filepath.Join(home(h), "session-state", "*", "events.jsonl")) {
		if i == maxSessions {
			break
		}
		var start struct {
			Type string `json:"type"`
			Data struct {
				SessionID string `json:"sessionId"`
				Context   struct {
					Cwd string `json:"cwd"`
				} `json:"context"`
			} `json:"data"`
		}
		if json.Unmarshal(review.SessionHead(f), &start) != nil || start.Type != "session.start" || !agentid.Valid(start.Data.SessionID) {
			continue
		}
		if filepath.Clean(start.Data.Context.Cwd) == filepath.Clean(dir) {
			return start.Data.SessionID, f
		}
	}
	return "", ""
}

// InSession: Copilot CLI exports no session id to the commands it runs
// that skillrepo knows of; the latest session of the folder is the one.
func (Agent) InSession(func(string) string) (bool, string) { return false, "" }
