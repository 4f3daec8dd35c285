package mcpcmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/mcpserver"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// InstallOptions is what `mcp install` or `mcp uninstall` was asked.
type InstallOptions struct {
	Factory                           *cmdutil.Factory
	Uninstall                         bool
	ClaudeCode, Codex, Cursor, Gemini bool
	// AllowTools lets the agent call our tools without asking: Claude
	// Code's permissions.allow rule in the settings file of the scope,
	// Gemini CLI's "trust" on the entry.
	AllowTools            bool
	Scope                 string
	Library               string
	Project               string
	Command               string
	Origin                string
	Propose, AllowApprove bool
	DryRun                bool
}

// NewCmdInstall is `mcp install`; runF, when not nil, runs instead of installRun.
func NewCmdInstall(f *cmdutil.Factory, runF func(*InstallOptions) error) *cobra.Command {
	opts := &InstallOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "install {--claude-code | --codex | --cursor | --gemini} [--scope SCOPE] [--library DIR] [--allow-tools] [--dry-run]",
		Short: "Register the MCP server with Claude Code, Codex, Cursor or Gemini CLI",
		Long: `Write the skillrepo server entry into an agent's MCP configuration, merged
with what is there: every other key and server is kept; installing twice
changes nothing; a file that does not parse is refused and left alone.

  --claude-code  --scope project: .mcp.json in the project (default)
                 --scope user:    ~/.claude.json (every project)
                 --scope local:   ~/.claude.json, this project only
  --codex        --scope user:    $CODEX_HOME/config.toml, ~/.codex/config.toml (default)
                 --scope project: .codex/config.toml in the project
  --cursor       --scope project: .cursor/mcp.json in the project (default)
                 --scope user:    ~/.cursor/mcp.json
  --gemini       --scope user:    ~/.gemini/settings.json (default)
                 --scope project: .gemini/settings.json in the project

The entry runs '<this skillrepo> mcp --library <DIR>' (the library of -C,
$SKILLREPO_LIBRARY or the current directory unless --library says). Files
are edited as text, so every other key keeps its layout and comments stay.
CLAUDE_CONFIG_DIR, CODEX_HOME and GEMINI_CLI_HOME move the user files as
they move what the agents read. --dry-run prints the resulting file and
writes nothing.

How the agent permits the tools: Claude Code asks before each call in an
interactive session and refuses every call in 'claude -p' unless a
permissions.allow rule names them; --allow-tools adds "mcp__skillrepo" to
the settings file of the same scope. Gemini CLI asks before each call of a
server it does not trust; --allow-tools sets "trust": true on the entry.
Codex runs MCP tools under its own approval policy.

The set-up is checked as 'skillrepo doctor' checks it: the server is started
as the agent starts it, and every problem is named with its fix.`,
		Example: `  skillrepo mcp install --claude-code --library ~/.claude/skills --scope user
  skillrepo mcp install --codex --library ~/.agents/skills
  skillrepo mcp install --cursor --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return installRun(opts)
		},
	}
	addMCPInstallFlags(cmd, opts)
	fl := cmd.Flags()
	fl.StringVar(&opts.Library, "library", "", "library `directory` the server serves (default: -C, $SKILLREPO_LIBRARY, else the current directory)")
	fl.StringVar(&opts.Command, "command", "", "the skillrepo executable the agent runs (default: this one)")
	fl.StringVar(&opts.Origin, "origin", "", "pass --origin to the server")
	fl.BoolVar(&opts.Propose, "propose", false, "pass --propose to the server: writes wait for approval")
	fl.BoolVar(&opts.AllowApprove, "allow-approve", false, "pass --allow-approve to the server")
	return cmd
}

// NewCmdUninstall is `mcp uninstall`; runF, when not nil, runs instead of installRun.
func NewCmdUninstall(f *cmdutil.Factory, runF func(*InstallOptions) error) *cobra.Command {
	opts := &InstallOptions{Factory: f, Uninstall: true}
	cmd := &cobra.Command{
		Use:   "uninstall {--claude-code | --codex | --cursor} [--scope SCOPE] [--dry-run]",
		Short: "Remove the MCP server's entry from an agent's configuration",
		Long: `Remove the skillrepo entry from the agent's MCP configuration of that scope
(see 'skillrepo mcp install --help'); everything else in the file stays.`,
		Example: `  skillrepo mcp uninstall --claude-code --scope user`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return installRun(opts)
		},
	}
	addMCPInstallFlags(cmd, opts)
	return cmd
}

func addMCPInstallFlags(cmd *cobra.Command, opts *InstallOptions) {
	fl := cmd.Flags()
	fl.BoolVar(&opts.ClaudeCode, string(agent.ClaudeCode), false, "Claude Code")
	fl.BoolVar(&opts.Codex, string(agent.Codex), false, "OpenAI Codex")
	fl.BoolVar(&opts.Cursor, "cursor", false, "Cursor")
	fl.BoolVar(&opts.Gemini, string(agent.Gemini), false, "Gemini CLI")
	fl.BoolVar(&opts.AllowTools, "allow-tools", false, "let the agent call the tools without asking (Claude Code: permissions.allow; Gemini CLI: trust); uninstall removes the rule")
	clients := []string{string(agent.ClaudeCode), string(agent.Codex), "cursor", string(agent.Gemini)}
	cmd.MarkFlagsMutuallyExclusive(clients...)
	cmd.MarkFlagsOneRequired(clients...)
	fl.StringVar(&opts.Scope, "scope", "", "user, project or local (Claude Code); see --help for each client's files")
	fl.StringVar(&opts.Project, "project", "", "the project `folder` for project and local scopes (default: the current directory)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the resulting file, write nothing")
}

type mcpInstallJSON struct {
	Client    string         `json:"client"`
	Scope     string         `json:"scope"`
	Path      string         `json:"path"`
	Changed   bool           `json:"changed"`
	DryRun    bool           `json:"dry_run"`
	Installed bool           `json:"installed"`
	Entry     map[string]any `json:"entry,omitempty"`
	// Permissions is Claude Code's settings file --allow-tools edited.
	Permissions string `json:"permissions,omitempty"`
	// Checks are doctor's findings on what was installed; WillRun is
	// their verdict (absent when nothing was checked). False exits 5.
	Checks  []doctor.Finding `json:"checks"`
	WillRun *bool            `json:"will_run,omitempty"`
}

func installRun(opts *InstallOptions) error {
	f := opts.Factory
	o := mcpserver.InstallOptions{Scope: opts.Scope, Home: f.Getenv("HOME"), CodexHome: f.Getenv("CODEX_HOME"),
		ClaudeConfigDir: f.Getenv("CLAUDE_CONFIG_DIR"), AllowTools: opts.AllowTools}
	if v := f.Getenv("GEMINI_CLI_HOME"); v != "" {
		o.GeminiDir = filepath.Join(v, ".gemini")
	}
	switch {
	case opts.ClaudeCode:
		o.Client = mcpserver.ClientClaudeCode
	case opts.Codex:
		o.Client = mcpserver.ClientCodex
	case opts.Gemini:
		o.Client = mcpserver.ClientGemini
	default:
		o.Client = mcpserver.ClientCursor
	}
	if o.Scope == "" {
		o.Scope = mcpserver.DefaultScope(o.Client)
	}
	if o.Home == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("find the home folder: %w", err)
		}
		o.Home = home
	}
	project := opts.Project
	if project == "" {
		project = "."
	}
	abs, err := filepath.Abs(project)
	if err != nil {
		return err
	}
	o.Project = abs
	if _, err := mcpserver.ConfigPath(o); err != nil {
		return &cmdutil.FlagError{Err: err}
	}

	var plan *mcpserver.InstallPlan
	if opts.Uninstall {
		plan, err = mcpserver.PlanUninstall(o)
	} else {
		if opts.Library != "" {
			f.Dir = opts.Library
		}
		lib, lerr := f.Library() // it must be a library
		if lerr != nil {
			return lerr
		}
		o.Library = lib.Root
		o.Command = opts.Command
		if o.Scope == "project" {
			// The project's file is committed: it names the command on
			// PATH and the library relative to the project, never this
			// person's paths.
			if o.Command == "" {
				o.Command = "skillrepo"
			}
			rel, err := filepath.Rel(o.Project, lib.Root)
			if err != nil {
				return err
			}
			o.Library = filepath.ToSlash(rel)
			if o.Library == ".." || strings.HasPrefix(o.Library, "../") {
				f.Warn(fmt.Sprintf("the library %s is outside the project; the committed file names it as %s, so teammates need it at the same place (--scope local keeps it to you)", lib.Root, o.Library))
			}
		} else if o.Command == "" {
			var xerr error
			if o.Command, xerr = os.Executable(); xerr != nil {
				return fmt.Errorf("find this executable: %w", xerr)
			}
			if p, err := filepath.EvalSymlinks(o.Command); err == nil {
				o.Command = p
			}
		}
		if opts.Origin != "" {
			o.Args = append(o.Args, "--origin", opts.Origin)
		}
		if opts.Propose {
			o.Args = append(o.Args, "--propose")
		}
		if opts.AllowApprove {
			o.Args = append(o.Args, "--allow-approve")
		}
		plan, err = mcpserver.PlanInstall(o)
	}
	if err != nil {
		return skillrepo.WithHint(err, "nothing was written; fix or move the file and run again")
	}
	// Claude Code's permission rule lives in its settings file of the
	// same scope: added with --allow-tools, taken out with the entry.
	var perms *mcpserver.InstallPlan
	if o.Client == mcpserver.ClientClaudeCode && (opts.AllowTools || opts.Uninstall) {
		if perms, err = mcpserver.PlanAllowTools(o, opts.Uninstall); err != nil {
			return skillrepo.WithHint(err, "nothing was written; fix or move the file and run again")
		}
	}
	if !opts.DryRun && plan.Changed {
		if err := writeConfig(plan.Path, plan.After); err != nil {
			return err
		}
	}
	if !opts.DryRun && perms != nil && perms.Changed {
		if err := writeConfig(perms.Path, perms.After); err != nil {
			return err
		}
	}
	var findings []doctor.Finding
	var verdict error
	checked := false
	label := hooksLabel(o.Client) + "'s MCP set-up"
	if !opts.Uninstall && !opts.DryRun && o.Client != mcpserver.ClientCursor {
		if a, err := agents.Parse(o.Client); err == nil {
			findings = cmdutil.CheckAfterInstall(f, a, agent.Scope(o.Scope), o.Project, "mcp", plan.Path)
			verdict, checked = cmdutil.InstallVerdict(findings, label), findings != nil
		}
	}
	if f.JSON {
		out := mcpInstallJSON{Client: o.Client, Scope: o.Scope, Path: plan.Path, Changed: plan.Changed || (perms != nil && perms.Changed),
			DryRun: opts.DryRun, Installed: !opts.Uninstall, Entry: plan.Entry, Checks: findings}
		if checked {
			out.WillRun = new(verdict == nil)
		}
		if perms != nil && perms.Changed {
			out.Permissions = perms.Path
		}
		if err := cmdutil.PrintJSON(f.IO.Out, out); err != nil {
			return err
		}
		return verdict
	}
	if opts.DryRun {
		f.IO.Out.Write(plan.After)
		if perms != nil && perms.Changed {
			fmt.Fprintf(f.IO.Out, "\n%s:\n", perms.Path)
			f.IO.Out.Write(perms.After)
		}
	}
	w := f.IO.ErrOut
	verb := "installed the skillrepo MCP server in"
	if opts.Uninstall {
		verb = "removed the skillrepo MCP server from"
	}
	switch {
	case !plan.Changed && opts.Uninstall:
		fmt.Fprintf(w, "the skillrepo MCP server is not in %s; nothing to do\n", plan.Path)
	case !plan.Changed:
		fmt.Fprintf(w, "the skillrepo MCP server is already in %s; nothing to do\n", plan.Path)
	case opts.DryRun:
		fmt.Fprintf(w, "dry run: would write %s (%s, scope %s); nothing written\n", plan.Path, o.Client, o.Scope)
	default:
		fmt.Fprintf(w, "%s %s %s (%s, scope %s)\n", f.IO.Green("✓"), verb, plan.Path, o.Client, o.Scope)
		if !opts.Uninstall {
			fmt.Fprintln(w, "restart the agent (or reload its MCP servers) to use it")
		}
	}
	if perms != nil && perms.Changed && !opts.DryRun {
		if opts.Uninstall {
			fmt.Fprintf(w, "%s removed %q from permissions.allow in %s\n", f.IO.Green("✓"), mcpserver.ClaudePermissionRule, perms.Path)
		} else {
			fmt.Fprintf(w, "%s allowed the tools: %q in permissions.allow of %s\n", f.IO.Green("✓"), mcpserver.ClaudePermissionRule, perms.Path)
		}
	}
	if !opts.Uninstall && !opts.DryRun {
		switch {
		case o.Client == mcpserver.ClientClaudeCode && !opts.AllowTools:
			fmt.Fprintf(w, "tools: Claude Code asks before each call in an interactive session, and 'claude -p' refuses them unless allowed:\n  run again with --allow-tools to add %q to permissions.allow in %s, or pass --allowedTools %s to claude -p\n",
				mcpserver.ClaudePermissionRule, mcpserver.ClaudeSettingsPath(o), mcpserver.ClaudePermissionRule)
		case o.Client == mcpserver.ClientGemini && !opts.AllowTools:
			fmt.Fprintln(w, "tools: Gemini CLI asks before each call of an untrusted server (a headless session cannot ask): run again with --allow-tools to trust it")
		}
		if checked {
			return cmdutil.ReportAfterInstall(f, findings, label)
		}
	}
	return nil
}

// hooksLabel is a client's name as people write it.
func hooksLabel(client string) string {
	if a, err := agents.Parse(client); err == nil {
		return a.Label()
	}
	return client
}

// writeConfig replaces a client's configuration file whole, through a
// symlink when it is one (dotfile managers), creating its folder.
func writeConfig(path string, data []byte) error {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := atomicfile.Write(path, data, 0o644, true); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
