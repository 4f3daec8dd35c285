package lint

import "testing"

func TestErrorsFoundWithout(t *testing.T) {
	f := func(rule, path, msg string, line int) Finding {
		return Finding{Rule: rule, Path: path, Message: msg, Line: line, Severity: Error}
	}
	before := &ErrorsFound{Findings: []Finding{f("name-dir-mismatch", "a/SKILL.md", "m", 2), f("link-dangling", "a/SKILL.md", "x", 9)}}
	cases := []struct {
		name  string
		after []Finding
		want  int // findings left; -1: nil
	}{
		{"only old errors, lines moved", []Finding{f("name-dir-mismatch", "a/SKILL.md", "m", 3), f("link-dangling", "a/SKILL.md", "x", 12)}, -1},
		{"one new error", []Finding{f("name-dir-mismatch", "a/SKILL.md", "m", 2), f("link-dangling", "a/SKILL.md", "y", 5)}, 1},
		{"an old error twice counts once", []Finding{f("link-dangling", "a/SKILL.md", "x", 9), f("link-dangling", "a/SKILL.md", "x", 20)}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := (&ErrorsFound{Findings: c.after}).Without(before)
			switch {
			case c.want == -1 && got != nil:
				t.Fatalf("got %v, want nil", got.Findings)
			case c.want >= 0 && (got == nil || len(got.Findings) != c.want):
				t.Fatalf("got %v, want %d findings", got, c.want)
			}
		})
	}
	if got := (&ErrorsFound{Findings: before.Findings}).Without(nil); len(got.Findings) != 2 {
		t.Fatal("Without(nil) dropped findings")
	}
}
