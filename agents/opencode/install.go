package opencode

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
)

// plugin is skillrepo's OpenCode plugin module; its SKILLREPO line is
// the one an install fills in.
//
//go:embed skillrepo.js
var plugin string

// pluginFile is the module's name in a plugins folder.
const pluginFile = "skillrepo.js"

// configLine is the module's line naming skillrepo's command and library
// (compiled on first use, not in every command's start-up).
var configLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^const SKILLREPO = (.*);$`) })

// pluginConfig is what that line holds.
type pluginConfig struct {
	Command string `json:"command"`
	Library string `json:"library"`
}

// PluginFile: skillrepo.js in OpenCode's user plugins folder, or in the
// project's .opencode/plugins.
func (Agent) PluginFile(scope agent.Scope, homes agent.Homes, project string) (string, error) {
	switch scope {
	case agent.ScopeUser, "":
		return filepath.Join(configDir(homes), "plugins", pluginFile), nil
	case agent.ScopeProject:
		return filepath.Join(project, ".opencode", "plugins", pluginFile), nil
	case agent.ScopeLocal:
		return "", fmt.Errorf("opencode has no local scope: use --scope user or project")
	}
	return "", fmt.Errorf("unknown scope %q: want user, project or local", scope)
}

// DefaultLibrary: OpenCode's own skills folder, ~/.config/opencode/skills,
// or the project's .opencode/skills. OpenCode reads skill/ as well: a
// person's existing skill/ is the library when there is no skills/.
func (Agent) DefaultLibrary(scope agent.Scope, homes agent.Homes, project string) string {
	dir := configDir(homes)
	if scope == agent.ScopeProject {
		dir = filepath.Join(filepath.Clean(project), ".opencode")
	}
	return skillsFolder(dir)
}

// skillsFolder is dir's skills/, or its skill/ when only that one is a
// folder.
func skillsFolder(dir string) string {
	plural := filepath.Join(dir, "skills")
	if _, err := os.Stat(plural); err == nil {
		return plural
	}
	if fi, err := os.Stat(filepath.Join(dir, "skill")); err == nil && fi.IsDir() {
		return filepath.Join(dir, "skill")
	}
	return plural
}

// PluginSource is the module with command and library filled in (a
// relative library is resolved against the folder OpenCode runs in).
func (Agent) PluginSource(command, library string) []byte {
	b, _ := json.Marshal(pluginConfig{Command: command, Library: library})
	return []byte(configLine().ReplaceAllLiteralString(plugin, "const SKILLREPO = "+string(b)+";"))
}

// PluginCommands are the hook commands an installed module runs, one per
// event, as a shell would run them (for doctor, which runs each as
// OpenCode would); false when data is not a module PluginSource wrote.
// A relative library is taken relative to project.
func PluginCommands(data []byte, project string) (map[string]string, string, bool) {
	m := configLine().FindSubmatch(data)
	if m == nil {
		return nil, "", false
	}
	var c pluginConfig
	if err := json.Unmarshal(m[1], &c); err != nil || c.Command == "" || c.Library == "" {
		return nil, "", false
	}
	lib := c.Library
	if !filepath.IsAbs(lib) {
		lib = filepath.Join(project, filepath.FromSlash(lib))
	}
	out := map[string]string{}
	for _, e := range Events {
		out[e] = quote(c.Command) + " hooks run " + string(Name) + " " + e + " --library " + quote(lib)
	}
	return out, lib, true
}

// PluginLibrary is the library an installed module serves.
func (Agent) PluginLibrary(data []byte, project string) (string, bool) {
	_, lib, ok := PluginCommands(data, project)
	return lib, ok
}

// Events are the hook events the module sends.
var Events = []string{agent.EventSessionStart, agent.EventPostToolUse, agent.EventUserPromptSubmit, agent.EventStop, agent.EventSessionEnd}

// quote is s in single quotes for sh.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

var _ hooks.FileTarget = Agent{}
