package codex

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// Codex 0.169 records a plugin in config.toml ([plugins."skillrepo@<mk>"]
// enabled = true, loaded while [features] plugins is not false) and runs
// the copy in $CODEX_HOME/plugins/cache/<mk>/skillrepo/<version>/. Its
// hooks, like hooks.json's, run only once trusted: [hooks.state] keys
// "skillrepo@<mk>:hooks/hooks.json:<event>:<group>:<handler>" with the
// same trusted_hash (docs/install.md §4).

// Plugins are skillrepo's plugins Codex has enabled (user scope: Codex
// keeps plugins in the user's config.toml only).
func (Agent) Plugins(homes agent.Homes, project string) []hooks.Plugin {
	cfgPath := ConfigPath(homes)
	_, cfg, err := readCodexConfig(cfgPath)
	if err != nil {
		return nil
	}
	if on, ok := lookupTOML(cfg, "features", "plugins").(bool); ok && !on {
		return nil
	}
	plugins, _ := cfg["plugins"].(map[string]any)
	var out []hooks.Plugin
	for id, v := range plugins {
		mk, ok := strings.CutPrefix(id, "skillrepo@")
		if !ok || strings.ContainsAny(mk, `/\`) || mk == ".." {
			continue
		}
		if on, _ := v.(map[string]any)["enabled"].(bool); !on {
			continue
		}
		dirs, _ := filepath.Glob(filepath.Join(homes.CodexHome, "plugins", "cache", mk, "skillrepo", "*"))
		sort.Strings(dirs)
		for i := len(dirs) - 1; i >= 0; i-- {
			if hooks.PluginRunsOurHooks(agent.Codex, filepath.Join(dirs[i], "hooks", "hooks.json")) {
				out = append(out, hooks.Plugin{Agent: agent.Codex, ID: id, Scope: agent.ScopeUser, Record: cfgPath, Dir: dirs[i], Remove: "codex plugin remove " + id})
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// pluginHooks are the handlers of a plugin's hooks/hooks.json, placed as
// Codex places them for its trust keys.
func pluginHooks(p hooks.Plugin) ([]hooks.InstalledHandler, error) {
	path := filepath.Join(p.Dir, "hooks", "hooks.json")
	data, err := boundedread.ReadFile(path, configLimit)
	if err != nil {
		return nil, err
	}
	var v struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Command       string  `json:"command"`
				Timeout       int64   `json:"timeout"`
				Async         bool    `json:"async"`
				StatusMessage *string `json:"statusMessage"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []hooks.InstalledHandler
	for event, groups := range v.Hooks {
		for g, grp := range groups {
			for i, h := range grp.Hooks {
				ih := hooks.InstalledHandler{Event: event, Group: g, Index: i, Command: h.Command, Timeout: h.Timeout, Async: h.Async, StatusMessage: h.StatusMessage}
				if grp.Matcher != nil {
					ih.Matcher, ih.HasMatcher = *grp.Matcher, true
				}
				out = append(out, ih)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Event != out[j].Event {
			return out[i].Event < out[j].Event
		}
		return out[i].Group < out[j].Group || out[i].Group == out[j].Group && out[i].Index < out[j].Index
	})
	return out, nil
}

// PluginTrust judges each hook of an enabled plugin as Codex would.
func PluginTrust(p hooks.Plugin, homes agent.Homes) ([]HookTrust, error) {
	hs, err := pluginHooks(p)
	if err != nil {
		return nil, err
	}
	return trustAt(p.ID+":hooks/hooks.json", hs, homes)
}

var _ hooks.PluginFinder = Agent{}
