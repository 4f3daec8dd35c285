package doctor

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/mcpserver"
	"github.com/skillrepo/skillrepo/skillrepo/locate"
)

// MCPEntry is our MCP server's entry in one of an agent's files.
type MCPEntry struct {
	*mcpserver.Entry
	agent agent.Name
}

// Finding is a finding about the entry.
func (e MCPEntry) Finding(check string, level Level, msg, fix string) Finding {
	return Finding{Agent: string(e.agent), Scope: e.Scope, Part: "mcp", Check: check, Level: level, Message: msg, Fix: fix, Path: e.Path}
}

// mcpOptions are the install options locating an agent's files.
func mcpOptions(env *Env, a agent.Name, scope string) mcpserver.InstallOptions {
	o := mcpserver.InstallOptions{Client: string(a), // mcpserver names its clients as package agent does
		Scope: scope, Home: env.Homes.Home, Project: env.Project,
		CodexHome: env.Homes.CodexHome, GeminiDir: env.Homes.GeminiDir}
	if env.getenv("CLAUDE_CONFIG_DIR") != "" {
		o.ClaudeConfigDir = env.Homes.ClaudeConfig
	}
	return o
}

// MCPEntries are the agent's entries of our server at its scopes, one
// per scope that has one (a file that cannot be read is a finding of its
// own).
func MCPEntries(env *Env, a agent.Name, scopes ...agent.Scope) []MCPEntry {
	var out []MCPEntry
	for _, s := range scopesOf(env, scopes) {
		e, err := mcpserver.Inspect(mcpOptions(env, a, string(s)))
		if err != nil || e == nil {
			continue
		}
		out = append(out, MCPEntry{Entry: e, agent: a})
	}
	return out
}

// MCPRunCheck starts the entry's server as the agent would and lists its
// tools; the library it serves must open.
func MCPRunCheck(ctx context.Context, env *Env, e MCPEntry) []Finding {
	reinstall := "skillrepo mcp install --" + string(e.agent) + " --scope " + e.Scope
	if !env.mayRun(e.Scope, e.Path) {
		return []Finding{untrustedFinding(e.agent, e.Scope, "mcp", e.Path)}
	}
	if _, err := os.Stat(e.Command); e.Command == "" || (err != nil && !lookable(e.Command)) {
		return []Finding{e.Finding("binary", Problem, fmt.Sprintf("the MCP server's command %q does not exist", e.Command), reinstall)}
	}
	if lib := e.Library(); lib != "" && !locate.IsLibrary(locate.ResolvePath(env.Project, lib)) {
		return []Finding{e.Finding("library", Problem, fmt.Sprintf("the MCP server serves %s, which is not a skillrepo library", lib), "skillrepo init "+lib+", or "+reinstall+" --library <folder>")}
	}
	tools, err := mcpserver.Probe(ctx, e.Command, e.Args, agentEnviron(), env.Project)
	if err != nil {
		return []Finding{e.Finding("run", Problem, "the MCP server does not answer as "+e.agent.Label()+" starts it: "+err.Error(), reinstall)}
	}
	return []Finding{e.Finding("run", OK, fmt.Sprintf("the MCP server starts and offers %d tools", len(tools)), "")}
}

// lookable reports whether a bare command name is on PATH.
func lookable(name string) bool {
	for _, c := range name {
		if c == '/' {
			return false
		}
	}
	_, err := exec.LookPath(name)
	return err == nil
}
