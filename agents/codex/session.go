package codex

import (
	"bufio"
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/boundedread"
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

// Headless: a rollout's first line (session_meta) names the session's
// source, "exec" for `codex exec` ("cli" or an editor when a person runs
// it).
func (Agent) Headless(_ func(string) string, transcript string) (bool, string) {
	f, err := boundedread.Open(transcript)
	if err != nil {
		return false, ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(io.LimitReader(f, 1<<20)).ReadBytes('\n')
	var meta struct {
		Type    string `json:"type"`
		Payload struct {
			Source json.RawMessage `json:"source"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &meta) != nil || meta.Type != "session_meta" {
		return false, ""
	}
	var source string
	if json.Unmarshal(meta.Payload.Source, &source) == nil && source == "exec" {
		return true, "codex exec"
	}
	return false, ""
}

// TranscriptFormat: a rollout, enveloped or of the older bare shape,
// which the reader tells apart (review.FormatAuto).
func (Agent) TranscriptFormat() review.Format { return review.FormatAuto }

// TranscriptRoots: $CODEX_HOME/sessions and archived_sessions.
func (Agent) TranscriptRoots(h agent.Homes) []string {
	return []string{filepath.Join(h.CodexHome, "sessions"), filepath.Join(h.CodexHome, "archived_sessions")}
}

// envThreadID is the variable Codex sets in the commands it runs: the
// session's (thread's) id.
const envThreadID = "CODEX_THREAD_ID"

// SessionFile: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl,
// or the same name in archived_sessions.
func (Agent) SessionFile(h agent.Homes, id string) string {
	name := "rollout-*-" + id + ".jsonl"
	files := review.SessionFiles(filepath.Join(h.CodexHome, "sessions", "*", "*", "*", name), filepath.Join(h.CodexHome, "archived_sessions", name))
	if len(files) == 0 {
		return ""
	}
	return files[0]
}

// maxRollouts bounds how many of the newest rollouts LatestSession opens
// to find one of the project's.
const maxRollouts = 200

// LatestSession: the newest rollout whose session_meta names dir as its
// folder (cwd).
func (Agent) LatestSession(h agent.Homes, dir string) (string, string) {
	files := review.SessionFiles(filepath.Join(h.CodexHome, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	for i, f := range files {
		if i == maxRollouts {
			break
		}
		var line struct {
			Type    string `json:"type"`
			Payload struct {
				ID  string `json:"id"`
				Cwd string `json:"cwd"`
			} `json:"payload"`
		}
		if json.Unmarshal(review.SessionHead(f), &line) == nil && line.Type == "session_meta" && line.Payload.ID != "" &&
			filepath.Clean(line.Payload.Cwd) == filepath.Clean(dir) {
			return line.Payload.ID, f
		}
	}
	return "", ""
}

// InSession: Codex sets the thread's id in its commands' environment.
func (Agent) InSession(getenv func(string) string) (bool, string) {
	id := getenv(envThreadID)
	return id != "", id
}
