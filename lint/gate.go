package lint

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// ProfileFor is the lint profile of a runtime: the rules of the agent
// that reads the library ("" for generic: the spec profile).
func ProfileFor(rt skill.Runtime) Profile {
	switch rt {
	case skill.Hermes:
		return ProfileHermes
	case skill.Claude:
		return ProfileClaudeCode
	case skill.Codex:
		return ProfileCodex
	case skill.Gemini:
		return ProfileGemini
	}
	return ""
}

// ErrorsFound is a gate's refusal: the lint errors in what a write or an
// approval would produce.
type ErrorsFound struct {
	Findings []Finding // errors only
}

func (e *ErrorsFound) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the result fails lint with %d error(s):", len(e.Findings))
	for i, f := range e.Findings {
		if i == 5 {
			fmt.Fprintf(&b, " (and %d more)", len(e.Findings)-5)
			break
		}
		loc := f.Path
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.Path, f.Line)
		}
		fmt.Fprintf(&b, " %s: %s %s;", loc, f.Rule, f.Message)
	}
	return strings.TrimSuffix(b.String(), ";")
}

// Without returns the findings of e that old does not have (same rule,
// path and message; lines may have moved), or nil when none is left.
func (e *ErrorsFound) Without(old *ErrorsFound) *ErrorsFound {
	if old == nil {
		return e
	}
	type key struct{ rule, path, msg string }
	had := map[key]int{}
	for _, f := range old.Findings {
		had[key{f.Rule, f.Path, f.Message}]++
	}
	var left []Finding
	for _, f := range e.Findings {
		k := key{f.Rule, f.Path, f.Message}
		if had[k] > 0 {
			had[k]--
			continue
		}
		left = append(left, f)
	}
	if len(left) == 0 {
		return nil
	}
	return &ErrorsFound{Findings: left}
}

// GateFor lints the skill folders dirs of fsys (a tree a write or a merge
// would produce) with the library's lint settings (its config's lint:
// section with its runtime's profile; the zero Config for defaults) and
// returns *ErrorsFound when any finding is an error, so a write is held
// to the rules of the agent that reads the library. Folders that no
// longer hold a skill (a delete) are fine.
func GateFor(fsys fs.FS, dirs []string, cfg Config) error {
	var present []string
	for _, d := range dirs {
		if _, err := fs.Stat(fsys, d); err == nil {
			present = append(present, d)
		}
	}
	if len(present) == 0 {
		return nil
	}
	dirs = present
	rep, err := Check(fsys, Options{Paths: dirs, Config: cfg, AllowEmpty: true})
	if err != nil {
		return err
	}
	var errs []Finding
	for _, f := range rep.Findings {
		if f.Severity == Error {
			errs = append(errs, f)
		}
	}
	if len(errs) > 0 {
		return &ErrorsFound{Findings: errs}
	}
	return nil
}
