package agentsession

import (
	"cmp"
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

	"github.com/skillrepo/skillrepo/skillrepo"
)

// postToolUse counts a skill use: a skill-loading tool's (Claude Code's
// Skill, Gemini CLI's activate_skill), or a shell command that reads a
// SKILL.md of the library, counted as a view (Codex has no skill tool).
func (h *hookRun) postToolUse() error {
	h.touch()
	skill, shell, err := h.opts.Agent.SkillTool(h.in.ToolName, h.in.ToolInput)
	switch {
	case err != nil:
		return err
	case skill != "":
		return h.count(skill, h.toolKey(), false)
	case shell:
		return h.shellRead()
	}
	return nil
}

// toolKey is the "count once" key of a tool call: its id within its
// session (call ids repeat across sessions: Codex numbers them from
// call_0 in each), or "" (count every delivery) without an id.
func (h *hookRun) toolKey() string {
	if h.in.ToolUseID == "" {
		return ""
	}
	return "tool-" + h.in.SessionID + "-" + h.in.ToolUseID
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
// same locked write as the bump ([skillrepo.Library.RecordSessionUse]), so a
// repeated or racing event counts once and a failed write counts nothing.
func (h *hookRun) count(ref, key string, view bool) error {
	kind := skillrepo.UseUse
	if view {
		kind = skillrepo.UseView
	}
	counted, err := h.lib.RecordSessionUse(skillName(ref), kind, key, h.in.SessionID)
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

// shellSegments cuts a shell command into the simple commands a cd can
// change the folder between (&&, ||, ;, |, newlines).
var shellSegments = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`&&|\|\||[;|\n]`) })

// shellProgram matches a shell that runs the rest of a command line.
var shellProgram = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\S*/)?(ba|z|da|k|fi)?sh$`) })

// shellRead counts a view of every library skill whose SKILL.md a shell
// command names (Codex reads skills with cat, sed, head …). A relative
// path is taken from the folder the command runs in: the call's workdir
// (else the session's cwd), changed by the command's own cd's as they
// come (`cd ci-debugging && cat SKILL.md`); a file-reading tool's path is read
// as the command that reads it.
func (h *hookRun) shellRead() error {
	var ti struct {
		Command json.RawMessage `json:"command"`
		Cmd     json.RawMessage `json:"cmd"`
		Workdir string          `json:"workdir"`
		// Path is a file-reading tool's file (Copilot CLI's view;
		// OpenCode's read names it filePath).
		Path     string `json:"path"`
		FilePath string `json:"filePath"`
	}
	_ = json.Unmarshal(h.in.ToolInput, &ti)
	raw := ti.Command
	if len(raw) == 0 {
		raw = ti.Cmd
	}
	var cmd string
	var parts []string
	if json.Unmarshal(raw, &cmd) != nil && json.Unmarshal(raw, &parts) == nil {
		cmd = strings.Join(parts, " ")
	}
	if cmd == "" {
		cmd = cmp.Or(ti.Path, ti.FilePath)
	}
	if !strings.Contains(cmd, "SKILL.md") {
		return nil
	}
	root := h.lib.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	home := h.opts.Getenv("HOME")
	dir := h.in.Cwd
	if ti.Workdir != "" {
		dir = h.resolve(dir, ti.Workdir, home)
	}
	seen := map[string]bool{}
	for _, seg := range shellSegments().Split(cmd, -1) {
		fields := strings.Fields(seg)
		// bash -lc 'cd x && cat SKILL.md' arrives as one argv word: its
		// quotes are the shell's, not the path's.
		for i := range fields {
			fields[i] = strings.Trim(fields[i], `'"`)
		}
		// `bash -lc "cd x && …"`: the shell and its flags come first.
		for len(fields) > 1 && shellProgram().MatchString(fields[0]) {
			fields = fields[1:]
			for len(fields) > 0 && strings.HasPrefix(fields[0], "-") {
				fields = fields[1:]
			}
		}
		if len(fields) >= 1 && fields[0] == "cd" {
			target := home
			if len(fields) > 1 {
				target = fields[1]
			}
			dir = h.resolve(dir, target, home)
			continue
		}
		for _, m := range skillPathRE().FindAllString(seg, -1) {
			p := h.resolve(dir, m, home)
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
			if err := h.count(rel, h.toolKey(), true); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolve makes p absolute against dir, with ~ expanded.
func (h *hookRun) resolve(dir, p, home string) string {
	p = expandHome(p, home)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}
