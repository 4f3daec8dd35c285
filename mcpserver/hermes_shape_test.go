package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// Hermes' own call shapes reach the server unchanged (docs/reference-behaviour.md
// §4.1): skill_manage with the fields of one operation at the top level, as
// Hermes' schema has them, and null for the optional arguments a
// strict-mode provider sends.
func TestHermesFlatShape(t *testing.T) {
	f := newFixture(t)
	m := f.ok("skill_manage", create("flat-one"))
	if m["operations_applied"] != float64(1) {
		t.Errorf("flat create: %v", m)
	}
	if got := f.git("show", "main:flat-one/SKILL.md"); !strings.Contains(got, "name: flat-one") {
		t.Errorf("flat create landed %q", got)
	}
	f.ok("skill_view", map[string]any{"name": "flat-one", "file_path": nil})
	p := patch("flat-one", "Step one.", "Step one, better.")
	p["operations"], p["category"], p["file_path"], p["replace_all"] = nil, nil, nil, nil
	f.ok("skill_manage", p)
	if got := f.git("show", "main:flat-one/SKILL.md"); !strings.Contains(got, "Step one, better.") {
		t.Errorf("flat patch landed %q", got)
	}
	f.refused("skill_manage", map[string]any{"action": "create", "name": "both", "content": "x", "operations": []any{create("other")}}, "not both")
	f.refused("skill_manage", map[string]any{"name": "flat-one"}, "action")
}

// target: null is the memory store, as the reference takes it; the
// fourth failed consolidation in a row is answered with the reference's
// terminal "stop retrying", and a success starts the count again.
func TestMemoryNullTargetAndFailureCap(t *testing.T) {
	f := newFixture(t)
	f.ok("memory", map[string]any{"action": "add", "target": nil, "content": "The build needs make 4."})
	if got := f.git("show", "main:"+memoryPath(t, f.lib, "memory")); !strings.Contains(got, "make 4") {
		t.Fatalf("MEMORY.md after a null-target add: %q", got)
	}
	miss := map[string]any{"action": "replace", "target": "memory", "old_text": "no such entry", "content": "x"}
	for i := 1; i <= 3; i++ {
		_, text, m := f.call("memory", miss, nil)
		if m["success"] != false || m["done"] == true || !strings.Contains(text, "current_entries") {
			t.Fatalf("failure %d: %s", i, text)
		}
	}
	_, text, m := f.call("memory", miss, nil)
	if m["done"] != true || !strings.Contains(text, "Memory consolidation failed 4 times this turn. Stop retrying memory calls") {
		t.Fatalf("fourth failure: %s", text)
	}
	f.ok("memory", map[string]any{"action": "add", "content": "Tests run with go test."})
	_, text, m = f.call("memory", miss, nil)
	if m["done"] == true || strings.Contains(text, "Stop retrying") {
		t.Errorf("after a success the count starts again: %s", text)
	}
}

// hermesLibrary makes a library by init of a Hermes skills folder holding
// files, and connects the fixture's client to a server over it.
func hermesLibrary(t *testing.T, files map[string]string) *fixture {
	t.Helper()
	if _, err := testlib.GitErr(".", nil, "--version"); err != nil {
		t.Skip("the git binary is needed to check what the server writes")
	}
	env := testlib.Env(t.TempDir())
	dir := filepath.Join(t.TempDir(), ".hermes", "skills")
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := skillrepo.OpenOptions{Getenv: func(k string) string { return env[k] }}
	if _, err := skillrepo.Init(context.Background(), dir, skillrepo.InitOptions{OpenOptions: opts}); err != nil {
		t.Fatal(err)
	}
	lib, err := skillrepo.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	f := &fixture{t: t, lib: lib, env: env}
	f.connect(lib)
	return f
}

