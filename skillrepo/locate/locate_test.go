package locate

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// project makes a git work tree (the git binary's) with a library in
// .claude/skills and a skills folder that is not a library in skills.
func project(t *testing.T) string {
	t.Helper()
	top := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", top).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	lib := filepath.Join(top, ".claude", "skills")
	write(t, filepath.Join(lib, filepath.FromSlash(config.Path)), "version: 1\n")
	write(t, filepath.Join(lib, "a", "deep", "x.txt"), "x")
	write(t, filepath.Join(top, "skills", "pdf", "SKILL.md"), "---\nname: pdf\n---\n")
	return top
}

func write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFind(t *testing.T) {
	top := project(t)
	lib := filepath.Join(top, ".claude", "skills")
	loc, err := Find(filepath.Join(lib, "a", "deep"))
	if err != nil {
		t.Fatal(err)
	}
	if loc.Top != top || loc.Library != lib || loc.Inferred {
		t.Errorf("Find in the library = %+v, want top %s, library %s", loc, top, lib)
	}
	loc, err = Find(filepath.Join(top, "skills"))
	if err != nil {
		t.Fatal(err)
	}
	if loc.Top != top || loc.Library != "" {
		t.Errorf("Find outside the library = %+v, want top %s and no library", loc, top)
	}
	if got := ProjectLibraries(top); len(got) != 1 || got[0] != ".claude/skills" {
		t.Errorf("ProjectLibraries = %v, want [.claude/skills]", got)
	}
	if got := SkillsFolder(top); got != "skills" {
		t.Errorf("SkillsFolder = %q, want skills", got)
	}
}

func TestIsLibraryNeedsARegularFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(config.Path)), 0o755); err != nil {
		t.Fatal(err)
	}
	if IsLibrary(dir) {
		t.Error("a folder named like the config file made a library")
	}
}

func TestResolvePath(t *testing.T) {
	top := project(t)
	sub := filepath.Join(top, "skills", "pdf")
	if got, want := ResolvePath(sub, ".claude/skills"), filepath.Join(top, ".claude", "skills"); got != want {
		t.Errorf("ResolvePath from a sub-folder = %s, want the project's %s", got, want)
	}
	if got, want := ResolvePath(sub, "nowhere"), filepath.Join(sub, "nowhere"); got != want {
		t.Errorf("ResolvePath of no library = %s, want %s", got, want)
	}
	if got := ResolvePath(sub, "/x/../y"); got != "/y" {
		t.Errorf("ResolvePath of an absolute path = %s, want /y", got)
	}
	if got := Rel(top, filepath.Join(top, "skills")); got != "skills" {
		t.Errorf("Rel = %s, want skills", got)
	}
}
