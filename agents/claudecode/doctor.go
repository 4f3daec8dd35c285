package claudecode

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/doctor"
)

// Claude Code runs a hook command through sh in the session's folder,
// with CLAUDE_PROJECT_DIR set to the project; a settings file's
// "disableAllHooks": true turns every hook off; an MCP tool runs in
// `claude -p` only when permissions.allow names it (interactive sessions
// ask first).

var claudeShell = doctor.Shell{
	Path: "Claude Code's own",
	Argv: []string{"sh", "-c"},
	Env: func(project, session string) []string {
		return []string{"CLAUDE_PROJECT_DIR=" + project, "CLAUDE_CODE_SESSION_ID=" + session}
	},
}

// claudeSettingsFiles are the settings files Claude Code merges, with
// their scopes.
func claudeSettingsFiles(env *doctor.Env) map[agent.Scope]string {
	out := map[agent.Scope]string{}
	for _, s := range []agent.Scope{agent.ScopeUser, agent.ScopeProject, agent.ScopeLocal} {
		if p, err := (Agent{}).SettingsPath(s, env.Homes, env.Project); err == nil {
			out[s] = p
		}
	}
	return out
}

func (Agent) Check(ctx context.Context, env *doctor.Env) []doctor.Finding {
	var out []doctor.Finding
	ins := doctor.Installations(env, Agent{}, scopes...)
	for _, in := range ins {
		out = append(out, doctor.HookChecks(ctx, env, in, claudeShell)...)
	}
	for _, p := range (Agent{}).Plugins(env.Homes, env.Project) {
		out = append(out, doctor.PluginFindings(env, p, ins)...)
	}
	out = append(out, doctor.LocationCheck(env, Agent{}, "CLAUDE_CONFIG_DIR")...)
	if len(ins) > 0 {
		for s, p := range claudeSettingsFiles(env) {
			v, err := doctor.ReadJSONFile(p)
			if err != nil || v == nil {
				continue
			}
			if off, _ := doctor.Lookup(v, "disableAllHooks").(bool); off {
				out = append(out, doctor.Finding{Agent: string(agent.ClaudeCode), Scope: string(s), Part: "hooks", Check: "enabled", Level: doctor.Problem, Path: p,
					Message: fmt.Sprintf("%s sets \"disableAllHooks\": true: Claude Code runs no hook at all", p),
					Fix:     "remove \"disableAllHooks\" from " + p})
			}
		}
	}
	out = append(out, claudeMCPChecks(ctx, env)...)
	return out
}

// claudeAllows reports whether a permissions.allow list lets every tool
// of our MCP server run.
func claudeAllows(allow []any) bool {
	for _, r := range allow {
		s, _ := r.(string)
		switch strings.TrimSpace(s) {
		case "mcp__skillrepo", "mcp__skillrepo__*":
			return true
		}
	}
	return false
}

// claudePermitted reports whether a settings file Claude Code reads
// allows our MCP tools, which file does, and its scope. The user's file
// comes first: Claude Code honours a project's rules only in a trusted
// workspace.
func claudePermitted(env *doctor.Env) (bool, string, agent.Scope) {
	files := claudeSettingsFiles(env)
	for _, s := range []agent.Scope{agent.ScopeUser, agent.ScopeLocal, agent.ScopeProject} {
		v, err := doctor.ReadJSONFile(files[s])
		if err != nil || v == nil {
			continue
		}
		if allow, _ := doctor.Lookup(v, "permissions", "allow").([]any); claudeAllows(allow) {
			return true, files[s], s
		}
	}
	return false, "", ""
}

// claudeWorkspaceTrusted reports whether the person accepted Claude
// Code's trust dialog for the project (projects[<dir>].hasTrustDialogAccepted
// in ~/.claude.json, or $CLAUDE_CONFIG_DIR/.claude.json), and the file.
func claudeWorkspaceTrusted(env *doctor.Env) (bool, string) {
	path := filepath.Join(env.Homes.Home, ".claude.json")
	if env.Var("CLAUDE_CONFIG_DIR") != "" {
		path = filepath.Join(env.Homes.ClaudeConfig, ".claude.json")
	}
	v, err := doctor.ReadJSONFile(path)
	if err != nil || v == nil {
		return false, path
	}
	for dir := env.Project; ; dir = filepath.Dir(dir) {
		if ok, _ := doctor.Lookup(v, "projects", dir, "hasTrustDialogAccepted").(bool); ok {
			return true, path
		}
		if filepath.Dir(dir) == dir {
			return false, path
		}
	}
}

// claudeMCPChecks: where the MCP server is registered, its entry runs and
// its tools are permitted.
func claudeMCPChecks(ctx context.Context, env *doctor.Env) []doctor.Finding {
	var out []doctor.Finding
	for _, e := range doctor.MCPEntries(env, agent.ClaudeCode, scopes...) {
		out = append(out, doctor.MCPRunCheck(ctx, env, e)...)
		if ok, file, scope := claudePermitted(env); ok {
			if scope != agent.ScopeUser {
				if trusted, cfg := claudeWorkspaceTrusted(env); !trusted {
					out = append(out, e.Finding("permissions", doctor.Problem,
						fmt.Sprintf("its tools are allowed in %s, but Claude Code ignores a project's permission rules until you trust the workspace (%s), so `claude -p` refuses every call", file, env.Project),
						"run claude in "+env.Project+" once and accept the trust dialog (it records hasTrustDialogAccepted in "+cfg+"), or allow the tools at user scope: skillrepo mcp install --claude-code --allow-tools --scope user"))
					continue
				}
			}
			out = append(out, e.Finding("permissions", doctor.OK, "its tools are allowed in "+file, ""))
			continue
		}
		fix := "skillrepo mcp install --claude-code --allow-tools"
		if e.Scope != "" {
			fix += " --scope " + e.Scope
		}
		out = append(out, e.Finding("permissions", doctor.Warning,
			"no permissions.allow rule names mcp__skillrepo: an interactive session asks before each tool call, and `claude -p` refuses every call (and still exits 0)",
			fix+" (or add \"mcp__skillrepo\" to permissions.allow in "+filepath.Join(env.Homes.ClaudeConfig, "settings.json")+")"))
	}
	return out
}

// Agent is one of doctor's checkers.
var _ doctor.Checker = Agent{}
