package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
)

func installOpts(t *testing.T, client, scope string) InstallOptions {
	root := t.TempDir()
	return InstallOptions{Client: client, Scope: scope, Home: filepath.Join(root, "home"), Project: filepath.Join(root, "proj"),
		Command: "/usr/local/bin/skillrepo", Library: "/libs/skills"}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// apply writes a plan as the command does.
func apply(t *testing.T, p *InstallPlan) {
	t.Helper()
	if p.Changed {
		writeFile(t, p.Path, string(p.After))
	}
}

func decodeJSON(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return m
}

// TestInstallJSON: Claude Code and Cursor files keep every other key and
// server, in order; install twice changes nothing; uninstall removes only
// ours.
func TestInstallJSON(t *testing.T) {
	tests := []struct {
		client, scope, file string
		path                []string // where our entry lives
		wantType            bool
	}{
		{ClientClaudeCode, "project", "proj/.mcp.json", []string{"mcpServers"}, true},
		{ClientClaudeCode, "user", "home/.claude.json", []string{"mcpServers"}, true},
		{ClientClaudeCode, "local", "home/.claude.json", []string{"projects", "<project>", "mcpServers"}, true},
		{ClientCursor, "project", "proj/.cursor/mcp.json", []string{"mcpServers"}, false},
		{ClientCursor, "user", "home/.cursor/mcp.json", []string{"mcpServers"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.client+"-"+tt.scope, func(t *testing.T) {
			o := installOpts(t, tt.client, tt.scope)
			path, err := ConfigPath(o)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(path, filepath.FromSlash(tt.file)) {
				t.Fatalf("path %s, want …/%s", path, tt.file)
			}
			existing := `{"numStartups": 12, "mcpServers": {"github": {"command": "gh-mcp", "args": []}}, "zeta": {"unknown": [1, 2.50, null]}, "projects": {"` + o.Project + `": {"allowedTools": ["Bash"]}}}`
			writeFile(t, path, existing)
			p, err := PlanInstall(o)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Changed {
				t.Fatal("install changed nothing")
			}
			apply(t, p)
			got := decodeJSON(t, p.After)
			if got["numStartups"].(float64) != 12 || got["zeta"] == nil || got["mcpServers"].(map[string]any)["github"] == nil {
				t.Errorf("other keys lost:\n%s", p.After)
			}
			if i, j := strings.Index(string(p.After), "numStartups"), strings.Index(string(p.After), "zeta"); i < 0 || j < i {
				t.Errorf("key order changed:\n%s", p.After)
			}
			if !strings.Contains(string(p.After), "2.50") {
				t.Errorf("a number was rewritten:\n%s", p.After)
			}
			node := any(got)
			for _, k := range tt.path {
				if k == "<project>" {
					k = o.Project
				}
				node = node.(map[string]any)[k]
			}
			e := node.(map[string]any)[ServerName].(map[string]any)
			if e["command"] != o.Command || strings.Join(toStrings(e["args"]), " ") != "mcp --library /libs/skills" || (e["type"] == "stdio") != tt.wantType {
				t.Errorf("entry %v", e)
			}
			if tt.scope == "local" && got["projects"].(map[string]any)[o.Project].(map[string]any)["allowedTools"] == nil {
				t.Errorf("the project's other settings were lost")
			}

			again, err := PlanInstall(o)
			if err != nil || again.Changed {
				t.Errorf("install twice: changed %v, %v", again.Changed, err)
			}

			un, err := PlanUninstall(o)
			if err != nil || !un.Changed {
				t.Fatalf("uninstall: %v %v", un, err)
			}
			apply(t, un)
			if strings.Contains(string(un.After), `"skillrepo"`) || !strings.Contains(string(un.After), "gh-mcp") || !strings.Contains(string(un.After), "numStartups") {
				t.Errorf("uninstall:\n%s", un.After)
			}
			if again, _ := PlanUninstall(o); again.Changed {
				t.Error("uninstall twice changed something")
			}
		})
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestInstallFresh: no file yet; uninstall of nothing writes nothing.
func TestInstallFresh(t *testing.T) {
	for _, c := range []string{ClientClaudeCode, ClientCursor, ClientCodex} {
		o := installOpts(t, c, "")
		if p, err := PlanUninstall(o); err != nil || p.Changed || p.Exists {
			t.Errorf("%s: uninstall with no file: %+v %v", c, p, err)
		}
		p, err := PlanInstall(o)
		if err != nil || !p.Changed || p.Exists {
			t.Fatalf("%s: %+v %v", c, p, err)
		}
		if !strings.Contains(string(p.After), "/libs/skills") {
			t.Errorf("%s:\n%s", c, p.After)
		}
	}
}

// TestInstallMalformed: a file that does not parse is refused.
func TestInstallMalformed(t *testing.T) {
	for _, tt := range []struct{ client, content string }{
		{ClientClaudeCode, `{"mcpServers": {`},
		{ClientClaudeCode, `["not", "an object"]`},
		{ClientClaudeCode, `{"mcpServers": "a string"}`},
		{ClientCursor, `{"a": 1} trailing`},
		{ClientCodex, "[mcp_servers.x\ncommand = 1"},
		{ClientCodex, "[mcp_servers]\nskillrepo = { command = \"old\" }\n"},
	} {
		o := installOpts(t, tt.client, "")
		path, _ := ConfigPath(o)
		writeFile(t, path, tt.content)
		if _, err := PlanInstall(o); err == nil {
			t.Errorf("%s %q: no error", tt.client, tt.content)
		}
	}
}

const codexConfig = `# my Codex settings
model = "gpt-5-codex" # the best one

[mcp_servers.github]
# GitHub's server
command = "gh-mcp"
args = ["--read-only"]

[profiles.fast]
model = "gpt-5-mini"
`

// TestInstallCodex: comments and every other table survive, our table is
// added, replaced and removed as text.
func TestInstallCodex(t *testing.T) {
	o := installOpts(t, ClientCodex, "user")
	path, _ := ConfigPath(o)
	if !strings.HasSuffix(path, filepath.Join(".codex", "config.toml")) {
		t.Fatalf("path %s", path)
	}
	writeFile(t, path, codexConfig)
	p, err := PlanInstall(o)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, p)
	after := string(p.After)
	if !strings.HasPrefix(after, codexConfig) {
		t.Errorf("the original text is not kept as it was:\n%s", after)
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		} `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal(p.After, &cfg); err != nil {
		t.Fatal(err)
	}
	if e := cfg.MCPServers["skillrepo"]; e.Command != o.Command || strings.Join(e.Args, " ") != "mcp --library /libs/skills" || cfg.MCPServers["github"].Command != "gh-mcp" {
		t.Errorf("parsed: %+v", cfg)
	}
	if again, _ := PlanInstall(o); again.Changed {
		t.Error("install twice changed something")
	}
	// A changed entry (another library) replaces our table in place.
	o.Library = "/other"
	p, err = PlanInstall(o)
	if err != nil || !p.Changed || strings.Count(string(p.After), "[mcp_servers.skillrepo]") != 1 || !strings.Contains(string(p.After), "/other") {
		t.Fatalf("reinstall: %v\n%s", err, p.After)
	}
	apply(t, p)
	un, err := PlanUninstall(o)
	if err != nil {
		t.Fatal(err)
	}
	if string(un.After) != codexConfig {
		t.Errorf("uninstall did not give back the original:\n%q\nwant\n%q", un.After, codexConfig)
	}

	// Our table in the middle, with a sub-table: both go, the rest stays.
	mid := "a = 1\n\n[mcp_servers.skillrepo]\ncommand = \"x\"\n\n[mcp_servers.skillrepo.env]\nK = \"v\"\n\n[z]\nb = 2 # keep\n"
	writeFile(t, path, mid)
	un, err = PlanUninstall(o)
	if err != nil {
		t.Fatal(err)
	}
	if string(un.After) != "a = 1\n\n[z]\nb = 2 # keep\n" {
		t.Errorf("uninstall from the middle:\n%q", un.After)
	}
}

// Every JSON client's file keeps its bytes around our entry: a person's
// layout and comments stay, and install then uninstall gives the file
// back, the "mcpServers" our install added included. Gemini CLI's entry
// is trusted only with AllowTools; Claude Code's permission rule goes in
// and out of the settings file of the scope.
func TestInstallKeepsBytes(t *testing.T) {
	const gemini = "{\n  // Gemini CLI settings\n  \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}},\n  \"ui\": {\n    \"theme\": \"Default\"\n  }\n}\n"
	for _, tc := range []struct {
		client, scope, file, before string
	}{
		{ClientGemini, "user", "home/.gemini/settings.json", gemini},
		{ClientClaudeCode, "project", "proj/.mcp.json", "{\n  \"mcpServers\": {\n    \"gh\": {\"command\": \"gh-mcp\"}\n  }\n}\n"},
		{ClientCursor, "project", "proj/.cursor/mcp.json", "{\"other\": [1, 2]}\n"},
	} {
		t.Run(tc.client, func(t *testing.T) {
			o := installOpts(t, tc.client, tc.scope)
			o.AllowTools = true
			root := filepath.Dir(o.Home)
			path := filepath.Join(root, tc.file)
			writeFile(t, path, tc.before)
			p, err := PlanInstall(o)
			if err != nil {
				t.Fatal(err)
			}
			apply(t, p)
			got, _ := os.ReadFile(path)
			if tc.client == ClientGemini {
				if !strings.Contains(string(got), "// Gemini CLI settings") || !strings.Contains(string(got), "\"ui\": {\n    \"theme\": \"Default\"\n  },") || !strings.Contains(string(got), `"trust": true`) {
					t.Errorf("installed:\n%s", got)
				}
			}
			u, err := PlanUninstall(o)
			if err != nil {
				t.Fatal(err)
			}
			apply(t, u)
			if after, _ := os.ReadFile(path); string(after) != tc.before {
				t.Errorf("after uninstall:\n%s\nwant:\n%s", after, tc.before)
			}
		})
	}

	// Claude Code: the rule joins permissions.allow and leaves it.
	o := installOpts(t, ClientClaudeCode, "project")
	settings := filepath.Join(o.Project, ".claude", "settings.json")
	const before = "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\"]\n  }\n}\n"
	writeFile(t, settings, before)
	p, err := PlanAllowTools(o, false)
	if err != nil || p.Path != settings {
		t.Fatalf("%+v %v", p, err)
	}
	apply(t, p)
	if got, _ := os.ReadFile(settings); !strings.Contains(string(got), `"allow": ["Bash(ls)", "mcp__skillrepo"]`) {
		t.Errorf("allowed:\n%s", got)
	}
	if again, _ := PlanAllowTools(o, false); again.Changed {
		t.Error("allowing twice changes the file")
	}
	p, _ = PlanAllowTools(o, true)
	apply(t, p)
	if got, _ := os.ReadFile(settings); string(got) != before {
		t.Errorf("after removing the rule:\n%s", got)
	}
}
