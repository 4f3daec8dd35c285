package hooks_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/hooks"
)

// userSettings is a settings file with hooks and keys of its own, in an
// order that is not sorted, with four-space indentation.
const userSettings = `{
    "model": "opus",
    "permissions": {"allow": ["Bash(git status)"], "deny": []},
    "hooks": {
        "PostToolUse": [
            {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "prettier --write"}]}
        ],
        "Stop": [
            {"hooks": [{"type": "command", "command": "notify-send done", "timeout": 3}]}
        ]
    },
    "zeta": {"unknown": [1, 2, {"x": null}]},
    "alpha": true
}
`

func installOpts(t *testing.T, a agent.Name) hooks.AgentOptions {
	t.Helper()
	home := t.TempDir()
	return hooks.AgentOptions{Agent: target(a), Scope: agent.ScopeUser, Homes: agent.HomesFrom(home, nil), Project: t.TempDir(), Executable: "/usr/local/bin/skillrepo"}
}

func writeSettings(t *testing.T, opts hooks.AgentOptions, content string) string {
	t.Helper()
	p, err := opts.Agent.SettingsPath(opts.Scope, opts.Homes, opts.Project)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func decode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, data)
	}
	return v
}

// topKeys lists the top-level keys in file order.
func topKeys(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestInstallKeepsEverythingElse(t *testing.T) {
	for _, a := range settingsAgents() {
		t.Run(string(a), func(t *testing.T) {
			opts := installOpts(t, a)
			p := writeSettings(t, opts, userSettings)
			res, err := hooks.InstallAgent(opts)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Changed || res.Added != len(target(a).Handlers()) || res.Removed != 0 {
				t.Fatalf("result = %+v", res)
			}
			data, _ := os.ReadFile(p)
			got := decode(t, data)
			orig := decode(t, []byte(userSettings))
			for _, k := range []string{"model", "permissions", "zeta", "alpha"} {
				if !reflect.DeepEqual(got[k], orig[k]) {
					t.Errorf("key %s changed: %v", k, got[k])
				}
			}
			if keys := topKeys(t, data); !reflect.DeepEqual(keys, []string{"model", "permissions", "hooks", "zeta", "alpha"}) {
				t.Errorf("key order = %v", keys)
			}
			hks := got["hooks"].(map[string]any)
			// The user's own handlers come first and are intact.
			if first := hks["PostToolUse"].([]any)[0]; !reflect.DeepEqual(first, orig["hooks"].(map[string]any)["PostToolUse"].([]any)[0]) {
				t.Errorf("user's PostToolUse group changed: %v", first)
			}
			if first := hks["Stop"].([]any)[0]; !reflect.DeepEqual(first, orig["hooks"].(map[string]any)["Stop"].([]any)[0]) {
				t.Errorf("user's Stop group changed: %v", first)
			}
			for _, h := range target(a).Handlers() {
				if !strings.Contains(string(data), "hooks run "+string(a)+" "+h.Event+" --library") {
					t.Errorf("no handler for %s:\n%s", h.Event, data)
				}
			}
			if !strings.Contains(string(data), "\n    \"model\"") {
				t.Errorf("indentation not kept:\n%s", data)
			}

			// Installing again changes nothing, byte for byte.
			res2, err := hooks.InstallAgent(opts)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := os.ReadFile(p)
			if res2.Changed || string(again) != string(data) {
				t.Errorf("second install changed the file:\n%s", again)
			}

			// Uninstall removes ours and only ours: the file is back, byte
			// for byte.
			if _, err := hooks.UninstallAgent(opts); err != nil {
				t.Fatal(err)
			}
			after, _ := os.ReadFile(p)
			if string(after) != userSettings {
				t.Errorf("uninstall did not restore the user's settings:\n%s", after)
			}
			if ok, _ := hooks.Installed(target(a), agent.ScopeUser, opts.Homes, opts.Project); ok {
				t.Error("hooks.Installed after uninstall")
			}
		})
	}
}

func TestInstallNewFileAndScopes(t *testing.T) {
	opts := installOpts(t, agent.ClaudeCode)
	for _, tc := range []struct {
		scope   agent.Scope
		path    string
		library string
	}{
		{agent.ScopeUser, filepath.Join(opts.Homes.Home, ".claude", "settings.json"), "'" + filepath.Join(opts.Homes.Home, ".claude", "skills") + "'"},
		{agent.ScopeProject, filepath.Join(opts.Project, ".claude", "settings.json"), `"$CLAUDE_PROJECT_DIR"/.claude/skills`},
		{agent.ScopeLocal, filepath.Join(opts.Project, ".claude", "settings.local.json"), `"$CLAUDE_PROJECT_DIR"/.claude/skills`},
	} {
		o := opts
		o.Scope = tc.scope
		res, err := hooks.InstallAgent(o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Settings != tc.path || res.Library != tc.library {
			t.Errorf("%s: settings %s library %s", tc.scope, res.Settings, res.Library)
		}
		data, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := hooks.Installed(target(agent.ClaudeCode), tc.scope, opts.Homes, opts.Project); !ok {
			t.Errorf("%s: not installed:\n%s", tc.scope, data)
		}
	}
	codex := installOpts(t, agent.Codex)
	codex.Scope = agent.ScopeLocal
	if _, err := hooks.InstallAgent(codex); err == nil {
		t.Error("codex accepted the local scope")
	}
	codex.Scope = agent.ScopeProject
	res, err := hooks.InstallAgent(codex)
	if err != nil || res.Settings != filepath.Join(codex.Project, ".codex", "hooks.json") || res.Library != ".agents/skills" {
		t.Fatalf("codex project: %+v %v", res, err)
	}
}

// An earlier install with another library or binary is replaced, not
// doubled, and a handler of ours inside a user's group leaves the user's
// handler in place.
func TestInstallReplacesOldEntries(t *testing.T) {
	opts := installOpts(t, agent.ClaudeCode)
	p := writeSettings(t, opts, `{"hooks": {"Stop": [{"hooks": [
		{"type": "command", "command": "echo mine"},
		{"type": "command", "command": "/old/skillrepo hooks run claude-code Stop --library /old/lib"}]}]}}`)
	res, err := hooks.InstallAgent(opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Removed != 1 {
		t.Errorf("removed %d, want 1", res.Removed)
	}
	data, _ := os.ReadFile(p)
	if strings.Contains(string(data), "/old/lib") || !strings.Contains(string(data), "echo mine") {
		t.Fatalf("result:\n%s", data)
	}
	if n := strings.Count(string(data), "hooks run claude-code Stop"); n != 1 {
		t.Errorf("%d Stop handlers of ours", n)
	}
}

// A malformed file is refused with a clear error, and nothing is written.
func TestInstallRefusesMalformed(t *testing.T) {
	for _, tc := range []struct{ name, content, want string }{
		{"syntax", "{\n  \"model\": \"opus\",\n  \"hooks\": {\n}", "line 4"},
		{"trailing comma", `{"a": 1,}`, "not valid JSON"},
		{"not an object", `[1, 2]`, "top level"},
		{"hooks not an object", `{"hooks": []}`, `"hooks" is not an object`},
		{"event not a list", `{"hooks": {"Stop": {"hooks": []}}}`, "hooks.Stop is not a list"},
		{"handlers not a list", `{"hooks": {"Stop": [{"hooks": "x"}]}}`, "hooks.Stop[0].hooks is not a list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, install := range []bool{true, false} {
				opts := installOpts(t, agent.ClaudeCode)
				p := writeSettings(t, opts, tc.content)
				var err error
				if install {
					_, err = hooks.InstallAgent(opts)
				} else {
					_, err = hooks.UninstallAgent(opts)
				}
				if !errors.Is(err, hooks.ErrMalformed) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
					t.Errorf("install=%v: err = %v, want hooks.ErrMalformed mentioning %q and the path", install, err, tc.want)
				}
				if data, _ := os.ReadFile(p); string(data) != tc.content {
					t.Errorf("the file was changed:\n%s", data)
				}
			}
		})
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	opts := installOpts(t, agent.ClaudeCode)
	opts.DryRun = true
	res, err := hooks.InstallAgent(opts)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Changed || !strings.Contains(string(res.Content), "hooks run claude-code SessionStart") {
		t.Fatalf("dry run result: %+v\n%s", res, res.Content)
	}
	if _, err := os.Stat(res.Settings); !os.IsNotExist(err) {
		t.Errorf("dry run wrote %s", res.Settings)
	}
	// Uninstalling where nothing is installed leaves no file behind.
	opts.DryRun = false
	if res, err := hooks.UninstallAgent(opts); err != nil || res.Changed {
		t.Errorf("uninstall of nothing: %+v %v", res, err)
	}
	if _, err := os.Stat(res.Settings); !os.IsNotExist(err) {
		t.Errorf("uninstall created %s", res.Settings)
	}
}

// The layout of what is not ours stays byte for byte: a multi-line
// object is not collapsed, a one-line handler is not expanded, a
// four-space file stays four-space, and uninstall gives the file back.
func TestInstallKeepsLayout(t *testing.T) {
	const settings = `{
  "env": {
    "FOO": "1"
  },
  "permissions": { "allow": ["Bash(ls)"] },
  "hooks": {
    "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }],
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "audit.sh" }
        ]
      }
    ]
  }
}
`
	for _, a := range settingsAgents() {
		t.Run(string(a), func(t *testing.T) {
			opts := installOpts(t, a)
			p := writeSettings(t, opts, settings)
			if _, err := hooks.InstallAgent(opts); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(p)
			for _, kept := range []string{
				"  \"env\": {\n    \"FOO\": \"1\"\n  },\n",
				"  \"permissions\": { \"allow\": [\"Bash(ls)\"] },\n",
				`"Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }]`,
				"      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          { \"type\": \"command\", \"command\": \"audit.sh\" }\n        ]\n      }",
			} {
				if !strings.Contains(string(data), kept) {
					t.Errorf("the install changed\n%s\ninto:\n%s", kept, data)
				}
			}
			if _, err := hooks.UninstallAgent(opts); err != nil {
				t.Fatal(err)
			}
			if after, _ := os.ReadFile(p); string(after) != settings {
				t.Errorf("uninstall did not give the file back:\n%s", after)
			}
		})
	}
}

// A new settings file, installed and uninstalled, is left an empty
// object: the hooks key our install made goes with our handlers.
func TestUninstallLeavesNoEmptyHooks(t *testing.T) {
	opts := installOpts(t, agent.Gemini)
	p := writeSettings(t, opts, "{\n  \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}\n}\n")
	before, _ := os.ReadFile(p)
	if _, err := hooks.InstallAgent(opts); err != nil {
		t.Fatal(err)
	}
	if _, err := hooks.UninstallAgent(opts); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(p); string(after) != string(before) {
		t.Errorf("after install and uninstall:\n%s", after)
	}
}

// The agents' folders follow their environment: CLAUDE_CONFIG_DIR,
// CODEX_HOME and GEMINI_CLI_HOME move the user settings and the default
// libraries as they move what the agents read.
func TestHomesFollowTheEnvironment(t *testing.T) {
	env := map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude", "CODEX_HOME": "/cfg/codex", "GEMINI_CLI_HOME": "/cfg/g"}
	homes := agent.HomesFrom("/home/me", func(k string) string { return env[k] })
	for _, tc := range []struct {
		a             agent.Name
		settings, lib string
	}{
		{agent.ClaudeCode, "/cfg/claude/settings.json", "/cfg/claude/skills"},
		{agent.Codex, "/cfg/codex/hooks.json", "/home/me/.agents/skills"},
		{agent.Gemini, "/cfg/g/.gemini/settings.json", "/cfg/g/.gemini/skills"},
	} {
		p, err := target(tc.a).SettingsPath(agent.ScopeUser, homes, "/p")
		if err != nil || p != tc.settings {
			t.Errorf("%s: settings %s (%v), want %s", tc.a, p, err, tc.settings)
		}
		if lib := target(tc.a).DefaultLibrary(agent.ScopeUser, homes, "/p"); lib != tc.lib {
			t.Errorf("%s: library %s, want %s", tc.a, lib, tc.lib)
		}
	}
	plain := agent.HomesFrom("/home/me", func(string) string { return "" })
	if p, _ := target(agent.Codex).SettingsPath(agent.ScopeUser, plain, "/p"); p != "/home/me/.codex/hooks.json" {
		t.Errorf("codex without CODEX_HOME: %s", p)
	}
}

// A project's settings are committed: they name no path of this machine
// (not the binary, not the project, not the home), so every clone's
// hooks act on its own library.
func TestProjectSettingsNameNoMachinePath(t *testing.T) {
	for _, a := range settingsAgents() {
		t.Run(string(a), func(t *testing.T) {
			opts := installOpts(t, a)
			opts.Scope, opts.Executable = agent.ScopeProject, ""
			opts.Library = filepath.Join(opts.Project, "team", "skills")
			res, err := hooks.InstallAgent(opts)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(res.Settings)
			for _, p := range []string{opts.Project, opts.Homes.Home, "/usr/local/bin"} {
				if strings.Contains(string(data), p) {
					t.Errorf("the committed file names %s:\n%s", p, data)
				}
			}
			if !strings.Contains(string(data), "'skillrepo' hooks run "+string(a)) || !strings.Contains(string(data), "team/skills") {
				t.Errorf("commands:\n%s", data)
			}
			// A library outside the project cannot be named by a shared file.
			opts.Library = filepath.Join(opts.Homes.Home, "elsewhere")
			if _, err := hooks.InstallAgent(opts); err == nil || !strings.Contains(err.Error(), "outside the project") {
				t.Errorf("a library outside the project: %v", err)
			}
		})
	}
}

// Gemini CLI's handlers: its event names, timeouts in milliseconds, a
// name for its /hooks panel, and activate_skill matched exactly.
func TestGeminiHandlers(t *testing.T) {
	opts := installOpts(t, agent.Gemini)
	res, err := hooks.InstallAgent(opts)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Name, Type, Command string
				Timeout             int
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(res.Content, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"SessionStart": 10000, "AfterTool": 5000, "BeforeAgent": 5000, "AfterAgent": 45000, "SessionEnd": 0}
	for ev, timeout := range want {
		g := got.Hooks[ev]
		if len(g) != 1 || len(g[0].Hooks) != 1 {
			t.Fatalf("%s: %+v", ev, g)
		}
		h := g[0].Hooks[0]
		if h.Timeout != timeout || h.Type != "command" || !strings.HasPrefix(h.Name, "skillrepo-") || !strings.Contains(h.Command, " hooks run gemini "+ev+" ") {
			t.Errorf("%s: %+v", ev, h)
		}
	}
	if m := got.Hooks["AfterTool"][0].Matcher; m != "^activate_skill$" {
		t.Errorf("AfterTool matcher %q", m)
	}
	for _, ev := range []string{"AfterTool", "BeforeAgent", "AfterAgent"} {
		if _, err := agent.ParseEvent(ev); err != nil {
			t.Errorf("ParseEvent(%s): %v", ev, err)
		}
	}
}

// settingsAgents are the registry's agents whose hooks live in JSON
// settings.
func settingsAgents() []agent.Name {
	var out []agent.Name
	for _, t := range agents.Implementing[hooks.Target]() {
		out = append(out, t.Name())
	}
	return out
}

// target is an agent's installer view, from the registry.
func target(a agent.Name) hooks.Target {
	t, _ := agents.Find[hooks.Target](a)
	return t
}

// TestInstalledHandlerLibrary: the library an installed command names
// reads back as the library the install was given, for every agent and
// scope and for paths a shell must quote; a command that expands the
// environment (a plugin's) names none.
func TestInstalledHandlerLibrary(t *testing.T) {
	project := filepath.Join(t.TempDir(), "my proj")
	for _, a := range settingsAgents() {
		for _, tt := range []struct {
			scope agent.Scope
			lib   string
		}{
			{agent.ScopeUser, "/srv/skills"},
			{agent.ScopeUser, "/home/o'neil/my skills/$HOME"},
			{agent.ScopeProject, filepath.Join(project, ".agents", "skills")},
			{agent.ScopeProject, filepath.Join(project, "team skills")},
		} {
			opts := installOpts(t, a)
			opts.Scope, opts.Project, opts.Library, opts.DryRun = tt.scope, project, tt.lib, true
			res, err := hooks.InstallAgent(opts)
			if err != nil {
				if tt.scope == agent.ScopeProject && !slicesContains(opts.Agent, tt.scope) {
					continue
				}
				t.Fatalf("%s %s: %v", a, tt.scope, err)
			}
			hs := hooks.HandlersIn(opts.Agent, res.Content)
			if len(hs) == 0 {
				t.Fatalf("%s: no handlers in %s", a, res.Content)
			}
			for _, h := range hs {
				if got := h.Library(opts.Agent.Format().ProjectDir, project); got != tt.lib {
					t.Errorf("%s %s: %q names %q, want %q", a, tt.scope, h.Command, got, tt.lib)
				}
			}
		}
	}
	plugin := hooks.InstalledHandler{Command: `command -v skillrepo >/dev/null 2>&1 || exit 0; exec skillrepo hooks run claude-code Stop --library "${SKILLREPO_LIBRARY:-$HOME/.claude/skills}"`}
	if got := plugin.Library("CLAUDE_PROJECT_DIR", project); got != "" {
		t.Errorf("a plugin's command names %q", got)
	}
}

func slicesContains(t hooks.Target, s agent.Scope) bool {
	for _, x := range t.(interface{ Scopes() []agent.Scope }).Scopes() {
		if x == s {
			return true
		}
	}
	return false
}
