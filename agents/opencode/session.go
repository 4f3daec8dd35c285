package opencode

import (
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

// TranscriptFormat: skillrepo has no reader of OpenCode's session storage
// yet; the review tells the format from the file (docs/agents.md).
func (Agent) TranscriptFormat() review.Format { return review.FormatAuto }

// TranscriptRoots: OpenCode keeps its sessions under
// ~/.local/share/opencode/storage.
func (Agent) TranscriptRoots(h agent.Homes) []string {
	return []string{filepath.Join(h.Home, ".local", "share", "opencode", "storage")}
}
