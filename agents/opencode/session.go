package opencode

import (
	"bytes"
	"encoding/json"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/review"
)

// OpenCode's events as the hook runner (package agentsession) reads and
// answers them; the plugin module sends them in Claude Code's shape.

// SkillTool: OpenCode's skill tool loads a skill by name ({"name": …});
// its read tool ({"filePath": …}) and bash tool ({"command": …}) are
// looked at as a read of the library's files.
func (Agent) SkillTool(tool string, input json.RawMessage) (string, bool, error) {
	switch tool {
	case "skill":
		var in struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return "", false, err
		}
		return in.Name, false, nil
	case "read", "bash":
		return "", true, nil
	}
	return "", false, nil
}

// StopReply: OpenCode's plugin cannot hold a session that went idle, so
// Stop answers nothing.
func (Agent) StopReply(bool, string, string, string) map[string]any { return nil }

// ReloadSkills: OpenCode reads skills when it needs them.
func (Agent) ReloadSkills() bool { return false }

// TranscriptFormat is an OpenCode session as its API exports it
// (review.FormatOpenCode).
func (Agent) TranscriptFormat() review.Format { return review.FormatOpenCode }

// TranscriptRoots: OpenCode keeps its sessions in a database
// (opencode.db) skillrepo does not read; the plugin module asks OpenCode
// for the session when it goes idle and writes it, as `opencode export`
// prints it, to <data>/opencode/skillrepo/<session id>.json, where <data>
// is $XDG_DATA_HOME, else ~/.local/share (docs/agents.md, "OpenCode").
func (Agent) TranscriptRoots(h agent.Homes) []string {
	return []string{sessionsDir(h)}
}

func sessionsDir(h agent.Homes) string {
	data := filepath.Join(h.Home, ".local", "share")
	if h.Getenv != nil {
		if x := h.Getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
			data = x
		}
	}
	return filepath.Join(data, "opencode", "skillrepo")
}

// validID reports an OpenCode session id as a file name may hold it
// (ses_…: 1 to 128 letters, digits, '_' and '-'): the plugin module writes
// no other, and a path trick finds nothing. A loop, not a regexp: the
// bounded repetition compiled into 128 states in every command's start-up.
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// SessionFile: <session id>.json in the plugin's sessions folder, a
// regular file ("" for an id that is no file name, a link or a FIFO).
func (Agent) SessionFile(h agent.Homes, id string) string {
	if !validID(id) {
		return ""
	}
	if f := review.SessionFiles(filepath.Join(sessionsDir(h), id+".json")); len(f) > 0 {
		return f[0]
	}
	return ""
}

// maxSessions bounds how many of the newest session files LatestSession
// opens to find one of the project's.
const maxSessions = 200

// LatestSession: the newest session file whose session info names dir as
// its folder (info comes first in the file: only the head is read).
func (Agent) LatestSession(h agent.Homes, dir string) (string, string) {
	for i, f := range review.SessionFiles(filepath.Join(sessionsDir(h), "*.json")) {
		if i == maxSessions {
			break
		}
		if id, d := sessionInfo(review.SessionHead(f)); id != "" && filepath.Clean(d) == filepath.Clean(dir) {
			return id, f
		}
	}
	return "", ""
}

// sessionInfo reads the id and folder of {"info": {"id", "directory"}, …}
// from the start of a session file.
func sessionInfo(head []byte) (id, dir string) {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", ""
	}
	if k, err := dec.Token(); err != nil || k != "info" {
		return "", ""
	}
	var info struct {
		ID        string `json:"id"`
		Directory string `json:"directory"`
	}
	if dec.Decode(&info) != nil {
		return "", ""
	}
	return info.ID, info.Directory
}

// InSession: OpenCode exports no session id to the commands it runs; the
// latest session of the folder is the one.
func (Agent) InSession(func(string) string) (bool, string) { return false, "" }
