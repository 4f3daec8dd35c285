package agents

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents/claudecode"
	"github.com/skillrepo/skillrepo/agents/codex"
	"github.com/skillrepo/skillrepo/agents/gemini"
	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/hooks"
)

// pluginWorld is a home and a project where an agent's own program
// recorded skillrepo's plugin, each file written as the program writes it
// (docs/install.md §4; the shapes were read off Claude Code 2.1, Codex
// 0.169 and Gemini CLI 0.61 after their installs). The plugin's hooks.json
// is the one this repository ships (plugins/<agent>/).
type pluginWorld struct {
	t             *testing.T
	home, project string
	homes         agent.Homes
}

func newPluginWorld(t *testing.T) *pluginWorld {
	home := t.TempDir()
	project := filepath.Join(home, "work", "proj")
	w := &pluginWorld{t: t, home: home, project: project, homes: agent.HomesFrom(home, func(string) string { return "" })}
	w.write(filepath.Join(project, "README"), "a project\n")
	return w
}

func (w *pluginWorld) write(path, content string) {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// copyPlugin puts this repository's plugin folder's hooks.json (or, with
// foreign, a same-named plugin's that runs something else) at dir.
func (w *pluginWorld) copyPlugin(src, dir string, foreign bool) {
	w.t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "plugins", src, "hooks", "hooks.json"))
	if err != nil {
		w.t.Fatal(err)
	}
	if foreign {
		data = []byte(`{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo another skillrepo"}]}]}}`)
	}
	w.write(filepath.Join(dir, "hooks", "hooks.json"), string(data))
}

func (w *pluginWorld) claudePlugin(enabled string, foreign bool) {
	cache := filepath.Join(w.homes.ClaudeConfig, "plugins", "cache", "skillrepo", "skillrepo", "0.3.0")
	w.copyPlugin("claude-code", cache, foreign)
	w.write(filepath.Join(w.homes.ClaudeConfig, "settings.json"), `{
  "enabledPlugins": {
    "skillrepo@skillrepo": `+enabled+`
  },
  "extraKnownMarketplaces": {
    "skillrepo": {
      "source": {
        "source": "directory",
        "path": "/src/skillrepo"
      }
    }
  }
}
`)
	w.write(filepath.Join(w.homes.ClaudeConfig, "plugins", "installed_plugins.json"), fmt.Sprintf(`{
  "version": 2,
  "plugins": {
    "skillrepo@skillrepo": [
      {
        "scope": "user",
        "installPath": %q,
        "version": "0.3.0",
        "installedAt": "2026-12-07T18:02:11.120Z",
        "lastUpdated": "2026-12-07T18:02:11.120Z",
        "gitCommitSha": "9f1c2d3e4b5a69788796a5b4c3d2e1f009182736"
      }
    ]
  }
}
`, cache))
}

func (w *pluginWorld) codexPlugin(cfg string, foreign bool) {
	w.copyPlugin("codex", filepath.Join(w.homes.CodexHome, "plugins", "cache", "skillrepo", "skillrepo", "0.3.0"), foreign)
	w.write(codex.ConfigPath(w.homes), cfg)
}

const codexEnabled = `model = "gpt-5.2"

[features]
plugins = true

[marketplaces.skillrepo]
source_type = "local"
source = "/src/skillrepo"

[plugins."skillrepo@skillrepo"]
enabled = true
`

func (w *pluginWorld) geminiExtension(kind, overrides string, foreign bool) {
	ext := filepath.Join(w.homes.GeminiDir, "extensions")
	dir, source := filepath.Join(ext, "skillrepo"), filepath.Join(w.home, "src", "skillrepo", "plugins", "gemini")
	if kind == "link" {
		dir = source
	}
	w.copyPlugin("gemini", dir, foreign)
	w.write(filepath.Join(ext, "skillrepo", ".gemini-extension-install.json"), fmt.Sprintf(`{
  "source": %q,
  "type": %q
}`, source, kind))
	if overrides != "" {
		w.write(filepath.Join(ext, "extension-enablement.json"), `{
  "skillrepo": {
    "overrides": [`+overrides+`]
  }
}`)
	}
}

