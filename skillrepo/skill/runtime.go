package skill

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
)

// Runtime is the agent that reads a library. The write rules follow it:
// a rule only one runtime enforces is never applied to a library another
// runtime reads (docs/skill-format.md, "Runtimes").
type Runtime string

// The runtimes.
const (
	Hermes    Runtime = Runtime(agent.Hermes)
	Claude    Runtime = Runtime(agent.ClaudeCode)
	Codex     Runtime = Runtime(agent.Codex)
	Gemini    Runtime = Runtime(agent.Gemini)
	Generic   Runtime = "generic"
	noRuntime Runtime = ""
)

// Runtimes lists the runtimes in a stable order.
func Runtimes() []Runtime { return []Runtime{Hermes, Claude, Codex, Gemini, Generic} }

// ParseRuntime reads a runtime name; "" is Generic.
func ParseRuntime(s string) (Runtime, error) {
	switch r := Runtime(strings.TrimSpace(s)); r {
	case noRuntime:
		return Generic, nil
	case Hermes, Claude, Codex, Gemini, Generic:
		return r, nil
	}
	return "", fmt.Errorf("unknown runtime %q: want hermes, claude-code, codex, gemini or generic", s)
}

// DetectRuntime guesses the runtime from where a library lives:
// ~/.hermes/skills is Hermes, ~/.claude/skills and <project>/.claude/skills
// are Claude Code, .gemini/skills and ~/.gemini/skills Gemini CLI,
// .agents/skills, ~/.agents/skills, .codex/skills and ~/.codex/skills are
// Codex (Gemini CLI reads .agents/skills too: name it with --runtime);
// anything else is Generic. dir is absolute.
func DetectRuntime(dir string) Runtime {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(dir)), "/")
	for i := len(parts) - 1; i >= 1; i-- {
		if parts[i] != "skills" {
			continue
		}
		switch parts[i-1] {
		case ".hermes":
			return Hermes
		case ".claude":
			return Claude
		case ".agents", ".codex":
			return Codex
		case ".gemini":
			return Gemini
		}
	}
	return Generic
}

// Rules are the write rules of one runtime.
type Rules struct {
	Runtime Runtime
	// CreateDescriptionLimit caps a new skill's description, in
	// characters (0: only MaxDescriptionLength). Hermes' index cuts
	// descriptions at 60, so it refuses longer ones on create.
	CreateDescriptionLimit int
	// SupportDirs are the folders support files may live under; nil
	// allows any relative path inside the skill folder (Claude Code and
	// Codex read whatever a skill ships: agents/, examples/, forms.md).
	SupportDirs []string
	// NameRenamed are characters of a frontmatter name the runtime
	// replaces (Gemini CLI loads "a:b" as "a-b"): a write refuses them.
	NameRenamed string
	// OneLineDescription refuses a description that spans lines (Gemini
	// CLI puts it on one line of its prompt, and its fallback reader
	// keeps continuation lines only when indented).
	OneLineDescription bool
	// Flat says the runtime reads only <library>/<name>/SKILL.md (Gemini
	// CLI's loader reads SKILL.md and */SKILL.md): a skill in a category
	// folder never loads, which a write warns of.
	Flat bool
}

// GeminiRenamed are the characters Gemini CLI replaces with "-" in a
// skill's name when it loads it.
const GeminiRenamed = `:\/<>*?"|`

// RulesFor returns the write rules of a runtime. The zero Runtime gets
// Hermes' rules, the strictest, which is what a library written before
// runtimes existed was checked against.
func RulesFor(r Runtime) Rules {
	switch r {
	case Hermes, noRuntime:
		return Rules{Runtime: Hermes, CreateDescriptionLimit: PromptDescriptionLimit, SupportDirs: SupportDirs}
	case Gemini:
		return Rules{Runtime: Gemini, NameRenamed: GeminiRenamed, OneLineDescription: true, Flat: true}
	}
	return Rules{Runtime: r}
}

// ValidateOptions returns the options for validating SKILL.md content
// under these rules; create is true for a new skill.
func (r Rules) ValidateOptions(create bool) ValidateOptions {
	o := ValidateOptions{NameRenamed: r.NameRenamed, OneLineDescription: r.OneLineDescription, Runtime: r.Runtime}
	if create && r.CreateDescriptionLimit > 0 {
		o.NewSkill, o.DescriptionLimit = true, r.CreateDescriptionLimit
	}
	return o
}

// ValidateSupportPath checks a path relative to the skill folder for a
// write or read under these rules and returns it cleaned (see the
// package-level [ValidateSupportPath] for the Hermes form).
func (r Rules) ValidateSupportPath(p string) (string, error) {
	if r.SupportDirs != nil {
		return validateSupportPath(p, r.SupportDirs)
	}
	clean, err := cleanRelPath(p)
	if err != nil || clean == FileName {
		return clean, err
	}
	if strings.EqualFold(path.Base(clean), FileName) && !strings.Contains(clean, "/") {
		return "", invalid("file_path", "%q would shadow SKILL.md", p)
	}
	return clean, nil
}
