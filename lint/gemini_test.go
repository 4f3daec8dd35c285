package lint

import (
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// Gemini CLI's profile follows its loader: a name it would rename, a
// description on several lines and a skill in a category folder (which
// it never reads) are found; what it does not enforce (lowercase names,
// unknown fields) is not; a byte order mark, which makes it skip the
// file, is an error.
func TestGeminiProfile(t *testing.T) {
	body := "# Demo\n\nDo the thing.\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		paths []string
		rule  string
		level Severity // Off: must not fire
	}{
		{"a renamed name", map[string]string{"a-b/SKILL.md": skillMD("name: \"a:b\"\ndescription: Use when testing.\n", body)}, nil, "name-renamed", Error},
		{"a plain name", map[string]string{"demo/SKILL.md": skillMD(okFront, body)}, nil, "name-renamed", Off},
		{"a literal block description", map[string]string{"demo/SKILL.md": skillMD("name: demo\ndescription: |\n  Use when testing.\n  Second line.\n", body)}, nil, "description-multiline", Error},
		{"a folded description is one line", map[string]string{"demo/SKILL.md": skillMD("name: demo\ndescription: >\n  Use when testing\n  the linter.\n", body)}, nil, "description-multiline", Off},
		{"a category folder", map[string]string{"devops/demo/SKILL.md": skillMD(okFront, body)}, nil, "skill-depth", Warning},
		{"a library's own skill", map[string]string{"demo/SKILL.md": skillMD(okFront, body)}, nil, "skill-depth", Off},
		{"depth counts from the library", map[string]string{
			"project/.gemini/skills/.skillrepo/config.yaml": "runtime: gemini\n",
			"project/.gemini/skills/demo/SKILL.md":          skillMD(okFront, body),
		}, nil, "skill-depth", Off},
		{"uppercase is Gemini's business", map[string]string{"Demo/SKILL.md": skillMD("name: Demo\ndescription: Use when testing.\n", body)}, nil, "name-uppercase", Off},
		{"unknown fields are ignored", map[string]string{"demo/SKILL.md": skillMD(okFront+"color: blue\n", body)}, nil, "field-unknown", Off},
		{"a byte order mark hides the skill", map[string]string{"demo/SKILL.md": "\ufeff" + skillMD(okFront, body)}, nil, "bom", Error},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := check(t, tc.files, Options{Profile: ProfileGemini, Paths: tc.paths})
			got := hits(rep, tc.rule)
			switch {
			case tc.level == Off && len(got) > 0:
				t.Errorf("%s fired: %+v", tc.rule, got)
			case tc.level != Off && (len(got) == 0 || got[0].Severity != tc.level):
				t.Errorf("%s: %+v, want one at %s", tc.rule, got, tc.level)
			}
			// The other profiles never apply Gemini CLI's rules.
			for _, p := range []Profile{ProfileSpec, ProfileClaudeCode, ProfileCodex, ProfileHermes} {
				if tc.rule == "name-renamed" || tc.rule == "description-multiline" || tc.rule == "skill-depth" {
					if got := hits(check(t, tc.files, Options{Profile: p}), tc.rule); len(got) > 0 {
						t.Errorf("profile %s: %s fired", p, tc.rule)
					}
				}
			}
		})
	}
	if ProfileFor(skill.Gemini) != ProfileGemini {
		t.Error("the gemini runtime's profile")
	}
}