func TestPlugins(t *testing.T) {
	for _, tc := range []struct {
		name  string
		agent agent.Name
		set   func(w *pluginWorld)
		want  string // the plugin's id, "" for none
	}{
		{"claude code plugin enabled", agent.ClaudeCode, func(w *pluginWorld) { w.claudePlugin("true", false) }, "skillrepo@skillrepo"},
		{"claude code plugin disabled", agent.ClaudeCode, func(w *pluginWorld) { w.claudePlugin("false", false) }, ""},
		{"claude code plugin disabled in the project", agent.ClaudeCode, func(w *pluginWorld) {
			w.claudePlugin("true", false)
			w.write(filepath.Join(w.project, ".claude", "settings.json"), `{"enabledPlugins": {"skillrepo@skillrepo": false}}`)
		}, ""},
		{"claude code: another plugin named skillrepo", agent.ClaudeCode, func(w *pluginWorld) { w.claudePlugin("true", true) }, ""},
		{"claude code: enabled, never installed", agent.ClaudeCode, func(w *pluginWorld) {
			w.claudePlugin("true", false)
			if err := os.Remove(filepath.Join(w.homes.ClaudeConfig, "plugins", "installed_plugins.json")); err != nil {
				w.t.Fatal(err)
			}
		}, ""},
		{"codex plugin enabled", agent.Codex, func(w *pluginWorld) { w.codexPlugin(codexEnabled, false) }, "skillrepo@skillrepo"},
		{"codex plugin disabled", agent.Codex, func(w *pluginWorld) {
			w.codexPlugin(strings.Replace(codexEnabled, "enabled = true", "enabled = false", 1), false)
		}, ""},
		{"codex plugins feature off", agent.Codex, func(w *pluginWorld) {
			w.codexPlugin(strings.Replace(codexEnabled, "plugins = true", "plugins = false", 1), false)
		}, ""},
		{"codex: another plugin named skillrepo", agent.Codex, func(w *pluginWorld) { w.codexPlugin(codexEnabled, true) }, ""},
		{"gemini extension linked", agent.Gemini, func(w *pluginWorld) { w.geminiExtension("link", "", false) }, "skillrepo"},
		{"gemini extension installed, enabled under home", agent.Gemini, func(w *pluginWorld) {
			w.geminiExtension("local", fmt.Sprintf("%q", w.home+"/*"), false)
		}, "skillrepo"},
		{"gemini extension disabled in the project", agent.Gemini, func(w *pluginWorld) {
			w.geminiExtension("link", fmt.Sprintf("%q, %q", w.home+"/*", "!"+w.project+"/*"), false)
		}, ""},
		{"gemini extension enabled for another folder only", agent.Gemini, func(w *pluginWorld) {
			w.geminiExtension("link", fmt.Sprintf("%q", "!"+w.home+"/*")+fmt.Sprintf(", %q", w.home+"/other/"), false)
		}, ""},
		{"gemini: another extension named skillrepo", agent.Gemini, func(w *pluginWorld) { w.geminiExtension("link", "", true) }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newPluginWorld(t)
			tc.set(w)
			pf, ok := Find[hooks.PluginFinder](tc.agent)
			if !ok {
				t.Fatalf("%s is no PluginFinder", tc.agent)
			}
			got := pf.Plugins(w.homes, w.project)
			if tc.want == "" {
				if len(got) != 0 {
					t.Fatalf("Plugins = %+v, want none", got)
				}
			} else if len(got) != 1 || got[0].ID != tc.want || got[0].Agent != tc.agent || got[0].Remove == "" {
				t.Fatalf("Plugins = %+v, want %s", got, tc.want)
			}

			// hooks install refuses while the plugin runs the hooks, and
			// writes nothing.
			target, _ := Find[hooks.Target](tc.agent)
			settings, _ := target.SettingsPath(agent.ScopeUser, w.homes, w.project)
			before, _ := os.ReadFile(settings)
			_, err := hooks.InstallAgent(hooks.AgentOptions{Agent: target, Scope: agent.ScopeUser, Homes: w.homes, Project: w.project})
			after, _ := os.ReadFile(settings)
			var pe *hooks.PluginError
			switch {
			case tc.want != "" && (!errors.Is(err, hooks.ErrPluginEnabled) || !errors.As(err, &pe) || pe.Plugin.ID != tc.want):
				t.Errorf("InstallAgent = %v, want the plugin's refusal", err)
			case tc.want != "" && !bytes.Equal(before, after):
				t.Errorf("a refused install changed %s:\n%s", settings, after)
			case tc.want == "" && err != nil:
				t.Errorf("InstallAgent = %v, want it installed", err)
			}
		})
	}
}

