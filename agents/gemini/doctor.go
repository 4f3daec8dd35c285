package gemini

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/hooks"
)

// Gemini CLI runs a hook command through bash -c in the session's folder,
// after replacing $GEMINI_PROJECT_DIR, $GEMINI_CWD, $GEMINI_SESSION_ID
// and $CLAUDE_PROJECT_DIR in its text; it runs no hook at all (and a
// headless session refuses to start) in a folder that is not trusted
// while folder trust is on, which is its default; hooksConfig.enabled:
// false turns hooks off and hooksConfig.disabled lists hooks turned off.

var geminiShell = doctor.Shell{
	Path: "Gemini CLI's own",
	Argv: []string{"bash", "-c"},
	Env: func(project, session string) []string {
		return []string{"GEMINI_PROJECT_DIR=" + project, "GEMINI_CWD=" + project, "GEMINI_SESSION_ID=" + session, "CLAUDE_PROJECT_DIR=" + project}
	},
	Expand: func(cmd, project, session string) string {
		q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
		return strings.NewReplacer("$GEMINI_PROJECT_DIR", q(project), "$GEMINI_CWD", q(project), "$GEMINI_SESSION_ID", q(session),
			"$CLAUDE_PROJECT_DIR", q(project)).Replace(cmd)
	},
}

func (Agent) Check(ctx context.Context, env *doctor.Env) []doctor.Finding {
	var out []doctor.Finding
	ins := doctor.Installations(env, Agent{}, scopes...)
	for _, in := range ins {
		out = append(out, doctor.HookChecks(ctx, env, in, geminiShell)...)
		if in.Err == nil {
			out = append(out, geminiDisabled(env, in)...)
		}
	}
	for _, p := range (Agent{}).Plugins(env.Homes, env.Project) {
		out = append(out, doctor.PluginFindings(env, p, ins)...)
	}
	out = append(out, doctor.LocationCheck(env, Agent{}, "GEMINI_CLI_HOME")...)
	entries := doctor.MCPEntries(env, agent.Gemini, scopes...)
	for _, e := range entries {
		out = append(out, doctor.MCPRunCheck(ctx, env, e)...)
		if !e.Trust {
			out = append(out, e.Finding("permissions", doctor.Warning, "the entry is not trusted: Gemini CLI asks before each call of its tools, and a headless session cannot ask",
				"skillrepo mcp install --gemini --allow-tools --scope "+e.Scope))
		}
	}
	if len(ins) > 0 || len(entries) > 0 {
		out = append(out, geminiFolderTrust(env)...)
	}
	return out
}

// geminiSettings is the merged view of the settings files that turn
// hooks off (user, then the project's).
func geminiSettings(env *doctor.Env) []map[string]any {
	var out []map[string]any
	for _, s := range []agent.Scope{agent.ScopeUser, agent.ScopeProject} {
		p, _ := (Agent{}).SettingsPath(s, env.Homes, env.Project)
		if v, err := doctor.ReadJSONFile(p); err == nil && v != nil {
			out = append(out, v)
		}
	}
	return out
}

func geminiDisabled(env *doctor.Env, in *hooks.Installation) []doctor.Finding {
	var out []doctor.Finding
	f := func(msg, fix string) doctor.Finding {
		return doctor.Finding{Agent: string(agent.Gemini), Scope: string(in.Scope), Part: "hooks", Check: "enabled", Level: doctor.Problem, Message: msg, Fix: fix, Path: in.Settings}
	}
	for _, v := range geminiSettings(env) {
		if on, ok := doctor.Lookup(v, "hooksConfig", "enabled").(bool); ok && !on {
			out = append(out, f("hooksConfig.enabled is false: Gemini CLI runs no hook", "set hooksConfig.enabled to true (or remove it) in your Gemini CLI settings"))
		}
		disabled, _ := doctor.Lookup(v, "hooksConfig", "disabled").([]any)
		for _, h := range in.Handlers {
			if slices.ContainsFunc(disabled, func(d any) bool { s, _ := d.(string); return s != "" && (s == h.Name || s == h.Command) }) {
				out = append(out, f(fmt.Sprintf("the %s hook (%s) is turned off in hooksConfig.disabled", h.Event, h.Name), "remove it from hooksConfig.disabled, or /hooks enable "+h.Name))
			}
		}
	}
	return out
}

// geminiFolderTrust: with folder trust on (the default), the project
// folder must be trusted in trustedFolders.json for any hook to run.
func geminiFolderTrust(env *doctor.Env) []doctor.Finding {
	switch env.Var("GEMINI_CLI_TRUST_WORKSPACE") {
	case "true":
		return nil
	case "false":
		return []doctor.Finding{{Agent: string(agent.Gemini), Check: "folder-trust", Level: doctor.Problem, Message: "GEMINI_CLI_TRUST_WORKSPACE=false: Gemini CLI trusts no folder, so it runs no hook", Fix: "unset GEMINI_CLI_TRUST_WORKSPACE"}}
	}
	for _, v := range geminiSettings(env) {
		if on, ok := doctor.Lookup(v, "security", "folderTrust", "enabled").(bool); ok && !on {
			return nil
		}
	}
	path := env.Var("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	if path == "" {
		path = filepath.Join(env.Homes.GeminiDir, "trustedFolders.json")
	}
	rules, err := doctor.ReadJSONFile(path)
	if err != nil {
		return []doctor.Finding{{Agent: string(agent.Gemini), Check: "folder-trust", Level: doctor.Problem, Path: path, Message: fmt.Sprintf("%s cannot be read (%v): Gemini CLI refuses to start", path, err), Fix: "fix " + path}}
	}
	trusted, rule := geminiTrusted(rules, env.Project)
	msg := fmt.Sprintf("%s is not a trusted folder of Gemini CLI: it runs no hook and no MCP server there, and a headless session refuses to start", env.Project)
	if rule == "DO_NOT_TRUST" {
		msg = fmt.Sprintf("%s is marked \"do not trust\" in %s: Gemini CLI runs no hook and no MCP server there", env.Project, path)
	}
	if trusted {
		return []doctor.Finding{{Agent: string(agent.Gemini), Check: "folder-trust", Level: doctor.OK, Path: path, Message: env.Project + " is a trusted folder"}}
	}
	return []doctor.Finding{{Agent: string(agent.Gemini), Check: "folder-trust", Level: doctor.Problem, Path: path, Message: msg,
		Fix: fmt.Sprintf("trust it when Gemini CLI asks (or /permissions), or add %q: \"TRUST_FOLDER\" to %s", env.Project, path)}}
}

// geminiTrusted applies trustedFolders.json as Gemini CLI does: the
// longest rule whose folder holds the path wins (TRUST_PARENT names a
// folder whose parent is trusted), with links resolved.
func geminiTrusted(rules map[string]any, dir string) (bool, string) {
	real := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	loc := real(dir)
	best, bestLen := "", -1
	for rule, level := range rules {
		l, _ := level.(string)
		eff := rule
		if l == "TRUST_PARENT" {
			eff = filepath.Dir(rule)
		}
		e := real(eff)
		if (loc == e || strings.HasPrefix(loc, e+string(os.PathSeparator))) && len(rule) > bestLen {
			best, bestLen = l, len(rule)
		}
	}
	return best == "TRUST_FOLDER" || best == "TRUST_PARENT", best
}

// Agent is one of doctor's checkers.
var _ doctor.Checker = Agent{}
