// Package plugins holds no code: its folders are the Claude Code plugin,
// the Codex plugin and the Gemini CLI extension (docs/install.md §4), and
// this test checks their manifests. How each agent runs them is checked
// with the real programs by scripts/e2e/claude-plugin.sh, codex-plugin.sh
// and gemini-extension.sh.
package plugins

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository, where the marketplaces are.
const root = ".."

// readJSON decodes one manifest strictly: one JSON value, nothing after it.
func readJSON(t *testing.T, rel string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	if dec.More() {
		t.Fatalf("%s: more than one JSON value", rel)
	}
}

type manifest struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type marketplace struct {
	Name    string `json:"name"`
	Plugins []struct {
		Name    string          `json:"name"`
		Version string          `json:"version"`
		Source  json.RawMessage `json:"source"`
	} `json:"plugins"`
}

// pluginDir is a marketplace entry's folder: Claude Code's source is a
// "./path" string, Codex's {"source": "local", "path": "./path"}.
func pluginDir(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct{ Source, Path string }
	if err := json.Unmarshal(raw, &o); err != nil || o.Source != "local" {
		t.Fatalf("marketplace source %s is neither a path nor a local source", raw)
	}
	return o.Path
}

var semver = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)

// TestManifestVersions: the marketplaces name the plugin folders that are
// here, every manifest is named skillrepo and carries one version, the
// release's: a vX.Y.Z tag's release workflow sets SKILLREPO_RELEASE_TAG,
// and the manifests must then say X.Y.Z (docs/install.md §4).
func TestManifestVersions(t *testing.T) {
	versions := map[string]string{}
	for _, m := range []struct{ file, dir string }{
		{".claude-plugin/marketplace.json", ".claude-plugin/plugin.json"},
		{".agents/plugins/marketplace.json", ".codex-plugin/plugin.json"},
	} {
		var mk marketplace
		readJSON(t, m.file, &mk)
		if mk.Name != "skillrepo" || len(mk.Plugins) != 1 || mk.Plugins[0].Name != "skillrepo" {
			t.Fatalf("%s: want the marketplace skillrepo with the one plugin skillrepo", m.file)
		}
		p := mk.Plugins[0]
		dir := pluginDir(t, p.Source)
		if !strings.HasPrefix(dir, "./plugins/") {
			t.Errorf("%s: the plugin's folder %q is not under ./plugins/", m.file, dir)
		}
		var pm manifest
		rel := strings.TrimPrefix(dir, "./") + "/" + m.dir
		readJSON(t, rel, &pm)
		if pm.Name != "skillrepo" {
			t.Errorf("%s: name %q, want skillrepo", rel, pm.Name)
		}
		versions[rel] = pm.Version
		if p.Version != "" {
			versions[m.file] = p.Version
		}
	}
	var ext manifest
	readJSON(t, "plugins/gemini/gemini-extension.json", &ext)
	if ext.Name != "skillrepo" {
		t.Errorf("gemini-extension.json: name %q, want skillrepo", ext.Name)
	}
	versions["plugins/gemini/gemini-extension.json"] = ext.Version

	want := strings.TrimPrefix(os.Getenv("SKILLREPO_RELEASE_TAG"), "v")
	for file, v := range versions {
		if !semver.MatchString(v) {
			t.Errorf("%s: version %q is not X.Y.Z", file, v)
		}
		if want == "" {
			want = v
		}
		if v != want {
			t.Errorf("%s: version %s, want %s (every manifest carries the release's version)", file, v, want)
		}
	}
}

// TestManifestCommands: each hooks file runs `skillrepo hooks run <agent>
// <its event>` and nothing but skillrepo, and each MCP server runs
// `skillrepo mcp`. (That the handlers are the ones `hooks install` writes
// is checked by the end-to-end scenarios, against its --dry-run.)
func TestManifestCommands(t *testing.T) {
	type hooksFile struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	type mcpFile struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	for _, c := range []struct{ agent, hooks, mcp string }{
		{"claude-code", "plugins/claude-code/hooks/hooks.json", "plugins/claude-code/.mcp.json"},
		{"codex", "plugins/codex/hooks/hooks.json", "plugins/codex/.mcp.json"},
		{"gemini", "plugins/gemini/hooks/hooks.json", "plugins/gemini/gemini-extension.json"},
	} {
		var hf hooksFile
		readJSON(t, c.hooks, &hf)
		runs := 0
		for event, groups := range hf.Hooks {
			for _, g := range groups {
				for _, h := range g.Hooks {
					switch {
					case h.Type != "command":
						t.Errorf("%s %s: a %q handler, want command", c.hooks, event, h.Type)
					case strings.Contains(h.Command, " hooks run "):
						runs++
						if !strings.Contains(h.Command, "exec skillrepo hooks run "+c.agent+" "+event+" --library ") {
							t.Errorf("%s %s runs %q, want skillrepo hooks run %s %s --library …", c.hooks, event, h.Command, c.agent, event)
						}
					case !strings.Contains(h.Command, "${CLAUDE_PLUGIN_ROOT}/scripts/"):
						t.Errorf("%s %s runs %q: neither skillrepo nor a script of the plugin", c.hooks, event, h.Command)
					}
				}
			}
		}
		if runs == 0 {
			t.Errorf("%s runs no skillrepo hook", c.hooks)
		}
		var mf mcpFile
		readJSON(t, c.mcp, &mf)
		s, ok := mf.MCPServers["skillrepo"]
		if !ok || len(mf.MCPServers) != 1 {
			t.Errorf("%s: want the one MCP server skillrepo, have %v", c.mcp, mf.MCPServers)
			continue
		}
		if cmd := s.Command + " " + strings.Join(s.Args, " "); !strings.Contains(cmd, "exec skillrepo mcp --library ") {
			t.Errorf("%s: the server runs %q, want skillrepo mcp --library …", c.mcp, cmd)
		}
	}
}
