package promptindex

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/hermeshome"
	"github.com/skillrepo/skillrepo/internal/testenv"
	"github.com/skillrepo/skillrepo/skillrepo"
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
			opts := openOpts(testenv.Env(t.TempDir()))
			lib := filepath.Join(t.TempDir(), "lib")
			copySkillDirs(t, dir, lib)
			if _, err := skillrepo.Init(context.Background(), lib, skillrepo.InitOptions{OpenOptions: opts}); err != nil {
				t.Fatal(err)
			}
			l, err := skillrepo.Open(lib, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			res, err := Render(l, Options{Format: XML})
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

func openOpts(env map[string]string) skillrepo.OpenOptions {
	return skillrepo.OpenOptions{
		Getenv:      func(k string) string { return env[k] },
		Now:         func() time.Time { return time.Unix(1764500000, 0).UTC() },
		LockTimeout: 200 * time.Millisecond,
	}
}

// initHermesSkills copies the Hermes home fixture and opens its skills
// folder as a library.
func initHermesSkills(t *testing.T) *skillrepo.Library {
	t.Helper()
	env := testenv.Env(t.TempDir())
	home := hermeshome.Copy(t)
	env["HOME"] = filepath.Dir(home)
	opts := openOpts(env)
	opts.Now = func() time.Time { return hermeshome.Now }
	skills := filepath.Join(home, "skills")
	if _, err := skillrepo.Init(context.Background(), skills, skillrepo.InitOptions{OpenOptions: opts}); err != nil {
		t.Fatal(err)
	}
	l, err := skillrepo.Open(skills, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
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

// TestHermesIndexMatchesReference: the hermes index of the Hermes home is
// byte for byte what Hermes 0.19.0's build_skills_system_prompt rendered
// for the same folder (testdata/hermes-0.19.0-index-*.txt, Hermes' own
// output): its instructions around the index, a top-level skill filed
// under its own folder, the category's DESCRIPTION.md, archived and
// other-platform skills left out.
func TestHermesIndexMatchesReference(t *testing.T) {
	l := initHermesSkills(t)
	for _, platform := range []string{"linux", "darwin"} {
		want, err := os.ReadFile("testdata/hermes-0.19.0-index-" + platform + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		res, err := Render(l, Options{Format: Hermes, Platform: platform})
		if err != nil {
			t.Fatal(err)
		}
		if res.Text != string(want) {
			t.Errorf("%s index:\n%s\nwant (Hermes 0.19.0):\n%s", platform, res.Text, want)
		}
	}
	// A skill without a description is listed by name (the other formats
	// leave it out: the Agent Skills format requires one).
	md := filepath.Join(l.Root, "note-taking", "SKILL.md")
	os.WriteFile(md, []byte("---\nname: note-taking\ndescription: \"\"\n---\n# Notes\n"), 0o644)
	if _, err := l.Sync(context.Background(), skillrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := Render(l, Options{Format: Hermes, Platform: "linux"})
	if err != nil || !strings.Contains(res.Text, "  note-taking:\n    - note-taking\n") {
		t.Errorf("a description-less skill: %v\n%s", err, res.Text)
	}
}

// A SKILL.md our parser refuses is listed in the hermes index as Hermes'
// parse_frontmatter reads it (docs/reference-behaviour.md §8.1): YAML that
// does not parse falls back to "key: value" lines, so an unquoted colon
// keeps its description; no frontmatter, or an unclosed one, lists the
// folder's name alone. The other formats still leave them out.
func TestHermesIndexListsWhatHermesParses(t *testing.T) {
	l := initHermesSkills(t)
	files := map[string]string{
		"devops/deploy-colon/SKILL.md": "---\nname: deploy-colon\ndescription: Use when: deploying a service\n---\n# Deploy\n",
		"devops/plain/SKILL.md":        "# Plain\n\nNo frontmatter at all.\n",
		"devops/unclosed/SKILL.md":     "---\nname: other-name\ndescription: never closed\n# Unclosed\n",
	}
	for p, c := range files {
		full := filepath.Join(l.Root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Sync(context.Background(), skillrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := Render(l, Options{Format: Hermes, Platform: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	want := "    - ci-debugging: Use when a CI job fails and the cause is unclear.\n" +
		"    - deploy-colon: Use when: deploying a service\n" +
		"    - docker-cleanup: Use when Docker images and volumes fill the disk.\n" +
		"    - plain\n" +
		"    - unclosed\n"
	if !strings.Contains(res.Text, want) {
		t.Errorf("hermes index:\n%s\nwant the devops lines:\n%s", res.Text, want)
	}
	xml, err := Render(l, Options{Format: XML})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(xml.Text, "deploy-colon") || len(xml.Skipped) < 3 {
		t.Errorf("xml lists what the Agent Skills format refuses: %d skipped\n%s", len(xml.Skipped), xml.Text)
	}
}
