package opencode

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/jsonedit"
)

// Where OpenCode 1.18 loads skills from (every **/SKILL.md below each):
// skill/ and skills/ of its config folder and of each .opencode/ from the
// session's folder up to its worktree, ~/.claude/skills and
// ~/.agents/skills and a project's .claude/skills and .agents/skills, and
// the folders opencode.json names under skills.paths.

// readsSkills reports whether OpenCode, run in project, loads the skills
// of lib: lib is one of its skills folders or inside one.
func readsSkills(lib string, h agent.Homes, project string) bool {
	lib = filepath.Clean(lib)
	for _, root := range skillRoots(h, project) {
		if rel, err := filepath.Rel(root, lib); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// maxConfig bounds an opencode.json read for its skills.paths.
const maxConfig = 4 << 20

// skillRoots are the folders OpenCode loads skills from for project.
func skillRoots(h agent.Homes, project string) []string {
	cfg := configDir(h)
	roots := []string{filepath.Join(cfg, "skill"), filepath.Join(cfg, "skills"),
		filepath.Join(h.Home, ".claude", "skills"), filepath.Join(h.Home, ".agents", "skills")}
	configs := []string{filepath.Join(cfg, "opencode.json"), filepath.Join(cfg, "opencode.jsonc")}
	if project != "" {
		for dir := filepath.Clean(project); ; dir = filepath.Dir(dir) {
			roots = append(roots, filepath.Join(dir, ".opencode", "skill"), filepath.Join(dir, ".opencode", "skills"),
				filepath.Join(dir, ".claude", "skills"), filepath.Join(dir, ".agents", "skills"))
			configs = append(configs, filepath.Join(dir, "opencode.json"), filepath.Join(dir, "opencode.jsonc"),
				filepath.Join(dir, ".opencode", "opencode.json"), filepath.Join(dir, ".opencode", "opencode.jsonc"))
			if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil || filepath.Dir(dir) == dir {
				break
			}
		}
	}
	for _, c := range configs {
		for _, p := range configPaths(c) {
			if strings.HasPrefix(p, "~/") {
				p = filepath.Join(h.Home, p[2:])
			} else if !filepath.IsAbs(p) {
				p = filepath.Join(filepath.Dir(c), p)
			}
			roots = append(roots, filepath.Clean(p))
		}
	}
	return roots
}

// configPaths are the skills.paths of an opencode.json (JSON with
// comments); none when it cannot be read.
func configPaths(file string) []string {
	data, err := boundedread.ReadFile(file, maxConfig)
	if err != nil {
		return nil
	}
	std, err := jsonedit.Standard(dropTrailingCommas(data))
	if err != nil {
		return nil
	}
	var cfg struct {
		Skills struct {
			Paths []string `json:"paths"`
		} `json:"skills"`
	}
	if json.Unmarshal(std, &cfg) != nil {
		return nil
	}
	return cfg.Skills.Paths
}

// dropTrailingCommas blanks a comma that only whitespace and comments
// separate from the "}" or "]" after it: OpenCode reads its settings
// allowing them, and jsonedit does not.
func dropTrailingCommas(data []byte) []byte {
	out := bytes.Clone(data)
	in := false
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && c == ',':
			if j := skipBlank(out, i+1); j < len(out) && (out[j] == '}' || out[j] == ']') {
				out[i] = ' '
			}
		}
	}
	return out
}

// skipBlank is the index of the first byte from i on that is neither
// whitespace nor inside a comment.
func skipBlank(b []byte, i int) int {
	for i < len(b) {
		switch {
		case b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r':
			i++
		case bytes.HasPrefix(b[i:], []byte("//")):
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case bytes.HasPrefix(b[i:], []byte("/*")):
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return len(b)
			}
			i += end + 4
		default:
			return i
		}
	}
	return i
}
