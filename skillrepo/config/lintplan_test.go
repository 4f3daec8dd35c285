package config

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillrepo/skillrepo/lint"
)

func TestPlanLint(t *testing.T) {
	skill := &fstest.MapFile{Data: []byte("---\nname: x\ndescription: d\n---\n")}
	fsys := fstest.MapFS{
		".claude/skills/.skillrepo/config.yaml":               {Data: []byte("lint:\n  rules:\n    file-orphan: error\n")},
		".claude/skills/a/SKILL.md":                           skill,
		".claude/skills/inner/.skillrepo/config.yaml":         {Data: []byte("runtime: hermes\n")}, // the outer library's
		".agents/skills/.skillrepo/config.yaml":               {Data: []byte("lint:\n  profile: spec\n")},
		".agents/skills/b/SKILL.md":                           skill,
		"tools/c/SKILL.md":                                    skill,
		"tools/c/nested/.skillrepo/config.yaml":               {Data: []byte("{}\n")}, // inside a skill: not searched
		"node_modules/pkg/.skillrepo/config.yaml":             {Data: []byte("{}\n")},
		"odd[1]/.skillrepo/config.yaml":                       {Data: []byte("{}\n")},
		"hermes/.hermes/skills/.skillrepo/config.yaml":        {Data: []byte("version: 1\n")},
		"hermes/.hermes/skills/cat/d/SKILL.md":                skill,
		".github/skills/.skillrepo/config.yaml/not-a-file.md": skill, // a folder named config.yaml is no config
	}
	claude := lint.Config{Profile: lint.ProfileClaudeCode, Rules: map[string]lint.Severity{"file-orphan": lint.Error}}
	for _, tc := range []struct {
		name    string
		targets []string
		want    []LintScope
	}{
		{"inside a library", []string{".claude/skills/a"}, []LintScope{
			{Dir: ".claude/skills", Library: true, Settings: claude, Paths: []string{"a"}},
		}},
		{"a library itself", []string{".claude/skills"}, []LintScope{
			{Dir: ".claude/skills", Library: true, Settings: claude, Paths: []string{"."}},
		}},
		{"the project's top", []string{"."}, []LintScope{
			{Dir: ".", Paths: []string{"."}, Settings: lint.Config{Exclude: []string{".agents/skills", ".claude/skills", "hermes/.hermes/skills", `odd\[1]`}}},
			{Dir: ".agents/skills", Library: true, Found: true, Settings: lint.Config{Profile: lint.ProfileSpec}, Paths: []string{"."}},
			{Dir: ".claude/skills", Library: true, Found: true, Settings: claude, Paths: []string{"."}},
			{Dir: "hermes/.hermes/skills", Library: true, Found: true, Settings: lint.Config{Profile: lint.ProfileHermes}, Paths: []string{"."}},
			{Dir: "odd[1]", Library: true, Found: true, Paths: []string{"."}},
		}},
		{"targets grouped by library, missing ones too", []string{"tools/c", ".claude/skills/a", ".claude/skills/gone", "hermes/.hermes/skills/cat"}, []LintScope{
			{Dir: ".", Paths: []string{"tools/c"}},
			{Dir: ".claude/skills", Library: true, Settings: claude, Paths: []string{"a", "gone"}},
			{Dir: "hermes/.hermes/skills", Library: true, Settings: lint.Config{Profile: lint.ProfileHermes}, Paths: []string{"cat"}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PlanLint(fsys, "/work/proj", tc.targets)
			if err != nil {
				t.Fatal(err)
			}
			if got[0].Dir == "." && len(got[0].Settings.Exclude) > 0 && !got[0].Settings.Excluded("odd[1]/x") {
				t.Errorf("the exclude pattern %q does not match its folder", got[0].Settings.Exclude)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("PlanLint(%q) =\n%+v\nwant\n%+v", tc.targets, got, tc.want)
			}
		})
	}
	// A library whose settings do not parse is an error naming it, by
	// its config's path and the problem's line.
	fsys["broken/.skillrepo/config.yaml"] = &fstest.MapFile{Data: []byte("lint:\n  rules:\n    no-such-rule: off\n")}
	if _, err := PlanLint(fsys, "/work/proj", []string{"broken"}); err == nil || !strings.Contains(err.Error(), `broken/.skillrepo/config.yaml:3: lint.rules.no-such-rule: unknown rule "no-such-rule"`) {
		t.Errorf("broken config: %v", err)
	}
}
