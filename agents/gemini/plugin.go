package gemini

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// Gemini CLI 0.61 keeps an extension in ~/.gemini/extensions/<name>/ with
// its install record .gemini-extension-install.json ({"source", "type":
// "link" | "local" | "git"}; a link runs the source folder, the others
// the copy there) and enables it per folder in
// extensions/extension-enablement.json ({"<name>": {"overrides":
// ["/dir/*", "!/dir/sub/"]}}: the last rule matching the session's
// folder wins, enabled when none does). Its hooks/hooks.json runs beside
// settings.json's hooks (docs/install.md §4).

const extensionName = "skillrepo"

// recordLimit bounds the read of the program's records: kilobytes.
const recordLimit = 4 << 20

// Plugins is skillrepo's extension when Gemini CLI has it enabled for the
// project.
func (Agent) Plugins(homes agent.Homes, project string) []hooks.Plugin {
	extDir := filepath.Join(homes.GeminiDir, "extensions")
	record := filepath.Join(extDir, extensionName, ".gemini-extension-install.json")
	var inst struct {
		Source string `json:"source"`
		Type   string `json:"type"`
	}
	if !readJSON(record, &inst) {
		return nil
	}
	dir := filepath.Join(extDir, extensionName)
	if inst.Type == "link" {
		dir = inst.Source
	}
	if dir == "" || !hooks.PluginRunsOurHooks(agent.Gemini, filepath.Join(dir, "hooks", "hooks.json")) {
		return nil
	}
	var en map[string]struct {
		Overrides []string `json:"overrides"`
	}
	if readJSON(filepath.Join(extDir, "extension-enablement.json"), &en) && !enabledIn(en[extensionName].Overrides, project) {
		return nil
	}
	return []hooks.Plugin{{Agent: agent.Gemini, ID: extensionName, Scope: agent.ScopeUser, Record: record, Dir: dir, Remove: "gemini extensions uninstall " + extensionName}}
}

// enabledIn applies Gemini CLI's enablement rules to a folder: a rule
// "<dir>/*" covers the folder and those under it, "<dir>/" that folder
// only, a leading "!" disables; the last rule that matches wins.
func enabledIn(rules []string, folder string) bool {
	p := filepath.ToSlash(folder)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	on := true
	for _, r := range rules {
		base, disable := strings.CutPrefix(r, "!")
		base, sub := strings.CutSuffix(base, "*")
		if sub && strings.HasPrefix(p, base) || !sub && p == base {
			on = !disable
		}
	}
	return on
}

func readJSON(path string, v any) bool {
	data, err := boundedread.ReadFile(path, recordLimit)
	return err == nil && json.Unmarshal(data, v) == nil
}

var _ hooks.PluginFinder = Agent{}
