package hooks

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// ErrPluginEnabled is returned (wrapped in a *PluginError) by InstallAgent
// when the agent already runs skillrepo's hooks through its plugin or
// extension: the settings-file hooks would run every event a second time.
var ErrPluginEnabled = errors.New("skillrepo's plugin is enabled")

// Plugin is skillrepo's plugin or extension as an agent's own program
// recorded it (docs/install.md §4): the plugin's hooks run
// `skillrepo hooks run <agent> …` like the settings-file hooks do.
type Plugin struct {
	Agent agent.Name `json:"agent"`
	// ID is the agent's name for it ("skillrepo@skillrepo": plugin @
	// marketplace; Gemini CLI's extension name).
	ID    string      `json:"id"`
	Scope agent.Scope `json:"scope,omitempty"`
	// Record is the file that records it enabled; Dir the plugin's
	// installed folder (the hooks.json the agent runs is under it).
	Record string `json:"record"`
	Dir    string `json:"dir"`
	// Remove is the agent's own command that removes it.
	Remove string `json:"remove"`
}

// PluginFinder is an agent that can carry skillrepo's hooks as a plugin
// or extension of its own program; its folder says where the program
// records one (agents/<name>/plugin.go).
type PluginFinder interface {
	// Plugins are skillrepo's plugins the agent has enabled for the
	// project (every scope); unreadable records count as none.
	Plugins(homes agent.Homes, project string) []Plugin
}

// PluginError is an install refused because the plugin already runs
// skillrepo's hooks.
type PluginError struct{ Plugin Plugin }

func (e *PluginError) Error() string {
	return fmt.Sprintf("%s already runs skillrepo's hooks through its plugin %s (%s): installing them in a settings file too would run every event twice",
		e.Plugin.Agent.Label(), e.Plugin.ID, e.Plugin.Record)
}

func (e *PluginError) Unwrap() error { return ErrPluginEnabled }

// PluginRunsOurHooks reports whether a plugin's hooks file (the agent's
// hooks.json under the plugin's folder) runs skillrepo's hooks for the
// agent: a plugin of the same name from elsewhere is not ours.
func PluginRunsOurHooks(a agent.Name, hooksFile string) bool {
	data, err := boundedread.ReadFile(hooksFile, settingsLimit)
	return err == nil && bytes.Contains(data, []byte(marker(a)))
}

// enabledPlugin is the first of the agent's enabled skillrepo plugins,
// if it has a PluginFinder.
func enabledPlugin(opts AgentOptions) (Plugin, bool) {
	pf, ok := opts.Agent.(PluginFinder)
	if !ok {
		return Plugin{}, false
	}
	ps := pf.Plugins(opts.Homes, opts.Project)
	if len(ps) == 0 {
		return Plugin{}, false
	}
	return ps[0], true
}
