// Package hookscmd is `skillrepo hooks` (install, uninstall, run: per
// verb an options struct, a NewCmd… that only parses flags and arguments
// into it, handed a runF in tests, and a run function), with the agent
// hooks' installers (agent.go, hermes.go) and the goal loop's place in
// the agent hooks (goal.go; docs/architecture.md §6).
package hookscmd

import (
	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// NewCmdHooks is the hooks command group.
func NewCmdHooks(f *cmdutil.Factory) *cobra.Command {
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
	cmd.AddCommand(NewCmdInstall(f, nil), NewCmdUninstall(f, nil), NewCmdRun(f, nil))
	return cmd
}
