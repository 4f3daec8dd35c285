package lint

import (
	"regexp"
	"strings"
	"testing"
)

// TestNameHintsPassTheNameRules checks the hints of the name rules: each
// names the fix a person would make, and every name a hint suggests passes
// every name rule when used for both the folder and the name (a hint that
// suggests broken_skill for Broken_Skill only trades one error for the next).
func TestNameHintsPassTheNameRules(t *testing.T) {
	long := strings.Repeat("A", 70)
	tests := []struct {
		folder, front string
		rule, hint    string
	}{
		{"broken_skill", "name: Broken_Skill", "name-uppercase", "use broken-skill"},
		{"broken_skill", "name: Broken_Skill", "name-invalid-chars", "use lowercase letters, digits and single hyphens, e.g. broken-skill"},
		{"broken_skill", "name: Broken_Skill", "name-dir-mismatch", "rename the folder and the name to broken-skill"},
		{"my_skill", "name: my-skill", "name-dir-mismatch", "rename the folder to my-skill"},
		{"my-skill", "name: My_Skill", "name-dir-mismatch", "set the name to my-skill"},
		{"demo", "name: other", "name-dir-mismatch", "rename the folder to other or the name to demo"},
		{"-demo", "name: -demo", "name-hyphen-edge", "use demo"},
		{"de--mo", "name: de--mo", "name-consecutive-hyphens", "use de-mo"},
		{"Café", "name: Café", "name-uppercase", "use cafe"},
		{"My_Folder", "name:\n  - x", "name-type", "write name: my-folder"},
		{"___", "name: ___", "name-invalid-chars", "use lowercase letters, digits and single hyphens"},
		{"x", "name: ___", "name-dir-mismatch", "set the name to x"},
		{"___", "name: 日本", "name-dir-mismatch", "give the folder and the name one name of lowercase a-z, 0-9 and single hyphens"},
		{long, "name: " + long, "name-uppercase", "use " + strings.Repeat("a", 64)},
	}
	suggested := regexp.MustCompile(`(?:use|to|e\.g\.|name:) ([a-z0-9-]+)(?: |$)`)
	for _, tt := range tests {
		t.Run(tt.rule+"/"+tt.folder, func(t *testing.T) {
			rep := check(t, map[string]string{tt.folder + "/SKILL.md": skillMD(tt.front+"\ndescription: Use when testing hints.\n", "x\n")}, Options{})
			got := hits(rep, tt.rule)
			if len(got) != 1 {
				t.Fatalf("%s: %d findings, want 1: %+v", tt.rule, len(got), rep.Findings)
			}
			if got[0].Hint != tt.hint {
				t.Errorf("hint = %q, want %q", got[0].Hint, tt.hint)
			}
			for _, m := range suggested.FindAllStringSubmatch(got[0].Hint, -1) {
				name := m[1]
				again := check(t, map[string]string{name + "/SKILL.md": skillMD("name: "+name+"\ndescription: Use when testing hints.\n", "x\n")}, Options{})
				for _, f := range again.Findings {
					if strings.HasPrefix(f.Rule, "name-") {
						t.Errorf("the suggested name %q gets %s: %s", name, f.Rule, f.Message)
					}
				}
			}
		})
	}
}
