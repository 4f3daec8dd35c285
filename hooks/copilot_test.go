package hooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents/copilot"
	"github.com/skillrepo/skillrepo/hooks"
)

// GitHub Copilot CLI's hooks are a file of skillrepo's own in the hooks
// folder it reads ($COPILOT_HOME/hooks, a repository's .github/hooks), of
// the shape its hooks reference documents: "version": 1 and, under each
// PascalCase event, the handlers themselves ({"type": "command", "bash",
// "timeoutSec"}). Installing twice changes nothing; a handler the person
// added stays; uninstalling removes the file it created.
func TestCopilotHookFile(t *testing.T) {
	home := t.TempDir()
	cph := filepath.Join(t.TempDir(), "copilot-home")
	env := func(k string) string { return map[string]string{"COPILOT_HOME": cph}[k] }
	opts := hooks.AgentOptions{Agent: copilot.Agent{}, Scope: agent.ScopeUser, Homes: agent.HomesFrom(home, env), Project: t.TempDir(),
		Library: filepath.Join(home, "lib"), Executable: "/usr/local/bin/skillrepo"}
	res, err := hooks.InstallAgent(opts)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(cph, "hooks", "skillrepo.json")
	if res.Settings != want || res.Added != 5 {
		t.Fatalf("installed %d handlers in %s, want 5 in %s", res.Added, res.Settings, want)
	}
	var file struct {
		Version int `json:"version"`
		Hooks   map[string][]struct {
			Type, Bash string
			TimeoutSec int `json:"timeoutSec"`
		} `json:"hooks"`
	}
	data, err := os.ReadFile(want)
	if err != nil || json.Unmarshal(data, &file) != nil {
		t.Fatalf("%s: %v\n%s", want, err, data)
	}
	if file.Version != 1 || len(file.Hooks) != 5 {
		t.Fatalf("file %+v", file)
	}
	for ev, timeout := range map[string]int{"SessionStart": 10, "PostToolUse": 5, "UserPromptSubmit": 5, "Stop": 45, "SessionEnd": 5} {
		hs := file.Hooks[ev]
		if len(hs) != 1 || hs[0].Type != "command" || hs[0].TimeoutSec != timeout ||
			hs[0].Bash != "'/usr/local/bin/skillrepo' hooks run copilot "+ev+" --library '"+filepath.Join(home, "lib")+"'" {
			t.Errorf("%s: %+v", ev, hs)
		}
	}
	if in := hooks.Inspect(copilot.Agent{}, agent.ScopeUser, opts.Homes, opts.Project); len(in.Handlers) != 5 || in.Err != nil {
		t.Errorf("Inspect: %d handlers, %v", len(in.Handlers), in.Err)
	}
	if res, err := hooks.InstallAgent(opts); err != nil || res.Changed {
		t.Errorf("second install: changed %v, %v", res.Changed, err)
	}

	// A handler of the person's in the same file stays through a
	// reinstall and the uninstall, which then leaves the file.
	mine := strings.Replace(string(data), `"hooks": {`, `"hooks": {
    "PreToolUse": [{"type": "command", "bash": "./audit.sh", "timeoutSec": 3}],`, 1)
	if err := os.WriteFile(want, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Library = filepath.Join(home, "other")
	if _, err := hooks.InstallAgent(opts); err != nil {
		t.Fatal(err)
	}
	if _, err := hooks.UninstallAgent(opts); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadFile(want)
	if !strings.Contains(string(left), "./audit.sh") || strings.Contains(string(left), "hooks run copilot") {
		t.Errorf("after uninstall:\n%s", left)
	}

	// With nothing of the person's, the uninstall removes the file.
	os.Remove(want)
	if _, err := hooks.InstallAgent(opts); err != nil {
		t.Fatal(err)
	}
	if _, err := hooks.UninstallAgent(opts); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(want); !os.IsNotExist(err) {
		t.Errorf("the uninstall left %s: %v", want, err)
	}

	// A repository's hooks go in .github/hooks, naming the library
	// relative to the repository (a hook runs in its root).
	proj := hooks.AgentOptions{Agent: copilot.Agent{}, Scope: agent.ScopeProject, Homes: opts.Homes, Project: opts.Project}
	res, err = hooks.InstallAgent(proj)
	if err != nil {
		t.Fatal(err)
	}
	if res.Settings != filepath.Join(opts.Project, ".github", "hooks", "skillrepo.json") || res.Library != ".github/skills" {
		t.Errorf("project install: %s, library %s", res.Settings, res.Library)
	}
}
