package claudecode

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// Claude Code records a plugin in two places (docs/install.md §4, checked
// against Claude Code 2.1): a settings file's enabledPlugins
// ("skillrepo@<marketplace>": true; the later scope of user, project,
// local wins) and ~/.claude/plugins/installed_plugins.json, whose
// installPath is the copy it runs. Ours is the one whose
// hooks/hooks.json runs `skillrepo hooks run claude-code`.

// recordLimit bounds the read of the program's records: kilobytes.
const recordLimit = 4 << 20

type installedPlugins struct {
	Plugins map[string][]struct {
		Scope       string `json:"scope"`
		InstallPath string `json:"installPath"`
		ProjectPath string `json:"projectPath"`
	} `json:"plugins"`
}

func readJSON(path string, v any) bool {
	data, err := boundedread.ReadFile(path, recordLimit)
	return err == nil && json.Unmarshal(data, v) == nil
}

// Plugins are skillrepo's plugins Claude Code has enabled for the project.
func (a Agent) Plugins(homes agent.Homes, project string) []hooks.Plugin {
	type state struct {
		on     bool
		scope  agent.Scope
		record string
	}
	enabled := map[string]state{}
	for _, s := range scopes {
		path, err := a.SettingsPath(s, homes, project)
		if err != nil {
			continue
		}
		var v struct {
			EnabledPlugins map[string]any `json:"enabledPlugins"`
		}
		if !readJSON(path, &v) {
			continue
		}
		for id, on := range v.EnabledPlugins {
			if b, ok := on.(bool); ok && strings.HasPrefix(id, "skillrepo@") {
				enabled[id] = state{on: b, scope: s, record: path}
			}
		}
	}
	var inst installedPlugins
	readJSON(filepath.Join(homes.ClaudeConfig, "plugins", "installed_plugins.json"), &inst)
	var out []hooks.Plugin
	for id, st := range enabled {
		if !st.on {
			continue
		}
		for _, e := range inst.Plugins[id] {
			dir := e.InstallPath
			if rest, ok := strings.CutPrefix(dir, "~/"); ok {
				dir = filepath.Join(homes.Home, rest)
			}
			if dir == "" || !hooks.PluginRunsOurHooks(agent.ClaudeCode, filepath.Join(dir, "hooks", "hooks.json")) {
				continue
			}
			remove := "claude plugin uninstall " + id
			if st.scope != agent.ScopeUser {
				remove += " --scope " + string(st.scope)
			}
			out = append(out, hooks.Plugin{Agent: agent.ClaudeCode, ID: id, Scope: st.scope, Record: st.record, Dir: dir, Remove: remove})
			break
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

var _ hooks.PluginFinder = Agent{}
