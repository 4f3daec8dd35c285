package hookscmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/hooks"
)

// InstallOptions is what `hooks install` was asked: the git hook, one
// agent's hooks or Hermes'.
type InstallOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Git     bool
	AgentOptions
	Hermes HermesOptions
}

// hooksInstallJSON paths are relative to the folder given with -C when
// the hook is inside it (the usual case), else absolute.
type hooksInstallJSON struct {
	Hook      string `json:"hook"`
	Chained   string `json:"chained,omitempty"`
	Unchanged bool   `json:"unchanged"`
	DryRun    bool   `json:"dry_run"`
}

// agentHooksJSON is what an agent install or uninstall reports.
type agentHooksJSON struct {
	Agent    string `json:"agent"`
	Scope    string `json:"scope"`
	Settings string `json:"settings"`
	Library  string `json:"library"`
	Changed  bool   `json:"changed"`
	Added    int    `json:"added"`
	Removed  int    `json:"removed"`
	DryRun   bool   `json:"dry_run"`
	// Trusted counts the Codex hooks whose trust --trust recorded in
	// TrustConfig.
	Trusted     int    `json:"trusted,omitempty"`
	TrustConfig string `json:"trust_config,omitempty"`
	// Plugin is skillrepo's Codex plugin whose hooks --trust trusted
	// (Settings is then its hooks.json; nothing was installed).
	Plugin string `json:"plugin,omitempty"`
	// Command is the in-agent /refine command's file written or removed
	// with the hooks; CommandChanged says it was, CommandNote why it was
	// left alone.
	Command        string `json:"command,omitempty"`
	CommandChanged bool   `json:"command_changed,omitempty"`
	CommandNote    string `json:"command_note,omitempty"`
	// Checks are doctor's findings on what was installed; WillRun is
	// their verdict (absent when nothing was checked: a dry run, an
	// uninstall). False exits 5.
	Checks  []doctor.Finding `json:"checks"`
	WillRun *bool            `json:"will_run,omitempty"`
}

// NewCmdInstall is `hooks install`; runF, when not nil, runs instead of
// installRun.
func NewCmdInstall(f *cmdutil.Factory, runF func(*InstallOptions) error) *cobra.Command {
	opts := &InstallOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "install {--git | --claude-code | --codex | --gemini | --copilot | --hermes} [--scope {user|project|local}] [--library <dir>] [--dry-run]",
		Short: "Install the pre-commit hook, or Claude Code / Codex / Gemini / Hermes hooks",
		Long: `--git (the default) installs a generated pre-commit hook in the git
repository of the library (-C, default the current folder). The hook runs
'skillrepo hooks run pre-commit', which lints the staged version of every skill
the commit touches and blocks the commit on errors. A pre-commit hook you
already had is kept as pre-commit.skillrepo-chained and runs first.

--claude-code merges skillrepo's hooks into Claude Code's settings file of the
scope: user ~/.claude/settings.json (default), project
<project>/.claude/settings.json, local <project>/.claude/settings.local.json.
--codex writes Codex's ~/.codex/hooks.json or <project>/.codex/hooks.json.
Every other key and hook in the file is kept; installing twice changes
nothing; a malformed file is refused and nothing is written. The library the
hooks serve is --library, else the scope's skills folder (~/.claude/skills,
<project>/.claude/skills; Codex: ~/.agents/skills, <project>/.agents/skills).
--gemini writes Gemini CLI's ~/.gemini/settings.json or
<project>/.gemini/settings.json. --copilot writes a hook file of its own,
skillrepo.json, in GitHub Copilot CLI's ~/.copilot/hooks (COPILOT_HOME) or
<project>/.github/hooks. --opencode writes a plugin of its own, skillrepo.js, in
OpenCode's ~/.config/opencode/plugins or <project>/.opencode/plugins: it hands
OpenCode's session, prompt, tool and idle events to 'skillrepo hooks run opencode'.
--dry-run prints the resulting file and writes nothing. See docs/agents.md
for what each hook does.

--hermes adds skillrepo's shell hooks to Hermes Agent's config.yaml
(--hermes-home, else HERMES_HOME, else ~/.hermes): every write Hermes makes with
skill_manage or memory becomes a commit with origin hermes and the session id,
and each session's trace is exported for 'skillrepo review'. Hermes runs a
shell hook only once you consent; --accept records that consent in Hermes'
allowlist (the same as 'hermes --accept-hooks'). See docs/hermes.md.`,
		Example: `  skillrepo init ~/.claude/skills && skillrepo hooks install --claude-code
  skillrepo hooks install --codex --scope project --dry-run
  skillrepo hooks install --git
  skillrepo hooks install --hermes --accept`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			kinds := opts.agentCount()
			if opts.Git {
				kinds++
			}
			switch {
			case opts.Hermes.Hermes && kinds > 0:
				return cmdutil.UsageErrorf("choose one of %s", agentChoices("--git", "--hermes"))
			case opts.Hermes.Hermes:
			case kinds > 1:
				return cmdutil.UsageErrorf("choose one of %s", agentChoices("--git"))
			case opts.agentCount() == 1:
				if err := opts.checkScope(); err != nil {
					return err
				}
				if _, file := agents.Find[hooks.FileTarget](opts.agent()); file && opts.Trust {
					return cmdutil.UsageErrorf("--trust is for Codex; %s runs its plugins without asking", opts.agent().Label())
				}
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return installRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.Git, "git", false, "install the git pre-commit hook (the default)")
	opts.agentFlags(cmd, "install")
	fl.BoolVar(&opts.Trust, "trust", false, "Codex: record your trust of the hooks installed in config.toml, as accepting them in Codex's /hooks does")
	fl.StringVar(&opts.Scope, "scope", "user", "agent settings scope: user, project or local")
	fl.StringVar(&opts.Library, "library", "", "the library the agent hooks serve (default the scope's skills folder)")
	fl.StringVar(&opts.Project, "project", "", "the project folder for --scope project|local (default the current folder)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "say what would be written (agent hooks: print the file), write nothing")
	opts.Hermes.flags(cmd, true)
	return cmd
}

func installRun(opts *InstallOptions) error {
	f := opts.Factory
	if opts.Hermes.Hermes {
		return runHermesHooks(f, &opts.Hermes, opts.Library, opts.DryRun, true)
	}
	if opts.agentCount() == 1 {
		return runAgentHooks(f, &opts.AgentOptions, true)
	}
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	res, err := hooks.InstallGit(opts.Ctx, f.Dir, hooks.InstallOptions{Executable: exe, DryRun: opts.DryRun})
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(f.Dir)
	if err != nil {
		return err
	}
	hook, chained := hookPath(dir, res.Path), ""
	if res.Chained != "" {
		chained = hookPath(dir, res.Chained)
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, hooksInstallJSON{Hook: hook, Chained: chained, Unchanged: res.Unchanged, DryRun: opts.DryRun})
	}
	w := f.IO.ErrOut
	switch {
	case res.Unchanged:
		fmt.Fprintf(w, "pre-commit hook already installed at %s; nothing to do\n", hook)
	case opts.DryRun:
		fmt.Fprintf(w, "would install the pre-commit hook at %s\n", hook)
	default:
		fmt.Fprintf(w, "✓ installed the pre-commit hook at %s\n", hook)
	}
	if res.Chained != "" && !res.Unchanged {
		fmt.Fprintf(w, "  your previous hook runs first: %s\n", chained)
	}
	return nil
}

// hookPath is for messages: the hook file relative to dir when it is
// inside it.
func hookPath(dir, p string) string {
	if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}
