package codex

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// Codex runs a hook command through the person's login shell ($SHELL
// -lc) in the session's folder, and only once the hook is trusted (see
// Trust); it reads $CODEX_HOME/hooks.json, and a project's
// .codex/ only when the project is trusted; [features] hooks = false
// turns hooks off.

func codexShell(env *doctor.Env) doctor.Shell {
	sh := env.Var("SHELL")
	if sh == "" {
		sh = "/bin/sh"
	}
	return doctor.Shell{Argv: []string{sh, "-lc"}, Path: "the one your login shell sets up (" + sh + " -lc reads your profile)"}
}

func (Agent) Check(ctx context.Context, env *doctor.Env) []doctor.Finding {
	var out []doctor.Finding
	cfgPath := ConfigPath(env.Homes)
	cfg := readTOML(cfgPath)
	ins := doctor.Installations(env, Agent{}, scopes...)
	for _, in := range ins {
		out = append(out, doctor.HookChecks(ctx, env, in, codexShell(env))...)
		if in.Err != nil {
			continue
		}
		out = append(out, codexTrustFindings(env, in)...)
		if in.Scope == agent.ScopeProject {
			out = append(out, codexProjectTrust(env, cfg, cfgPath, in)...)
		}
	}
	for _, p := range (Agent{}).Plugins(env.Homes, env.Project) {
		if pf := doctor.PluginFindings(env, p, ins); len(pf) > 0 {
			out = append(out, pf...)
			out = append(out, codexPluginTrustFindings(env, p)...)
		}
	}
	out = append(out, doctor.LocationCheck(env, Agent{}, "CODEX_HOME")...)
	if len(out) > 0 {
		for _, key := range []string{"hooks", "codex_hooks"} {
			if on, ok := lookupTOML(cfg, "features", key).(bool); ok && !on {
				out = append(out, doctor.Finding{Agent: string(agent.Codex), Part: "hooks", Check: "enabled", Level: doctor.Problem, Path: cfgPath,
					Message: fmt.Sprintf("%s sets [features] %s = false: Codex runs no hook", cfgPath, key),
					Fix:     fmt.Sprintf("remove %s = false from [features] in %s", key, cfgPath)})
			}
		}
	}
	for _, e := range doctor.MCPEntries(env, agent.Codex, scopes...) {
		out = append(out, doctor.MCPRunCheck(ctx, env, e)...)
	}
	return out
}

// codexTrustFindings say which of our hooks Codex will skip and how to
// trust them.
func codexTrustFindings(env *doctor.Env, in *hooks.Installation) []doctor.Finding {
	trust, err := Trust(in, env.Homes)
	fix := doctor.InstallCommand(agent.Codex, in.Scope) + " --trust (or accept them in Codex's /hooks)"
	return trustFindings(env, "hooks", in.Scope, "in "+in.Settings, trust, err, fix)
}

// codexPluginTrustFindings: the plugin's hooks are skipped the same way
// until trusted; Codex's /hooks lists them under the plugin.
func codexPluginTrustFindings(env *doctor.Env, p hooks.Plugin) []doctor.Finding {
	trust, err := PluginTrust(p, env.Homes)
	fix := doctor.InstallCommand(agent.Codex, agent.ScopeUser) + " --trust (or open codex, run /hooks and trust the plugin " + p.ID + "'s hooks)"
	return trustFindings(env, "plugin", p.Scope, "of the plugin "+p.ID, trust, err, fix)
}

// trustFindings say which hooks (where: "in <file>", "of the plugin …")
// Codex will skip and how to trust them.
func trustFindings(env *doctor.Env, part string, scope agent.Scope, where string, trust []HookTrust, err error, fix string) []doctor.Finding {
	f := func(level doctor.Level, msg, fix string) doctor.Finding {
		return doctor.Finding{Agent: string(agent.Codex), Scope: string(scope), Part: part, Check: "trust", Level: level, Message: msg, Fix: fix, Path: ConfigPath(env.Homes)}
	}
	if err != nil {
		return []doctor.Finding{f(doctor.Problem, "Codex's trust of the hooks cannot be read: "+err.Error(), "fix "+ConfigPath(env.Homes))}
	}
	var untrusted, modified, disabled []string
	for _, t := range trust {
		switch t.Status {
		case Untrusted:
			untrusted = append(untrusted, t.Handler.Event)
		case Modified:
			modified = append(modified, t.Handler.Event)
		case Disabled:
			disabled = append(disabled, t.Handler.Event)
		}
	}
	var out []doctor.Finding
	if len(untrusted) > 0 {
		out = append(out, f(doctor.Problem, fmt.Sprintf("Codex has not trusted skillrepo's %s hooks %s: it skips them without a word (codex exec too)", strings.Join(untrusted, ", "), where), fix))
	}
	if len(modified) > 0 {
		out = append(out, f(doctor.Problem, fmt.Sprintf("skillrepo's %s hooks %s changed since Codex trusted them (a reinstall from another binary or library changes the command): Codex skips them", strings.Join(modified, ", "), where), fix))
	}
	if len(disabled) > 0 {
		out = append(out, f(doctor.Problem, fmt.Sprintf("skillrepo's %s hooks are turned off in Codex's /hooks", strings.Join(disabled, ", ")), "turn them on in Codex's /hooks, or remove their enabled = false in "+ConfigPath(env.Homes)))
	}
	if len(out) == 0 {
		out = append(out, f(doctor.OK, fmt.Sprintf("Codex trusts the %d hooks", len(trust)), ""))
	}
	return out
}

// codexProjectTrust: Codex loads a project's .codex/ (hooks.json
// included) only for a project the person trusted.
func codexProjectTrust(env *doctor.Env, cfg map[string]any, cfgPath string, in *hooks.Installation) []doctor.Finding {
	project := filepath.Dir(filepath.Dir(in.Settings))
	candidates := []string{project}
	if r, err := filepath.EvalSymlinks(project); err == nil && r != project {
		candidates = append(candidates, r)
	}
	for _, p := range candidates {
		if level, _ := lookupTOML(cfg, "projects", p, "trust_level").(string); level == "trusted" {
			return nil
		}
	}
	return []doctor.Finding{{Agent: string(agent.Codex), Scope: string(in.Scope), Part: "hooks", Check: "project-trust", Level: doctor.Problem, Path: cfgPath,
		Message: fmt.Sprintf("Codex reads %s only in a trusted project, and %s is not trusted", in.Settings, project),
		Fix:     fmt.Sprintf("trust the project when Codex asks, or add [projects.%q] trust_level = \"trusted\" to %s", project, cfgPath)}}
}

// readTOML reads a Codex config for a check: bounded, a regular file only
// (a FIFO in its place must not hang doctor); an unreadable one is nil.
func readTOML(path string) map[string]any {
	data, err := boundedread.ReadFile(path, configLimit)
	if err != nil {
		return nil
	}
	var v map[string]any
	if toml.Unmarshal(data, &v) != nil {
		return nil
	}
	return v
}

func lookupTOML(v map[string]any, keys ...string) any { return doctor.Lookup(v, keys...) }

// Agent is one of doctor's checkers.
var _ doctor.Checker = Agent{}
