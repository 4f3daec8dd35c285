package opencode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
)

// OpenCode loads skills from its own skill/ and skills/ folders, the
// Claude Code and agents folders, a project's (up to its worktree) and
// opencode.json's skills.paths, each with what is below it; a library
// anywhere else reaches no model.
func TestReadsSkills(t *testing.T) {
	home := t.TempDir()
	h := agent.Homes{Home: home, Getenv: func(string) string { return "" }}
	project := filepath.Join(t.TempDir(), "repo")
	sub := filepath.Join(project, "pkg")
	for _, d := range []string{filepath.Join(project, ".git"), sub, filepath.Join(home, ".config", "opencode")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := `{
  // JSON with comments, as OpenCode takes it
  "skills": {"paths": ["~/team-skills", "/abs/skills", "rel/skills"]},
}`
	if err := os.WriteFile(filepath.Join(home, ".config", "opencode", "opencode.jsonc"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "opencode.json"), []byte(`{"skills": {"paths": ["shared"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lib  string
		want bool
	}{
		{filepath.Join(home, ".config", "opencode", "skills"), true},
		{filepath.Join(home, ".config", "opencode", "skill"), true},
		{filepath.Join(home, ".config", "opencode", "skills", "team"), true},
		{filepath.Join(home, ".claude", "skills"), true},
		{filepath.Join(home, ".agents", "skills"), true},
		{filepath.Join(project, ".opencode", "skills"), true},
		{filepath.Join(sub, ".claude", "skills"), true},
		{filepath.Join(home, "team-skills"), true},
		{"/abs/skills/x", true},
		{filepath.Join(home, ".config", "opencode", "rel", "skills"), true},
		{filepath.Join(project, "shared"), true},
		{filepath.Join(home, "lib"), false},
		{filepath.Join(home, ".config", "opencode"), false},
		{filepath.Join(home, ".config", "opencode", "skillsx"), false},
		{filepath.Join(filepath.Dir(project), ".opencode", "skills"), false}, // above the worktree
	} {
		if got := readsSkills(tc.lib, h, sub); got != tc.want {
			t.Errorf("readsSkills(%s) = %v, want %v", tc.lib, got, tc.want)
		}
	}
}