// TestDoctorSeesPlugins: doctor names the plugin, warns when the hooks
// of `hooks install` run beside it, and (Codex) says when its hooks are
// not trusted yet, then that they are.
func TestDoctorSeesPlugins(t *testing.T) {
	w := newPluginWorld(t)
	env := &doctor.Env{Homes: w.homes, Project: w.project, Getenv: func(string) string { return "" }, Checkers: Implementing[doctor.Checker]()}
	pluginFindings := func(a agent.Name) []doctor.Finding {
		env.Agents = []agent.Name{a}
		var out []doctor.Finding
		for _, f := range doctor.Run(context.Background(), env).Findings {
			if f.Part == "plugin" {
				out = append(out, f)
			}
		}
		return out
	}
	// Settings-file hooks first (an install refuses once the plugin is there).
	for _, a := range []agent.Name{agent.ClaudeCode, agent.Gemini} {
		target, _ := Find[hooks.Target](a)
		if _, err := hooks.InstallAgent(hooks.AgentOptions{Agent: target, Scope: agent.ScopeUser, Homes: w.homes, Project: w.project, Executable: "/nonexistent/skillrepo"}); err != nil {
			t.Fatal(err)
		}
	}
	claudeSettings, _ := os.ReadFile(filepath.Join(w.homes.ClaudeConfig, "settings.json"))
	w.claudePlugin("true", false)
	// The plugin's record goes into the same settings.json as the hooks.
	merged := strings.Replace(string(claudeSettings), "{", `{
  "enabledPlugins": {"skillrepo@skillrepo": true},`, 1)
	w.write(filepath.Join(w.homes.ClaudeConfig, "settings.json"), merged)
	w.geminiExtension("link", "", false)
	w.codexPlugin(codexEnabled, false)

	for a, remove := range map[agent.Name]string{agent.ClaudeCode: "claude plugin uninstall skillrepo@skillrepo", agent.Gemini: "gemini extensions uninstall skillrepo"} {
		fs := pluginFindings(a)
		wantFix := "skillrepo hooks uninstall --" + string(a) + " --scope user (keep the plugin), or remove the plugin: " + remove
		if len(fs) != 2 || fs[0].Level != doctor.OK || fs[0].Check != "plugin" || fs[1].Level != doctor.Warning || fs[1].Check != "twice" || fs[1].Fix != wantFix {
			t.Errorf("%s: plugin findings %+v, want ok and the twice warning", a, fs)
		}
	}

	fs := pluginFindings(agent.Codex)
	if len(fs) != 2 || fs[0].Level != doctor.OK || fs[1].Check != "trust" || fs[1].Level != doctor.Problem ||
		!strings.Contains(fs[1].Message, "has not trusted skillrepo's") || !strings.Contains(fs[1].Fix, "/hooks") {
		t.Fatalf("codex untrusted plugin: %+v", fs)
	}
	// Trust them as Codex's /hooks records it.
	p := (codex.Agent{}).Plugins(w.homes, w.project)[0]
	trust, err := codex.PluginTrust(p, w.homes)
	if err != nil || len(trust) != 5 {
		t.Fatalf("PluginTrust = %d, %v", len(trust), err)
	}
	cfg := codexEnabled
	for _, h := range trust {
		cfg += fmt.Sprintf("\n[hooks.state.%q]\ntrusted_hash = %q\ntrusted_content_hash = \"sha256:0\"\n", h.Key, h.Hash)
	}
	w.write(codex.ConfigPath(w.homes), cfg)
	if fs := pluginFindings(agent.Codex); len(fs) != 2 || fs[1].Level != doctor.OK || fs[1].Message != "Codex trusts the 5 hooks" {
		t.Errorf("codex trusted plugin: %+v", fs)
	}
	if !strings.HasPrefix(trust[0].Key, "skillrepo@skillrepo:hooks/hooks.json:") {
		t.Errorf("trust key %q", trust[0].Key)
	}
}

// TestPluginRefineCommands: each plugin or extension ships the in-agent
// /refine command that `hooks install` writes, running the review on the
// library its hooks serve (the same $SKILLREPO_LIBRARY default), as the
// agent reads it: Claude Code's commands/, Gemini CLI's commands/, Codex's
// skills/ (named in its manifest).
func TestPluginRefineCommands(t *testing.T) {
	line := func(lib string) string { return `skillrepo -C "` + lib + `" review --session current` }
	for _, tc := range []struct {
		file, want, hooksLib string
	}{
		{"claude-code/commands/refine.md", claudecode.RefineCommand("skillrepo", line("${SKILLREPO_LIBRARY:-${CLAUDE_CONFIG_DIR:-$HOME/.claude}/skills}")), "${SKILLREPO_LIBRARY:-${CLAUDE_CONFIG_DIR:-$HOME/.claude}/skills}"},
		{"codex/skills/refine/SKILL.md", codex.RefineSkill(line("${SKILLREPO_LIBRARY:-$HOME/.agents/skills}")), "${SKILLREPO_LIBRARY:-$HOME/.agents/skills}"},
		{"gemini/commands/refine.toml", gemini.RefineCommand(line("${SKILLREPO_LIBRARY:-${GEMINI_CLI_HOME:-$HOME}/.gemini/skills}")), "${SKILLREPO_LIBRARY:-${GEMINI_CLI_HOME:-$HOME}/.gemini/skills}"},
	} {
		got, err := os.ReadFile(filepath.Join("..", "plugins", filepath.FromSlash(tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("plugins/%s is not the command hooks install writes; want:\n%s", tc.file, tc.want)
		}
		agentDir, _, _ := strings.Cut(tc.file, "/")
		hooksJSON, err := os.ReadFile(filepath.Join("..", "plugins", agentDir, "hooks", "hooks.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(hooksJSON, []byte(`--library \"`+tc.hooksLib+`\"`)) {
			t.Errorf("plugins/%s: its hooks serve another library than %s", agentDir, tc.hooksLib)
		}
	}
	manifest, err := os.ReadFile(filepath.Join("..", "plugins", "codex", ".codex-plugin", "plugin.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(manifest, []byte(`"skills": "./skills/"`)) {
		t.Error("the Codex plugin's manifest does not name its skills folder")
	}
}
