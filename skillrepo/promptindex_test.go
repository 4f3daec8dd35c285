package skillrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// skillsRefCases holds the prompt cases of the skills-ref conformance data
// (Apache-2.0; see its NOTICE).
const skillsRefCases = "testdata/skills-ref"

// TestIndexXMLMatchesSkillsRef runs every prompt-* case of the reference
// validator's own suite: the library made from the case's skill folders
// must render exactly the output recorded from skills-ref to_prompt (plus
// the newline its CLI's echo adds).
func TestIndexXMLMatchesSkillsRef(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join(skillsRefCases, "prompt-*"))
	if len(cases) != 4 {
		t.Fatalf("%d prompt cases in %s, want the 4 of skills-ref's suite", len(cases), skillsRefCases)
	}
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want := expectedPromptOutput(t, filepath.Join(dir, "expected.txt"))
			env := testEnv(t)
			lib := filepath.Join(t.TempDir(), "lib")
			copySkillDirs(t, dir, lib)
			if _, err := Init(context.Background(), lib, InitOptions{OpenOptions: openOpts(env)}); err != nil {
				t.Fatal(err)
			}
			l, err := Open(lib, openOpts(env))
			if err != nil {
				t.Fatal(err)
			}
			defer l.repo.Close()
			res, err := l.PromptIndex(IndexOptions{Format: IndexXML})
			if err != nil {
				t.Fatal(err)
			}
			root, _ := filepath.EvalSymlinks(lib)
			want = strings.ReplaceAll(want, "<CASE_DIR>", root) + "\n"
			if res.Text != want {
				t.Errorf("index:\n%s\nwant:\n%s", res.Text, want)
			}
		})
	}
}

// expectedPromptOutput reads the "exact output" block of a case's
// expected.txt (lines indented six spaces).
func expectedPromptOutput(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if !strings.Contains(l, "exact output") {
			continue
		}
		var out []string
		for _, b := range lines[i+1:] {
			if !strings.HasPrefix(b, "      ") {
				break
			}
			out = append(out, strings.TrimPrefix(b, "      "))
		}
		return strings.Join(out, "\n")
	}
	t.Fatalf("%s: no exact output block", p)
	return ""
}

// copySkillDirs copies a case's skill folders (everything but
// expected.txt) into dst.
func copySkillDirs(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "." || rel == "expected.txt" {
			return nil
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestHermesDescriptionAndEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"short", "short"},
		{`"quoted"`, "quoted"},
		{strings.Repeat("a", 60), strings.Repeat("a", 60)},
		{strings.Repeat("a", 61), strings.Repeat("a", 57) + "..."},
		{strings.Repeat("é", 61), strings.Repeat("é", 57) + "..."},
	} {
		if got := hermesDescription(tc.in); got != tc.want {
			t.Errorf("hermesDescription(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := pyHTMLEscape(`a & <b> "c" 'd'`); got != "a &amp; &lt;b&gt; &quot;c&quot; &#x27;d&#x27;" {
		t.Errorf("escape = %q", got)
	}
}
