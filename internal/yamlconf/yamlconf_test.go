package yamlconf

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

type inner struct {
	Count int      `yaml:"count" check:"min=1,max=9"`
	Names []string `yaml:"names" check:"lower"`
	Mode  string   `yaml:"mode" check:"oneof=fast|slow"`
}

type schema struct {
	Version int               `yaml:"version" check:"oneof=1"`
	On      bool              `yaml:"on"`
	Name    string            `yaml:"name" check:"lower"`
	Inner   inner             `yaml:"inner"`
	Levels  map[string]string `yaml:"levels" keys:"lower" check:"oneof=low|high"`
	Wait    wait              `yaml:"wait"`
	Hidden  string            `yaml:"-"`
}

// wait decodes itself, as a section another package owns does.
type wait time.Duration

func (w *wait) UnmarshalYAML(n *yaml.Node) error {
	d, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("want a duration, got %q", n.Value)
	}
	*w = wait(d)
	return nil
}

var lower = Decoder{Checks: map[string]Check{"lower": func(s string) (string, error) {
	if s != strings.ToLower(s) {
		return "", hinted{"want lowercase", "write " + strings.ToLower(s)}
	}
	return s, nil
}}}

type hinted struct{ msg, hint string }

func (h hinted) Error() string { return h.msg }
func (h hinted) Hint() string  { return h.hint }

func defaults() schema {
	return schema{Version: 1, On: true, Name: "def", Inner: inner{Count: 3, Mode: "fast"}, Wait: wait(time.Second)}
}

func decode(t *testing.T, text string) (schema, Errors) {
	t.Helper()
	n, err := Parse([]byte(text))
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	s := defaults()
	return s, lower.Decode(n, &s, "")
}

func TestDecodeGood(t *testing.T) {
	s, errs := decode(t, "version: 1\non: false\nname: x\ninner:\n  count: 9\n  names: [a, b]\n  mode: slow\nlevels:\n  a: low\nwait: 2m\n")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := schema{Version: 1, On: false, Name: "x", Inner: inner{Count: 9, Names: []string{"a", "b"}, Mode: "slow"}, Levels: map[string]string{"a": "low"}, Wait: wait(2 * time.Minute)}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("decoded %+v\nwant    %+v", s, want)
	}
	// Keys left out, or given no value, keep their defaults.
	s, errs = decode(t, "name:\ninner: {}\n")
	if len(errs) > 0 || !reflect.DeepEqual(s, defaults()) {
		t.Errorf("decoded %+v, %v; want the defaults", s, errs)
	}
	for _, empty := range []string{"", "# only a comment\n", "~\n"} {
		n, err := Parse([]byte(empty))
		if n != nil || err != nil {
			t.Errorf("Parse(%q) = %v, %v; want nothing", empty, n, err)
		}
	}
}

