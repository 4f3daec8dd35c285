package skillrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/skillrepo/skillrepo/lint"
)

// The verification of the write policy (policy.go): the lint gate every
// write and every approval passes, with one rule for every door.

// GateError is the lint gate's refusal: the lint errors a write or an
// approval would add to the skills it touches. It unwraps to the
// *lint.ErrorsFound and matches ErrRefused.
type GateError struct {
	Found *lint.ErrorsFound
	hint  string
}

func (e *GateError) Error() string { return e.Found.Error() }
func (e *GateError) Unwrap() error { return e.Found }

// Is makes errors.Is(err, ErrRefused) true: the gate refuses the write.
func (e *GateError) Is(target error) bool { return target == ErrRefused }

// Hint says how to go on: for a link to a file the write does not bring,
// how to write a skill and its files together.
func (e *GateError) Hint() string { return e.hint }

// linkRules are the lint rules of a link or path to a file that is not
// there.
var linkRules = map[string]bool{"link-dangling": true, "path-dangling": true}

// batchHint is the one sentence that teaches the order of a skill and the
// files it links: a write is checked where it lands, so a SKILL.md that
// links a file must arrive with it.
const batchHint = "a skill and the files it links land together: send the create (or patch) and a write_file for each linked file in one batch (skill_manage operations=[…], or skillrepo skill apply)"

// gate lints the skill folders dirs of fsys under the library's profile
// (its config's, else its runtime's) and returns *lint.ErrorsFound when
// any finding is an error.
func (l *Library) gate(fsys fs.FS, dirs []string) error {
	return lint.GateFor(fsys, dirs, l.Config.LintSettings())
}

// LintErrors are the lint errors of the skill folders dirs of fsys under
// the library's profile, for a writer that reports them rather than
// refusing for them: the curator's note of the links a move_file left in
// the skill it emptied.
func (p *Policy) LintErrors(fsys fs.FS, dirs []string) []lint.Finding {
	return p.l.lintErrors(fsys, dirs)
}

func (l *Library) lintErrors(fsys fs.FS, dirs []string) []lint.Finding {
	var found *lint.ErrorsFound
	if errors.As(l.gate(fsys, dirs), &found) {
		return found.Findings
	}
	return nil
}

// lintErrorLines are lintErrors one line each ("path:line: rule
// message"), as a sync records them.
func (l *Library) lintErrorLines(fsys fs.FS, dirs []string) []string {
	var out []string
	for _, fd := range l.lintErrors(fsys, dirs) {
		loc := fd.Path
		if fd.Line > 0 {
			loc = fmt.Sprintf("%s:%d", fd.Path, fd.Line)
		}
		out = append(out, fmt.Sprintf("%s: %s %s", loc, fd.Rule, fd.Message))
	}
	return out
}

// gateAgainst is the gate of a tree against the one it replaces (before,
// read only when the tree has errors; nil when there was none): errors
// the skills already had there do not block; new ones are a *GateError.
func (l *Library) gateAgainst(after fs.FS, before func() fs.FS, dirs []string) error {
	err := l.gate(after, dirs)
	var found *lint.ErrorsFound
	if !errors.As(err, &found) {
		return err
	}
	if old := before(); old != nil {
		var had *lint.ErrorsFound
		if errors.As(l.gate(old, dirs), &had) {
			if found = found.Without(had); found == nil {
				return nil
			}
		}
	}
	return &GateError{Found: found}
}

// dangling reports whether the gate's errors include a link or a path to
// a file that is not there.
func (e *GateError) dangling() bool {
	for _, f := range e.Found.Findings {
		if linkRules[f.Rule] {
			return true
		}
	}
	return false
}

// LintGate is the write policy's lint gate of a tree (after) that
// replaces revision before ("" or a missing revision: nothing before) on
// the skill folders dirs: a *GateError with the lint errors it adds, nil
// when it adds none. For a door that lands several writes at once and
// decides by the whole (the curator's run).
func (l *Library) LintGate(after fs.FS, before string, dirs []string) error {
	return l.gateAgainst(after, func() fs.FS {
		if before == "" {
			return nil
		}
		snap, err := l.Snapshot(before)
		if err != nil {
			return nil
		}
		return snap.FS()
	}, dirs)
}

// verifier is the check of the tree a write produces: the lint gate
// against base (a person's Force skips it), then the writer's own
// integrity check.
func (p *Policy) verifier(base func() string) func(fsys fs.FS, dirs []string) error {
	return func(fsys fs.FS, dirs []string) error {
		if !p.w.Force {
			before := func() fs.FS {
				if snap, err := p.l.Snapshot(base()); err == nil {
					return snap.FS()
				}
				return nil
			}
			if err := p.l.gateAgainst(fsys, before, dirs); err != nil {
				var ge *GateError
				if errors.As(err, &ge) {
					var hints []string
					if p.w.Provenance.Origin == OriginUser {
						hints = append(hints, "fix the findings, or write anyway with --force")
					}
					if ge.dangling() {
						hints = append(hints, batchHint)
					}
					ge.hint = strings.Join(hints, "\n")
				}
				return err
			}
		}
		if p.w.Integrity != nil {
			return p.w.Integrity(fsys, dirs)
		}
		return nil
	}
}
