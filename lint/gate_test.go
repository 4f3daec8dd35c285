package lint

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func TestGate(t *testing.T) {
	fsys := fstest.MapFS{
		"good/SKILL.md":        {Data: []byte("---\nname: good\ndescription: Use when testing the gate.\n---\n# Good\nSee [r](references/r.md).\n")},
		"good/references/r.md": {Data: []byte("r\n")},
		"bad/SKILL.md":         {Data: []byte("---\nname: bad\ndescription: Use when testing the gate.\n---\n# Bad\nSee [missing](references/missing.md).\n")},
	}
	if err := GateFor(fsys, []string{"good", "gone"}, Config{}); err != nil {
		t.Errorf("clean tree refused: %v", err)
	}
	err := GateFor(fsys, []string{"bad"}, Config{})
	var ef *ErrorsFound
	if !errors.As(err, &ef) || !strings.Contains(err.Error(), "references/missing.md") {
		t.Fatalf("Gate = %v, want the dangling link", err)
	}
	// The library's settings apply: a disabled rule does not gate.
	if err := GateFor(fsys, []string{"bad"}, Config{Disable: []string{ef.Findings[0].Rule}}); err != nil {
		t.Errorf("disabled rule still gates: %v", err)
	}
}
