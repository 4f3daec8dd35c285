package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/mcpserver"
	"github.com/skillrepo/skillrepo/skillrepo"
)

type mcpInstallOptions struct {
	f                         *factory
	uninstall                 bool
	ClaudeCode, Codex, Cursor bool
	Scope                     string
	Library                   string
	Project                   string
	Command                   string
	Origin                    string
	Propose, AllowApprove     bool
	DryRun                    bool
}

func newMCPInstallCmd(f *factory) *cobra.Command {
	opts := &mcpInstallOptions{f: f}
	cmd := &cobra.Command{
		Use:   "install {--claude-code | --codex | --cursor} [--scope SCOPE] [--library DIR] [--dry-run]",
		Short: "Register the MCP server with Claude Code, Codex or Cursor",
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

The entry runs '<this skillrepo> mcp --library <DIR>' (the library of -C,
$SKILLREPO_LIBRARY or the current directory unless --library says). Codex's
config.toml is edited as text, so its comments stay. --dry-run prints the
resulting file and writes nothing.`,
		Example: `  skillrepo mcp install --claude-code --library ~/.claude/skills --scope user
  skillrepo mcp install --codex --library ~/.agents/skills
  skillrepo mcp install --cursor --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runMCPInstall(opts) },
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

func newMCPUninstallCmd(f *factory) *cobra.Command {
	opts := &mcpInstallOptions{f: f, uninstall: true}
	cmd := &cobra.Command{
		Use:   "uninstall {--claude-code | --codex | --cursor} [--scope SCOPE] [--dry-run]",
		Short: "Remove the MCP server's entry from an agent's configuration",
		Long: `Remove the skillrepo entry from the agent's MCP configuration of that scope
(see 'skillrepo mcp install --help'); everything else in the file stays.`,
		Example: `  skillrepo mcp uninstall --claude-code --scope user`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, args []string) error { return runMCPInstall(opts) },
	}
	addMCPInstallFlags(cmd, opts)
	return cmd
}

func addMCPInstallFlags(cmd *cobra.Command, opts *mcpInstallOptions) {
	fl := cmd.Flags()
	fl.BoolVar(&opts.ClaudeCode, "claude-code", false, "Claude Code")
	fl.BoolVar(&opts.Codex, "codex", false, "OpenAI Codex")
	fl.BoolVar(&opts.Cursor, "cursor", false, "Cursor")
	cmd.MarkFlagsMutuallyExclusive("claude-code", "codex", "cursor")
	cmd.MarkFlagsOneRequired("claude-code", "codex", "cursor")
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
}

func runMCPInstall(opts *mcpInstallOptions) error {
	f := opts.f
	o := mcpserver.InstallOptions{Scope: opts.Scope, Home: f.Getenv("HOME"), CodexHome: f.Getenv("CODEX_HOME")}
	switch {
	case opts.ClaudeCode:
		o.Client = mcpserver.ClientClaudeCode
	case opts.Codex:
		o.Client = mcpserver.ClientCodex
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
		return &flagError{err}
	}

	var plan *mcpserver.InstallPlan
	if opts.uninstall {
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
		if o.Command = opts.Command; o.Command == "" {
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
	if !opts.DryRun && plan.Changed {
		if err := writeConfig(plan.Path, plan.After); err != nil {
			return err
		}
	}
	if f.JSON {
		return printJSON(f.IO.Out, mcpInstallJSON{Client: o.Client, Scope: o.Scope, Path: plan.Path, Changed: plan.Changed,
			DryRun: opts.DryRun, Installed: !opts.uninstall, Entry: plan.Entry})
	}
	if opts.DryRun {
		f.IO.Out.Write(plan.After)
	}
	w := f.IO.ErrOut
	verb := "installed the skillrepo MCP server in"
	if opts.uninstall {
		verb = "removed the skillrepo MCP server from"
	}
	switch {
	case !plan.Changed && opts.uninstall:
		fmt.Fprintf(w, "the skillrepo MCP server is not in %s; nothing to do\n", plan.Path)
	case !plan.Changed:
		fmt.Fprintf(w, "the skillrepo MCP server is already in %s; nothing to do\n", plan.Path)
	case opts.DryRun:
		fmt.Fprintf(w, "dry run: would write %s (%s, scope %s); nothing written\n", plan.Path, o.Client, o.Scope)
	default:
		fmt.Fprintf(w, "%s %s %s (%s, scope %s)\n", f.IO.Green("✓"), verb, plan.Path, o.Client, o.Scope)
		if !opts.uninstall {
			fmt.Fprintln(w, "restart the agent (or reload its MCP servers) to use it")
		}
	}
	return nil
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