// A skill whose description is empty (Hermes creates such skills) can be
// patched and rewritten with it still empty: an error a skill already had
// does not block an unrelated write (docs/architecture.md §2.1). Emptying a
// description that had words is still refused.
func TestEmptyDescriptionSkillStaysWritable(t *testing.T) {
	f := hermesLibrary(t, map[string]string{
		"devops/blank/SKILL.md": "---\nname: blank\ndescription: \"\"\n---\n# Blank\n\nStep one.\n",
		"devops/words/SKILL.md": "---\nname: words\ndescription: Use when the words matter.\n---\n# Words\n\nStep one.\n",
	})
	f.ok("skill_view", map[string]any{"name": "blank"})
	f.ok("skill_manage", patch("blank", "Step one.", "Step one, then two."))
	f.ok("skill_manage", map[string]any{"action": "edit", "name": "blank", "content": "---\nname: blank\ndescription: \"\"\n---\n# Blank\n\nRewritten.\n"})
	if got := f.git("show", "main:devops/blank/SKILL.md"); !strings.Contains(got, "Rewritten.") {
		t.Errorf("edit of an empty-description skill landed %q", got)
	}
	f.ok("skill_view", map[string]any{"name": "words"})
	f.refused("skill_manage", map[string]any{"action": "edit", "name": "words", "content": "---\nname: words\ndescription: \"\"\n---\n# Words\n\nStep one.\n"}, "description")
}

// A frontmatter key written twice keeps its last value in a Hermes
// library, as Hermes reads it: the create lands and the skill is listed
// under the last name.
func TestRepeatedFrontmatterKeyInHermesLibrary(t *testing.T) {
	f := hermesLibrary(t, map[string]string{
		"devops/words/SKILL.md": "---\nname: words\ndescription: Use when the words matter.\n---\n# Words\n\nStep one.\n",
	})
	content := "---\nname: twice\ndescription: Use when a key comes twice.\ndescription: Use when a key is written twice.\n---\n# Twice\n\n" + distinctWords("twice") + "\n"
	f.ok("skill_manage", map[string]any{"action": "create", "name": "twice", "content": content})
	f.ok("skill_view", map[string]any{"name": "twice"})
	if got := f.git("show", "main:twice/SKILL.md"); got != strings.TrimSpace(content) {
		t.Errorf("SKILL.md %q, want the bytes sent", got)
	}
	list := f.ok("skills_list", map[string]any{})
	if !strings.Contains(encode(list), "Use when a key is written twice.") {
		t.Errorf("skills_list does not show the last description: %v", list)
	}
}

// absorbed_into names the umbrella by its folder, as skill_manage finds
// skills (docs/reference-behaviour.md §4.3): the name a folder's
// frontmatter gives it is not one, and neither is an archived skill.
func TestAbsorbedIntoNamesAFolder(t *testing.T) {
	f := hermesLibrary(t, map[string]string{
		"devops/bisect/SKILL.md":     "---\nname: git-bisect\ndescription: Use when hunting a regression.\n---\n# Bisect\n\nStep one.\n",
		"devops/old-bisect/SKILL.md": "---\nname: old-bisect\ndescription: Use when hunting a regression, old way.\n---\n# Old\n\nStep one.\n",
	})
	f.refused("skill_manage", map[string]any{"action": "delete", "name": "old-bisect", "absorbed_into": "git-bisect"}, "does not exist (name it by its folder")
	f.ok("skill_manage", map[string]any{"action": "delete", "name": "old-bisect", "absorbed_into": "bisect"})
	if got := f.trailer("main", "Absorbed-Into"); got != "bisect" {
		t.Errorf("Absorbed-Into %q", got)
	}
}

// skills_list describes a skill whose frontmatter our parser refuses as
// the reference's parser reads it: an unquoted colon keeps its
// description, no frontmatter gives the first line of text.
func TestSkillsListDescribesWhatHermesParses(t *testing.T) {
	f := hermesLibrary(t, map[string]string{
		"devops/deploy-colon/SKILL.md": "---\nname: deploy-colon\ndescription: Use when: deploying a service\n---\n# Deploy\n\nSteps.\n",
		"devops/plain/SKILL.md":        "# Plain\n\nNo frontmatter at all.\n",
	})
	list := encode(f.ok("skills_list", map[string]any{}))
	for _, want := range []string{"Use when: deploying a service", "No frontmatter at all."} {
		if !strings.Contains(list, want) {
			t.Errorf("skills_list lacks %q: %s", want, list)
		}
	}
}
