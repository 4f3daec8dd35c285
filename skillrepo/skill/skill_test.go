package skill

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"pdf-processing", true},
		{"a", true},
		{"v1.2_tool", true},
		{"0day", true},
		{"", false},
		{"PDF", false},
		{"-lead", false},
		{".hidden", false},
		{"has space", false},
		{"a/b", false},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
		{"ünïcode", false},
	}
	for _, tt := range tests {
		err := ValidateName(tt.name)
		if (err == nil) != tt.ok {
			t.Errorf("ValidateName(%q) = %v, want ok=%v", tt.name, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("ValidateName(%q) error does not wrap ErrInvalid", tt.name)
		}
	}
}

func TestValidateCategory(t *testing.T) {
	for _, c := range []string{"", "devops", "ml.ops"} {
		if err := ValidateCategory(c); err != nil {
			t.Errorf("ValidateCategory(%q) = %v", c, err)
		}
	}
	for _, c := range []string{"a/b", `a\b`, "Dev", "-x"} {
		if err := ValidateCategory(c); err == nil {
			t.Errorf("ValidateCategory(%q) accepted", c)
		}
	}
}

func TestValidateSupportPath(t *testing.T) {
	tests := []struct {
		in, want string
		errPart  string
	}{
		{"references/api.md", "references/api.md", ""},
		{"scripts/a/b.sh", "scripts/a/b.sh", ""},
		// A backslash is part of a file name to the reference (Hermes
		// 0.19.0 refuses "templates\t.txt": no such support folder).
		{`templates\t.txt`, "", "must be under one of"},
		{"SKILL.md", "SKILL.md", ""},
		{"references/./x.md", "references/x.md", ""},
		{"", "", "required"},
		{"../x", "", "traversal"},
		{"references/../../etc/passwd", "", "traversal"},
		{"/etc/passwd", "", "absolute"},
		{"C:/x", "", "absolute"},
		{"notes/x.md", "", "must be under one of"},
		{"references", "", "not just a directory"},
		{"references/.git/config", "", ".git"},
		{"README.md", "", "must be under one of"},
	}
	for _, tt := range tests {
		got, err := ValidateSupportPath(tt.in)
		if tt.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Errorf("ValidateSupportPath(%q) = %q, %v; want error containing %q", tt.in, got, err, tt.errPart)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ValidateSupportPath(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestSplitAndParse(t *testing.T) {
	doc, err := Parse([]byte("\ufeff---\nname: demo\ndescription: Use when testing.\nmetadata:\n  a: b\n---\n# Demo\nbody\n"))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Name != "demo" || doc.Description != "Use when testing." {
		t.Errorf("name/description = %q/%q", doc.Name, doc.Description)
	}
	if doc.BodyLine != 7 || doc.Body != "# Demo\nbody\n" {
		t.Errorf("body at %d = %q", doc.BodyLine, doc.Body)
	}
	if _, ok := doc.Fields["metadata"].(map[string]any); !ok {
		t.Errorf("metadata not a map: %#v", doc.Fields["metadata"])
	}
	// A "---" inside a value does not close the frontmatter; "--- " does.
	fm, body, _, err := Split([]byte("---\na: x---y\n---  \nrest"))
	if err != nil || fm != "a: x---y" || body != "rest" {
		t.Errorf("Split = %q %q %v", fm, body, err)
	}
}

// A key written twice keeps its last value, as Hermes' YAML loader (and
// every runtime's) reads it; a nested mapping keeps its own last values.
func TestParseRepeatedKeyKeepsLast(t *testing.T) {
	doc, err := Parse([]byte("---\nname: first\ndescription: Old words.\nname: second\nmetadata:\n  a: 1\n  a: 2\ndescription: New words.\n---\nbody\n"))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Name != "second" || doc.Description != "New words." {
		t.Errorf("name %q, description %q", doc.Name, doc.Description)
	}
	if m, _ := doc.Fields["metadata"].(map[string]any); m["a"] != 2 {
		t.Errorf("metadata %#v", doc.Fields["metadata"])
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in       string
		line     int
		contains string
	}{
		{"# no frontmatter\n", 1, "must start with"},
		{"---\nname: x\n", 1, "not closed"},
		{"---\nname: x\n  bad: [\n---\nbody\n", 0, "invalid YAML"},
		{"---\n- a\n- b\n---\nbody\n", 2, "mapping"},
		{"---\nname: &a [*a]\n---\nbody\n", 0, ""},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		if tt.contains == "" {
			continue // must merely not panic
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v, want *ParseError", tt.in, err)
			continue
		}
		if !strings.Contains(pe.Msg, tt.contains) || (tt.line != 0 && pe.Line != tt.line) {
			t.Errorf("Parse(%q) = line %d %q; want line %d containing %q", tt.in, pe.Line, pe.Msg, tt.line, tt.contains)
		}
	}
}

func TestValidate(t *testing.T) {
	good := "---\nname: demo\ndescription: Use when testing.\n---\n# Demo\n"
	tests := []struct {
		content string
		newSkl  bool
		errPart string
	}{
		{good, true, ""},
		{"", false, "empty"},
		{"   \n", false, "empty"},
		{"---\ndescription: d\n---\nbody\n", false, "'name'"},
		{"---\nname: x\n---\nbody\n", false, "'description'"},
		{"---\nname: x\ndescription: ''\n---\nbody\n", false, "non-empty"},
		{"---\nname: x\ndescription: d\n---\n\n  \n", false, "instructions"},
		{"---\nname: x\ndescription: " + strings.Repeat("d", 61) + "\n---\nbody\n", true, "at most 60"},
		{"---\nname: x\ndescription: " + strings.Repeat("d", 61) + "\n---\nbody\n", false, ""},
		{"---\nname: x\ndescription: " + strings.Repeat("d", 1025) + "\n---\nbody\n", false, "limit is 1024"},
		{good + strings.Repeat("x", MaxContentChars), false, "limit is 100000"},
		{"---\nname: x\ndescription: d\n---\n\xff\xfe\n", false, "UTF-8"},
	}
	for i, tt := range tests {
		_, err := Validate([]byte(tt.content), ValidateOptions{NewSkill: tt.newSkl})
		if tt.errPart == "" {
			if err != nil {
				t.Errorf("%d: Validate = %v", i, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.errPart) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%d: Validate = %v; want error containing %q", i, err, tt.errPart)
		}
	}
}

func TestReplace(t *testing.T) {
	content := "# Title\n\n  - step one\n  - step two\n\nRun   the  tests.\n"
	tests := []struct {
		name     string
		old, new string
		all      bool
		want     string
		n        int
		strategy MatchStrategy
		errPart  string
	}{
		{"exact", "step one", "step 1", false, "# Title\n\n  - step 1\n  - step two\n\nRun   the  tests.\n", 1, MatchExact, ""},
		{"line trimmed, re-indented to the file", "- step one\n- step two", "- merged", false, "# Title\n\n  - merged\n\nRun   the  tests.\n", 1, MatchLineTrimmed, ""},
		{"whitespace", "Run the tests.", "Run go test.", false, "# Title\n\n  - step one\n  - step two\n\nRun go test.\n", 1, MatchWhitespaceNormalize, ""},
		{"ambiguous", "step", "x", false, "", 0, "", "found 2 matches"},
		{"replace all", "step", "x", true, "# Title\n\n  - x one\n  - x two\n\nRun   the  tests.\n", 2, MatchExact, ""},
		{"missing", "nope", "x", false, "", 0, "", "not found"},
		{"empty old", "", "x", false, "", 0, "", "required"},
		{"same", "step one", "step one", false, "", 0, "", "identical"},
		{"delete", "\n\nRun   the  tests.", "", false, "# Title\n\n  - step one\n  - step two\n", 1, MatchExact, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n, st, err := Replace(content, tt.old, tt.new, tt.all)
			if tt.errPart != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errPart) {
					t.Fatalf("err = %v, want %q", err, tt.errPart)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want || n != tt.n || st != tt.strategy {
				t.Errorf("got %q n=%d %s; want %q n=%d %s", got, n, st, tt.want, tt.n, tt.strategy)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: b\n---\nbody\n"))
	f.Add([]byte("---\na: &x [*x, *x]\n---\n"))
	f.Add([]byte("---\n---\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = Validate(b, ValidateOptions{NewSkill: true})
	})
}

func FuzzReplace(f *testing.F) {
	f.Add("a b\n c", "b c", "x", true)
	f.Fuzz(func(t *testing.T, content, old, new string, all bool) {
		_, _, _, _ = Replace(content, old, new, all)
	})
}
