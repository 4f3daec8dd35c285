package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/lintcmd"
	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/lint"
)

func newHooksCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hooks <command>",
		Short: "Install and run skillrepo's git and agent hooks",
		Long: `Install a pre-commit hook that lints the staged skills and blocks a commit
with lint errors; install Claude Code, Codex, Gemini CLI or Hermes Agent hooks
that run the self-improvement loop beside the agent (count skill uses, hand the agent its
memory, queue reviews for a background worker); and run hook entry points.`,
		Example: `  skillrepo hooks install --claude-code
  skillrepo hooks install --codex --scope project
  skillrepo hooks install --git
  skillrepo hooks uninstall --claude-code
  skillrepo hooks run pre-commit`,
	}
	cmd.AddCommand(newHooksInstallCmd(f), newHooksUninstallCmd(f), newHooksRunCmd(f))
	return cmd
}

type hooksInstallOptions struct {
	f   *cmdutil.Factory
	Git bool
	agentHooksOptions
	hermes hermesHooksOptions
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

func newHooksInstallCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &hooksInstallOptions{f: f}
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
			return runHooksInstall(cmd, opts)
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
	opts.hermes.flags(cmd, true)
	return cmd
}

func runHooksInstall(cmd *cobra.Command, opts *hooksInstallOptions) error {
	f := opts.f
	kinds := opts.agentCount()
	if opts.Git {
		kinds++
	}
	if opts.hermes.Hermes {
		if kinds > 0 {
			return cmdutil.UsageErrorf("choose one of %s", agentChoices("--git", "--hermes"))
		}
		return runHermesHooks(f, &opts.hermes, opts.Library, opts.DryRun, true)
	}
	if kinds > 1 {
		return cmdutil.UsageErrorf("choose one of %s", agentChoices("--git"))
	}
	if opts.agentCount() == 1 {
		return runAgentHooks(f, &opts.agentHooksOptions, true)
	}
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	res, err := hooks.InstallGit(cmd.Context(), f.Dir, hooks.InstallOptions{Executable: exe, DryRun: opts.DryRun})
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

type hooksRunOptions struct {
	f       *cmdutil.Factory
	Event   string
	Profile string
	Format  string
	Strict  bool
	// Agent hooks: hooks run <agent> <event> --library DIR.
	Agent   string
	Library string
}

func newHooksRunCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &hooksRunOptions{f: f}
	cmd := &cobra.Command{
		Use:   "run {pre-commit | <agent> <event>} [--library <dir>] [--profile <profile>] [--strict]",
		Short: "Run a hook entry point (called by the installed hooks)",
		Long: `Run a hook entry point. pre-commit lints the staged version of every skill
the staged changes touch (read from git's index, not the work tree), each
under the staged settings of the library holding it (as 'skillrepo lint'
does), prints the findings on stderr and exits 1 when there are errors, which
blocks the commit.

'<agent> <event>' (agent claude-code, codex or gemini; event SessionStart,
PostToolUse, UserPromptExpansion, Stop or SessionEnd) reads the event JSON the
agent sends on standard input and does that event's part of the loop on the
library (--library, else -C); see docs/agents.md. It always exits 0: a
failure is written to .git/skillrepo/logs/hooks.log and stderr, never
breaking the agent. With SKILLREPO_IN_REVIEW set (inside a review) it does
nothing.`,
		Example: `  skillrepo hooks run pre-commit
  skillrepo hooks run pre-commit --profile hermes --strict
  echo '{"session_id":"s1","hook_event_name":"SessionStart"}' | skillrepo hooks run claude-code SessionStart --library ~/.claude/skills`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 2 {
				opts.Agent, opts.Event = args[0], args[1]
				if opts.Agent == string(agent.Hermes) {
					return runHermesHookEvent(cmd, opts)
				}
				return runAgentHookEvent(cmd, opts)
			}
			opts.Event = args[0]
			return runHooksRun(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Library, "library", "", "the library an agent hook works on (default -C)")
	cmd.Flags().StringVar(&opts.Profile, "profile", "", "runtime rules (default from config, else spec)")
	cmd.Flags().StringVar(&opts.Format, "format", "text", "output: text, json, github or sarif")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "treat warnings as errors")
	return cmd
}

func runHooksRun(cmd *cobra.Command, opts *hooksRunOptions) error {
	f := opts.f
	if opts.Event != "pre-commit" {
		return cmdutil.UsageErrorf("unknown hook event %q: want pre-commit", opts.Event)
	}
	format, err := lint.ParseFormat(opts.Format)
	if err != nil {
		return cmdutil.UsageErrorf("--format: %v", err)
	}
	if opts.Profile != "" && !lintcmd.ValidProfile(lint.Profile(opts.Profile)) {
		return cmdutil.UsageErrorf("--profile: unknown profile %q", opts.Profile)
	}
	rep, err := hooks.PreCommit(cmd.Context(), f.Dir, hooks.PreCommitOptions{Profile: lint.Profile(opts.Profile), Strict: opts.Strict})
	if err != nil {
		return err
	}
	// A hook's output goes to stderr, where git shows it.
	w := f.IO.ErrOut
	if len(rep.Skills) > 0 || format != lint.FormatText {
		if err := lint.Write(w, rep, format, lint.WriteOptions{ToolVersion: toolVersion()}); err != nil {
			return err
		}
	}
	if rep.HasErrors() {
		fmt.Fprintf(w, "skillrepo: commit blocked by %d lint error(s) in the staged skills; fix them, or commit with --no-verify\n", rep.Count(lint.Error))
		return &cmdutil.SilentError{Code: cmdutil.ExitFailure}
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
