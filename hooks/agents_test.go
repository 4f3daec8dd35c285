package hooks

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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

func installOpts(t *testing.T, a Agent) AgentOptions {
	t.Helper()
	home := t.TempDir()
	return AgentOptions{Agent: a, Scope: ScopeUser, Home: home, Project: t.TempDir(), Executable: "/usr/local/bin/skillrepo"}
}

func writeSettings(t *testing.T, opts AgentOptions, content string) string {
	t.Helper()
	p, err := SettingsPath(opts.Agent, opts.Scope, opts.Home, opts.Project)
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
	for _, a := range []Agent{ClaudeCode, Codex} {
		t.Run(string(a), func(t *testing.T) {
			opts := installOpts(t, a)
			p := writeSettings(t, opts, userSettings)
			res, err := InstallAgent(opts)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Changed || res.Added != len(Handlers(a)) || res.Removed != 0 {
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
			hooks := got["hooks"].(map[string]any)
			// The user's own handlers come first and are intact.
			if first := hooks["PostToolUse"].([]any)[0]; !reflect.DeepEqual(first, orig["hooks"].(map[string]any)["PostToolUse"].([]any)[0]) {
				t.Errorf("user's PostToolUse group changed: %v", first)
			}
			if first := hooks["Stop"].([]any)[0]; !reflect.DeepEqual(first, orig["hooks"].(map[string]any)["Stop"].([]any)[0]) {
				t.Errorf("user's Stop group changed: %v", first)
			}
			for _, h := range Handlers(a) {
				if !strings.Contains(string(data), "hooks run "+string(a)+" "+h.Event+" --library") {
					t.Errorf("no handler for %s:\n%s", h.Event, data)
				}
			}
			if !strings.Contains(string(data), "\n    \"model\"") {
				t.Errorf("indentation not kept:\n%s", data)
			}

			// Installing again changes nothing, byte for byte.
			res2, err := InstallAgent(opts)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := os.ReadFile(p)
			if res2.Changed || string(again) != string(data) {
				t.Errorf("second install changed the file:\n%s", again)
			}

			// Uninstall removes ours and only ours.
			if _, err := UninstallAgent(opts); err != nil {
				t.Fatal(err)
			}
			after, _ := os.ReadFile(p)
			if !reflect.DeepEqual(decode(t, after), orig) {
				t.Errorf("uninstall did not restore the user's settings:\n%s", after)
			}
			if ok, _ := Installed(a, ScopeUser, opts.Home, opts.Project); ok {
				t.Error("Installed after uninstall")
			}
		})
	}
}

func TestInstallNewFileAndScopes(t *testing.T) {
	opts := installOpts(t, ClaudeCode)
	for _, tc := range []struct {
		scope   Scope
		path    string
		library string
	}{
		{ScopeUser, filepath.Join(opts.Home, ".claude", "settings.json"), "'" + filepath.Join(opts.Home, ".claude", "skills") + "'"},
		{ScopeProject, filepath.Join(opts.Project, ".claude", "settings.json"), `"$CLAUDE_PROJECT_DIR"/.claude/skills`},
		{ScopeLocal, filepath.Join(opts.Project, ".claude", "settings.local.json"), `"$CLAUDE_PROJECT_DIR"/.claude/skills`},
	} {
		o := opts
		o.Scope = tc.scope
		res, err := InstallAgent(o)
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
		if ok, _ := Installed(ClaudeCode, tc.scope, opts.Home, opts.Project); !ok {
			t.Errorf("%s: not installed:\n%s", tc.scope, data)
		}
	}
	codex := installOpts(t, Codex)
	codex.Scope = ScopeLocal
	if _, err := InstallAgent(codex); err == nil {
		t.Error("codex accepted the local scope")
	}
	codex.Scope = ScopeProject
	res, err := InstallAgent(codex)
	if err != nil || res.Settings != filepath.Join(codex.Project, ".codex", "hooks.json") || !strings.Contains(res.Library, filepath.Join(codex.Project, ".agents", "skills")) {
		t.Fatalf("codex project: %+v %v", res, err)
	}
}

// An earlier install with another library or binary is replaced, not
// doubled, and a handler of ours inside a user's group leaves the user's
// handler in place.
func TestInstallReplacesOldEntries(t *testing.T) {
	opts := installOpts(t, ClaudeCode)
	p := writeSettings(t, opts, `{"hooks": {"Stop": [{"hooks": [
		{"type": "command", "command": "echo mine"},
		{"type": "command", "command": "/old/skillrepo hooks run claude-code Stop --library /old/lib"}]}]}}`)
	res, err := InstallAgent(opts)
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
				opts := installOpts(t, ClaudeCode)
				p := writeSettings(t, opts, tc.content)
				var err error
				if install {
					_, err = InstallAgent(opts)
				} else {
					_, err = UninstallAgent(opts)
				}
				if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
					t.Errorf("install=%v: err = %v, want ErrMalformed mentioning %q and the path", install, err, tc.want)
				}
				if data, _ := os.ReadFile(p); string(data) != tc.content {
					t.Errorf("the file was changed:\n%s", data)
				}
			}
		})
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	opts := installOpts(t, ClaudeCode)
	opts.DryRun = true
	res, err := InstallAgent(opts)
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
	if res, err := UninstallAgent(opts); err != nil || res.Changed {
		t.Errorf("uninstall of nothing: %+v %v", res, err)
	}
	if _, err := os.Stat(res.Settings); !os.IsNotExist(err) {
		t.Errorf("uninstall created %s", res.Settings)
	}
}