func TestDecodeProblems(t *testing.T) {
	for _, tc := range []struct {
		text, want, hint string
	}{
		{"versoin: 1\n", "line 1: versoin: unknown key", "did you mean version? the keys of the top level are version, on, name, inner, levels, wait"},
		{"inner:\n  cuont: 2\n", "line 2: inner.cuont: unknown key", "did you mean count? the keys of inner are count, names, mode"},
		{"zzz: 1\n", "line 1: zzz: unknown key", "the keys of the top level are"},
		{"Hidden: x\n", "line 1: Hidden: unknown key", ""},
		{"on: yes\n", `line 1: on: want true or false, got "yes"`, ""},
		{"version: 2\n", `line 1: version: want 1, got "2"`, ""},
		{"version: one\n", `line 1: version: want a whole number, got "one"`, ""},
		{"inner:\n  count: 0\n", "line 2: inner.count: want 1 or more, got 0", ""},
		{"inner:\n  count: 10\n", "line 2: inner.count: want 9 or less, got 10", ""},
		{"inner:\n  count: 1.5\n", `line 2: inner.count: want a whole number, got "1.5"`, ""},
		{"inner:\n  mode: warp\n", `line 2: inner.mode: want fast or slow, got "warp"`, ""},
		{"inner:\n  names: a\n", `line 2: inner.names: want a list`, ""},
		{"inner:\n  names: [a, B]\n", "line 2: inner.names[1]: want lowercase", "write b"},
		{"inner: [1]\n", "line 1: inner: want a mapping of keys (key: value), got a list", ""},
		{"name: X\n", "line 1: name: want lowercase", "write x"},
		{"name: [x]\n", "line 1: name: want text, got a list", ""},
		{"levels:\n  A: low\n", "line 2: levels.A: want lowercase", ""},
		{"levels:\n  a: mid\n", `line 2: levels.a: want low or high, got "mid"`, ""},
		{"wait: soon\n", `line 1: wait: want a duration, got "soon"`, ""},
		{"name: a\nname: b\n", "line 2: name: set twice (first at line 1)", "keep one of the two"},
	} {
		s, errs := decode(t, tc.text)
		if len(errs) != 1 || errs[0].Error() != tc.want && !strings.HasPrefix(errs[0].Error(), tc.want) {
			t.Errorf("%q: problems %q, want one: %q", tc.text, errs, tc.want)
			continue
		}
		if !strings.HasPrefix(errs[0].Hint, tc.hint) {
			t.Errorf("%q: hint %q, want %q", tc.text, errs[0].Hint, tc.hint)
		}
		// The problem's key keeps its default; nothing else moved.
		if tc.text != "name: a\nname: b\n" && !reflect.DeepEqual(s, defaults()) {
			t.Errorf("%q: a bad value changed the config: %+v", tc.text, s)
		}
	}
}

// Every problem of a file is reported, in order, and the keys that are
// right are decoded.
func TestDecodeReportsEveryProblem(t *testing.T) {
	s, errs := decode(t, "on: maybe\nname: ok\ninner:\n  count: -1\n  mode: slow\nextra: 1\n")
	var lines []int
	for _, e := range errs {
		lines = append(lines, e.Line)
	}
	if fmt.Sprint(lines) != "[1 4 6]" {
		t.Errorf("problems at lines %v (%v), want [1 4 6]", lines, errs)
	}
	if s.Name != "ok" || s.Inner.Mode != "slow" || !s.On || s.Inner.Count != 3 {
		t.Errorf("decoded %+v", s)
	}
	if got := errs.Error(); strings.Count(got, "\n") != 2 {
		t.Errorf("Errors.Error() = %q, want one line a problem", got)
	}
}

func TestParseProblems(t *testing.T) {
	for text, want := range map[string]string{
		"a: b\n  c: d\n": "line 2: not valid YAML: mapping values are not allowed in this context",
		"- a\n- b\n":     "line 1: want a mapping of keys (key: value), got a list",
		"just text\n":    `line 1: want a mapping of keys (key: value), got "just text"`,
		"a: [b\n":        "line 1: not valid YAML",
		"a: 'unclosed\n": "line 2: not valid YAML", // where the file ends
		// Issue 40 item 12: a second document was ignored silently.
		"review:\n  model: a\n---\nreview:\n  base_url: http://x\n": "line 3: a second YAML document (after a --- line)",
		"a: b\n---\n- c\n": "line 2: a second YAML document",
	} {
		_, err := Parse([]byte(text))
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(e.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", text, err, want)
		}
	}
}

// One document, with or without its --- and ... markers, is one.
func TestParseOneDocument(t *testing.T) {
	for _, text := range []string{"", "---\na: b\n", "a: b\n...\n", "# only a comment\n"} {
		if _, err := Parse([]byte(text)); err != nil {
			t.Errorf("Parse(%q): %v", text, err)
		}
	}
}

// An alias decodes as what it names.
func TestDecodeAlias(t *testing.T) {
	s, errs := decode(t, "name: &n abc\ninner:\n  names: [*n]\n")
	if len(errs) > 0 || s.Inner.Names[0] != "abc" {
		t.Errorf("%+v %v", s, errs)
	}
}
