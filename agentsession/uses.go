package agentsession

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// postToolUse counts a skill use: Claude Code's Skill tool, Gemini CLI's
// activate_skill, or (Codex) a shell command that reads a SKILL.md of the
// library, counted as a view.
func (h *hookRun) postToolUse() error {
	h.touch()
	if h.opts.Agent == hooks.Gemini {
		return h.activateSkill()
	}
	if h.opts.Agent == hooks.Codex || h.in.ToolName != "Skill" {
		return h.shellRead()
	}
	var ti struct {
		Skill string `json:"skill"`
	}
	_ = json.Unmarshal(h.in.ToolInput, &ti)
	if ti.Skill == "" {
		return errors.New("the Skill tool call has no tool_input.skill")
	}
	return h.count(ti.Skill, dedupeKey("tool-", h.in.ToolUseID), false)
}

// activateSkill counts Gemini CLI's activate_skill {"name": skill}: the
// model loaded the skill's instructions. Gemini CLI's AfterTool carries no
// call id, so each event counts.
func (h *hookRun) activateSkill() error {
	if h.in.ToolName != "activate_skill" {
		return nil
	}
	var ti struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(h.in.ToolInput, &ti)
	if ti.Name == "" {
		return errors.New("activate_skill call without tool_input.name")
	}
	return h.count(ti.Name, "", false)
}

// expansion counts a skill the user typed as /name (it bypasses the Skill
// tool).
func (h *hookRun) expansion() error {
	h.touch()
	if h.in.ExpansionType != "" && h.in.ExpansionType != "slash_command" {
		return nil
	}
	name := strings.TrimPrefix(h.in.CommandName, "/")
	if name == "" {
		return nil
	}
	key := ""
	if h.in.PromptID != "" {
		key = "prompt-" + h.in.SessionID + "-" + h.in.PromptID + "-" + name
	}
	return h.count(name, key, false)
}

// dedupeKey is prefix+id, or "" (count every delivery) without an id.
func dedupeKey(prefix, id string) string {
	if id == "" {
		return ""
	}
	return prefix + id
}

// skillName resolves an agent's skill reference to the library's skill:
// plugin prefixes ("plugin:name", "apps/web:deploy") are dropped.
func skillName(ref string) string {
	if i := strings.LastIndex(ref, ":"); i >= 0 {
		ref = ref[i+1:]
	}
	return strings.Trim(strings.TrimSpace(ref), "/")
}

// count records a skill's use (or view) once per key (empty: always).
// The dedupe key is kept in the skill's usage record and checked in the
// same locked write as the bump ([skillrepo.Library.RecordUse]), so a
// repeated or racing event counts once and a failed write counts nothing.
func (h *hookRun) count(ref, key string, view bool) error {
	kind := skillrepo.UseUse
	if view {
		kind = skillrepo.UseView
	}
	counted, err := h.lib.RecordUse(skillName(ref), kind, key)
	switch {
	case errors.Is(err, skillrepo.ErrNotFound):
		h.rep.notef("%s is not a skill of this library; not counted", ref)
		return nil
	case err != nil:
		return fmt.Errorf("count use of %s: %w", ref, err)
	case !counted:
		h.rep.notef("%s already counted for %s", ref, key)
	}
	return nil
}

// usesDir held one marker file per counted event before the key moved
// into the usage record; pruneMarkers clears what older versions left.
const usesDir = "hooks/uses"

// markerName is a file name for a state key (a session id may hold
// anything).
func markerName(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16])
}

// pruneMarkers removes use markers older than a week: an agent does not
// deliver an event again after that.
func pruneMarkers(stateDir string, now time.Time) {
	dir := filepath.Join(stateDir, filepath.FromSlash(usesDir))
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range des {
		if fi, err := de.Info(); err == nil && now.Sub(fi.ModTime()) > 7*24*time.Hour {
			os.Remove(filepath.Join(dir, de.Name()))
		}
	}
}

var skillPathRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^\s'"<>|;&()]*SKILL\.md`) })

// shellRead counts a view of every library skill whose SKILL.md a shell
// command names (Codex reads skills with cat, sed, head …).
func (h *hookRun) shellRead() error {
	var ti struct {
		Command json.RawMessage `json:"command"`
	}
	_ = json.Unmarshal(h.in.ToolInput, &ti)
	var cmd string
	var parts []string
	if json.Unmarshal(ti.Command, &cmd) != nil && json.Unmarshal(ti.Command, &parts) == nil {
		cmd = strings.Join(parts, " ")
	}
	if !strings.Contains(cmd, "SKILL.md") {
		return nil
	}
	root := h.lib.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	seen := map[string]bool{}
	for _, m := range skillPathRE().FindAllString(cmd, -1) {
		p := expandHome(m, h.opts.Getenv("HOME"))
		if !filepath.IsAbs(p) {
			p = filepath.Join(h.in.Cwd, p)
		}
		p = filepath.Clean(p)
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if seen[rel] {
			continue
		}
		seen[rel] = true
		if err := h.count(rel, dedupeKey("tool-", h.in.ToolUseID), true); err != nil {
			return err
		}
	}
	return nil
}
