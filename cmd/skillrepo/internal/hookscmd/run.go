package hookscmd

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/lint"
)

// RunOptions is what `hooks run` was asked: pre-commit, or an agent's
// event.
type RunOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Event   string
	Profile string
	Format  string
	Strict  bool
	// Agent hooks: hooks run <agent> <event> --library DIR.
	Agent   string
	Library string
	// format is Format parsed, when the flags are (pre-commit).
	format lint.Format
}

// NewCmdRun is `hooks run`; runF, when not nil, runs instead of runRun.
func NewCmdRun(f *cmdutil.Factory, runF func(*RunOptions) error) *cobra.Command {
	opts := &RunOptions{Factory: f}
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
				// An agent's event: never a usage error, the hook always
				// exits 0 (what went wrong goes to the hooks log).
				opts.Agent, opts.Event = args[0], args[1]
			} else {
				opts.Event = args[0]
				if opts.Event != "pre-commit" {
					return cmdutil.UsageErrorf("unknown hook event %q: want pre-commit", opts.Event)
				}
				var err error
				if opts.format, err = lint.ParseFormat(opts.Format); err != nil {
					return cmdutil.UsageErrorf("--format: %v", err)
				}
				if opts.Profile != "" && !slices.Contains(lint.Profiles(), lint.Profile(opts.Profile)) {
					return cmdutil.UsageErrorf("--profile: unknown profile %q", opts.Profile)
				}
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return runRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Library, "library", "", "the library an agent hook works on (default -C)")
	cmd.Flags().StringVar(&opts.Profile, "profile", "", "runtime rules (default from config, else spec)")
	cmd.Flags().StringVar(&opts.Format, "format", "text", "output: text, json, github or sarif")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "treat warnings as errors")
	return cmd
}

func runRun(opts *RunOptions) error {
	switch {
	case opts.Agent == string(agent.Hermes):
		return runHermesHookEvent(opts)
	case opts.Agent != "":
		return runAgentHookEvent(opts)
	}
	return preCommitRun(opts)
}

// preCommitRun is `hooks run pre-commit`: lint the staged skills, block
// the commit on errors.
func preCommitRun(opts *RunOptions) error {
	f, format := opts.Factory, opts.format
	rep, err := hooks.PreCommit(opts.Ctx, f.Dir, hooks.PreCommitOptions{Profile: lint.Profile(opts.Profile), Strict: opts.Strict})
	if err != nil {
		return err
	}
	// A hook's output goes to stderr, where git shows it.
	w := f.IO.ErrOut
	if len(rep.Skills) > 0 || format != lint.FormatText {
		if err := lint.Write(w, rep, format, lint.WriteOptions{ToolVersion: f.ToolVersion}); err != nil {
			return err
		}
	}
	if rep.HasErrors() {
		fmt.Fprintf(w, "skillrepo: commit blocked by %d lint error(s) in the staged skills; fix them, or commit with --no-verify\n", rep.Count(lint.Error))
		return &cmdutil.SilentError{Code: cmdutil.ExitFailure}
	}
	return nil
}
