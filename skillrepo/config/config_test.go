package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// The file init writes means exactly the defaults.
func TestDefaultConfigFile(t *testing.T) {
	cfg, err := Parse([]byte(DefaultYAML), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Runtime = skill.Generic
	want.Curator.ScheduledSkills = []string{} // the file lists none
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("init's file parses to\n%+v\nwant the defaults\n%+v", cfg, want)
	}
	// No file is the defaults too, with the runtime the path suggests.
	cfg, err = Parse(nil, filepath.Join(t.TempDir(), ".claude", "skills"))
	if err != nil || cfg.Runtime != skill.Claude || cfg.Review != Default().Review {
		t.Errorf("no file: %+v, %v", cfg, err)
	}
}

// The example of docs/config.md sets every key of the schema to a value
// other than its default, and parses: the page describes the file as it
// is, and no key is left out of it.
func TestConfigDocsCoverEveryKey(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## 8\\. Every key at once.*?```yaml\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/config.md has no example under \"## 8. Every key at once\"")
	}
	cfg, err := Parse(m[1], t.TempDir())
	if err != nil {
		t.Fatalf("the example of docs/config.md does not parse:\n%v", err)
	}
	var walk func(path string, got, def reflect.Value)
	walk = func(path string, got, def reflect.Value) {
		typ := got.Type()
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if key == "" || key == "-" {
				continue
			}
			key = strings.TrimPrefix(path+"."+key, ".")
			g, d := got.Field(i), def.Field(i)
			if f.Type.Kind() == reflect.Struct && !reflect.PointerTo(f.Type).Implements(reflect.TypeFor[yaml.Unmarshaler]()) {
				walk(key, g, d)
				continue
			}
			if !strings.Contains(string(doc), "`"+key[strings.LastIndex(key, ".")+1:]+"`") {
				t.Errorf("docs/config.md has no row for %s", key)
			}
			if reflect.DeepEqual(g.Interface(), d.Interface()) && key != "version" { // version has one value
				t.Errorf("the example of docs/config.md leaves %s at its default", key)
			}
		}
	}
	def := Default()
	def.Runtime = skill.DetectRuntime(t.TempDir())
	walk("", reflect.ValueOf(cfg), reflect.ValueOf(def))
	if cfg.LintSettings().Profile != lint.ProfileHermes || cfg.Review.DeferQuiet != Duration(20*time.Second) || cfg.Review.RetryBackoff != Duration(45*time.Second) {
		t.Errorf("decoded %+v", cfg)
	}
}

func TestParseConfigProblems(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string // the problems, in order
		hint string   // in the hint
	}{
		{"curator:\n  intervl_hours: 24\n", []string{".skillrepo/config.yaml:2: curator.intervl_hours: unknown key"}, "did you mean interval_hours?"},
		{"review:\n  write_approval: ture\n", []string{`.skillrepo/config.yaml:2: review.write_approval: want true or false, got "ture"`}, ""},
		{"review:\n  memory_interval: -1\n  skill_interval: ten\n", []string{
			".skillrepo/config.yaml:2: review.memory_interval: want 0 or more, got -1",
			`.skillrepo/config.yaml:3: review.skill_interval: want a whole number, got "ten"`}, ""},
		{"review:\n  base_url: ftp://models\n", []string{".skillrepo/config.yaml:2: review.base_url: base URL ftp://models: the scheme must be http or https"}, ""},
		{"review:\n  defer_quiet: soon\n", []string{`.skillrepo/config.yaml:2: review.defer_quiet: want a duration such as 15s`}, "a number with a unit"},
		{"review:\n  max_attempts: 0\n", []string{".skillrepo/config.yaml:2: review.max_attempts: want 1 or more, got 0"}, ""},
		{"version: 2\n", []string{".skillrepo/config.yaml:1: version: version 2 is not one this skillrepo reads (1)"}, "upgrade skillrepo"},
		{"main_branch: my branch\n", []string{`.skillrepo/config.yaml:1: main_branch: "my branch" is not a branch name`}, ""},
		{"runtime: vim\n", []string{`.skillrepo/config.yaml:1: runtime: unknown runtime "vim"`}, ""},
		{"memory:\n  dir: ''\n", []string{".skillrepo/config.yaml:2: memory.dir: want a name, got nothing"}, ""},
		{"goals:\n  modle: x\n", []string{".skillrepo/config.yaml:2: goals.modle: unknown key"}, "did you mean model?"},
		{"lint:\n  rules:\n    no-such-rule: off\n", []string{`.skillrepo/config.yaml:3: lint.rules.no-such-rule: unknown rule "no-such-rule"`}, ""},
		{"protected: house-style\n", []string{".skillrepo/config.yaml:1: protected: want a list"}, ""},
		{"review:\n  model: a\n model: b\n", []string{".skillrepo/config.yaml:2: not valid YAML"}, "indentation"},
		{"reveiw:\n  model: a\n", []string{".skillrepo/config.yaml:1: reveiw: unknown key"}, "did you mean review?"},
	} {
		cfg, err := Parse([]byte(tc.text), t.TempDir())
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("%q: %v, want a *Error", tc.text, err)
			continue
		}
		got := strings.Split(ce.Error(), "\n")
		if len(got) != len(tc.want) {
			t.Errorf("%q: problems\n%s\nwant %d", tc.text, ce, len(tc.want))
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tc.want[i]) {
				t.Errorf("%q: problem %q, want %q", tc.text, got[i], tc.want[i])
			}
		}
		if !strings.Contains(ce.Hint(), tc.hint) || !strings.Contains(ce.Hint(), "docs/config.md") {
			t.Errorf("%q: hint %q, want %q and the docs", tc.text, ce.Hint(), tc.hint)
		}
		// What was wrong keeps its default.
		if cfg.Review.MemoryInterval != 10 || cfg.Curator.IntervalHours != 168 || cfg.Version != 1 || cfg.MainBranch != "main" {
			t.Errorf("%q: a bad value reached the config: %+v", tc.text, cfg)
		}
	}
	// The keys that are right are kept beside one that is not.
	cfg, err := Parse([]byte("review:\n  model: m1\n  max_attempts: x\ncurator:\n  interval_hours: 12\n"), t.TempDir())
	if err == nil || cfg.Review.Model != "m1" || cfg.Curator.IntervalHours != 12 || cfg.Review.MaxAttempts != 5 {
		t.Errorf("partial config: %+v, %v", cfg, err)
	}
}
