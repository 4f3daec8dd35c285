package opencode

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/hooks"
)

// The plugin module starts skillrepo directly (no shell); doctor runs the
// same command through sh, which finds the same program.
var shell = doctor.Shell{Path: "OpenCode's (the plugin spawns skillrepo itself)", Argv: []string{"sh", "-c"}}

// Check runs the installed plugin's hook commands as OpenCode's plugin
// runs them, and says when the file at the plugin's place is not ours.
func (Agent) Check(ctx context.Context, env *doctor.Env) []doctor.Finding {
	var out []doctor.Finding
	for _, s := range scopes {
		if env.Scope != "" && s != env.Scope {
			continue
		}
		path, data, err := hooks.ReadFileTarget(Agent{}, s, env.Homes, env.Project)
		in := &hooks.Installation{Agent: Name, Scope: s, Settings: path}
		switch {
		case errors.Is(err, hooks.ErrNotOurs):
			out = append(out, doctor.Finding{Agent: string(Name), Scope: string(s), Part: "hooks", Check: "settings", Level: doctor.Warning, Path: path,
				Message: fmt.Sprintf("%s is not skillrepo's plugin: OpenCode runs it, and skillrepo leaves it alone", path), Fix: "move it aside, then: " + doctor.InstallCommand(Name, s)})
			continue
		case err != nil:
			in.Err = err
		case data == nil:
			continue
		default:
			cmds, lib, ok := PluginCommands(data, env.Project)
			if !ok {
				in.Err = fmt.Errorf("%w: its SKILLREPO line does not name a command and a library", hooks.ErrMalformed)
				break
			}
			if !readsSkills(lib, env.Homes, env.Project) {
				out = append(out, doctor.Finding{Agent: string(Name), Scope: string(s), Part: "hooks", Check: "library", Level: doctor.Warning, Path: lib,
					Message: fmt.Sprintf("OpenCode loads no skill from %s: it reads its own skill/ and skills/ folders, ~/.claude/skills, ~/.agents/skills (and a project's) and the skills.paths of opencode.json, so the library's skills never reach its model", lib),
					Fix:     fmt.Sprintf("add %q to \"skills\": {\"paths\": […]} in %s, or install with the library in one of those folders", lib, filepath.Join(configDir(env.Homes), "opencode.json"))})
			}
			for _, e := range Events {
				in.Handlers = append(in.Handlers, hooks.InstalledHandler{Event: e, Command: cmds[e]})
			}
		}
		out = append(out, doctor.HookChecks(ctx, env, in, shell)...)
	}
	return out
}

// Agent is one of doctor's checkers.
var _ doctor.Checker = Agent{}
