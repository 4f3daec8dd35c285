package doctor

import (
	"fmt"

	"github.com/skillrepo/skillrepo/hooks"
)

// PluginFindings report skillrepo's plugin or extension of an agent (what
// its own program recorded: hooks.PluginFinder) and warn when the
// settings-file hooks of `hooks install` are there too: the agent runs
// both, so every event runs skillrepo twice.
func PluginFindings(env *Env, p hooks.Plugin, installs []*hooks.Installation) []Finding {
	if env.Scope != "" && p.Scope != "" && env.Scope != p.Scope {
		return nil
	}
	f := func(check string, level Level, msg, fix string) Finding {
		return Finding{Agent: string(p.Agent), Scope: string(p.Scope), Part: "plugin", Check: check, Level: level, Message: msg, Fix: fix, Path: p.Record}
	}
	out := []Finding{f("plugin", OK, fmt.Sprintf("skillrepo's %s plugin %s is enabled (%s); its hooks run from %s", p.Agent.Label(), p.ID, p.Record, p.Dir), "")}
	for _, in := range installs {
		if !in.Installed() {
			continue
		}
		fix := "skillrepo hooks uninstall --" + string(p.Agent)
		if in.Scope != "" {
			fix += " --scope " + string(in.Scope)
		}
		out = append(out, f("twice", Warning,
			fmt.Sprintf("the plugin %s and the hooks of `skillrepo hooks install` in %s both run: every event runs skillrepo twice", p.ID, in.Settings),
			fix+" (keep the plugin), or remove the plugin: "+p.Remove))
	}
	return out
}
