package opencode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
)

// The module an install writes names its command and library on one
// line, which doctor and status read back: any path survives the round
// trip, a relative library is the project's, and the module carries the
// marker that makes it skillrepo's.
func TestPluginSourceRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name, command, library, project, wantLib, wantStart string
	}{
		{"absolute", "/usr/local/bin/skillrepo", "/home/ada/.config/opencode/skills", "/proj", "/home/ada/.config/opencode/skills",
			`'/usr/local/bin/skillrepo' hooks run opencode SessionStart --library '/home/ada/.config/opencode/skills'`},
		{"project", "skillrepo", ".opencode/skills", "/work/proj", "/work/proj/.opencode/skills",
			`'skillrepo' hooks run opencode SessionStart --library '/work/proj/.opencode/skills'`},
		{"quotes and spaces", `/opt/it's here/skillrepo`, `/home/a "b"/skills`, "/p", `/home/a "b"/skills`,
			`'/opt/it'\''s here/skillrepo' hooks run opencode SessionStart --library '/home/a "b"/skills'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := Agent{}.PluginSource(tc.command, tc.library)
			if !strings.Contains(string(src), hooks.FileMarker(Name)) {
				t.Fatal("the module does not carry the marker")
			}
			if strings.Count(string(src), "const SKILLREPO = ") != 1 {
				t.Fatal("the module's SKILLREPO line was not filled in once")
			}
			cmds, lib, ok := PluginCommands(src, tc.project)
			if !ok || lib != tc.wantLib || cmds["SessionStart"] != tc.wantStart || len(cmds) != len(Events) {
				t.Errorf("read back %v %q %q; want %q and %q", ok, lib, cmds["SessionStart"], tc.wantLib, tc.wantStart)
			}
		})
	}
	if _, _, ok := PluginCommands([]byte("export const Other = async () => ({});\n"), "/p"); ok {
		t.Error("a module without the SKILLREPO line was read as ours")
	}
}

// The default library is OpenCode's skills/ folder, or a skill/ folder
// the person already has (OpenCode reads both) when there is no skills/.
func TestDefaultLibrary(t *testing.T) {
	home := t.TempDir()
	h := agent.Homes{Home: home, Getenv: func(string) string { return "" }}
	project := t.TempDir()
	cfg := filepath.Join(home, ".config", "opencode")
	if got := (Agent{}).DefaultLibrary(agent.ScopeUser, h, project); got != filepath.Join(cfg, "skills") {
		t.Errorf("nothing there: %s", got)
	}
	for _, d := range []string{filepath.Join(cfg, "skill"), filepath.Join(project, ".opencode", "skill")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := (Agent{}).DefaultLibrary(agent.ScopeUser, h, project); got != filepath.Join(cfg, "skill") {
		t.Errorf("skill/ only: %s", got)
	}
	if got := (Agent{}).DefaultLibrary(agent.ScopeProject, h, project); got != filepath.Join(project, ".opencode", "skill") {
		t.Errorf("project skill/ only: %s", got)
	}
	if err := os.MkdirAll(filepath.Join(cfg, "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := (Agent{}).DefaultLibrary(agent.ScopeUser, h, project); got != filepath.Join(cfg, "skills") {
		t.Errorf("both: %s", got)
	}
}
