// Package memorycmd is the `skillrepo memory` command group: show, add,
// replace and remove. Each verb has an options struct, a NewCmd… that
// only parses flags and arguments into it (handed a runF, a test checks
// the parse without a library) and a run function that reads or writes
// through the domain (docs/architecture.md §6).
package memorycmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
)

// The memory commands read and change MEMORY.md (target memory) and
// USER.md (target user) in the library's memory folder (memory.dir,
// default .memory). Every change is one commit.

// NewCmdMemory is the memory command group.
func NewCmdMemory(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "memory <command>",
		Short: "Read and change the agent's memory (MEMORY.md, USER.md); every change is a commit",
		Long: `The agent's memory is two files of entries separated by a line holding only
'§': MEMORY.md (target memory: notes about the environment, 2200 characters)
and USER.md (target user: the user profile, 1375 characters). The limits
are memory.memory_char_limit and memory.user_char_limit in the config.
replace and remove find the entry that contains the text given.`,
		Example: `  skillrepo memory show --target user
  skillrepo memory add "The CI runs on GitHub Actions with pnpm"
  skillrepo memory replace "GitHub Actions" "The CI runs on Buildkite with pnpm"
  skillrepo memory remove Buildkite`,
	}
	cmd.AddCommand(NewCmdShow(f, nil), NewCmdAdd(f, nil), NewCmdReplace(f, nil), NewCmdRemove(f, nil))
	return cmd
}

type memoryShowJSON struct {
	Target  string   `json:"target"`
	Path    string   `json:"path"`
	Entries []string `json:"entries"`
	Chars   int      `json:"chars"`
	Limit   int      `json:"limit"`
	// Uncommitted: the file in the work tree differs from the entries
	// shown (the store as committed on main).
	Uncommitted bool `json:"uncommitted"`
}

// ShowOptions is what `memory show` was asked.
type ShowOptions struct {
	Factory *cmdutil.Factory
	Target  memory.Target
}

// NewCmdShow is `memory show`; runF, when not nil, runs instead of showRun.
func NewCmdShow(f *cmdutil.Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{Factory: f}
	var target string
	cmd := &cobra.Command{
		Use:     "show [--target {memory|user}]",
		Short:   "Print a memory store's entries",
		Example: "  skillrepo memory show\n  skillrepo memory show --target user --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := memory.ParseTarget(target)
			if err != nil {
				return cmdutil.UsageErrorf("--target: %v", err)
			}
			opts.Target = t
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
	cmd.Flags().StringVar(&target, "target", "memory", "memory or user")
	return cmd
}

func showRun(opts *ShowOptions) error {
	f, t := opts.Factory, opts.Target
	lib, err := f.Library()
	if err != nil {
		return err
	}
	file, err := lib.Memory().Read("", t)
	if err != nil {
		return err
	}
	p, _ := lib.Memory().Path(t)
	entries := file.Entries()
	if entries == nil {
		entries = []string{}
	}
	edited, err := lib.Memory().EditedOnDisk(t)
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, memoryShowJSON{Target: string(t), Path: p, Entries: entries, Chars: memory.Size(entries), Limit: file.Limit, Uncommitted: edited})
	}
	if edited {
		// What is shown is the committed store; the agent reads
		// the file.
		f.Warn(fmt.Sprintf("%s has uncommitted changes, not shown here (this is the store as committed on %s)", p, lib.MainBranch()))
		fmt.Fprintln(f.IO.ErrOut, "hint: 'git diff -- "+p+"' shows them; 'skillrepo sync' records them")
	}
	for i, e := range entries {
		if i > 0 {
			fmt.Fprintln(f.IO.Out, "§")
		}
		fmt.Fprintln(f.IO.Out, e)
	}
	fmt.Fprintf(f.IO.ErrOut, "%s: %s, %d/%d characters\n", p, cmdutil.NounCount(len(entries), "entry"), memory.Size(entries), file.Limit)
	return nil
}

// ChangeOptions is what `memory add`, `replace` or `remove` was asked.
type ChangeOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	W       cmdutil.WriteFlags
	// Target is --target, checked.
	Target memory.Target
	// Change is the action and its texts, from the arguments.
	Change skillrepo.MemoryOptions

	target string
}

// newCmdChange is one memory change: use, help and how the arguments
// make the change.
func newCmdChange(f *cmdutil.Factory, runF func(*ChangeOptions) error, cmd *cobra.Command, change func(args []string) skillrepo.MemoryOptions) *cobra.Command {
	opts := &ChangeOptions{Factory: f}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		t, err := memory.ParseTarget(opts.target)
		if err != nil {
			return cmdutil.UsageErrorf("--target: %v", err)
		}
		opts.Target, opts.Change, opts.Ctx = t, change(args), cmd.Context()
		if err := opts.W.Check(); err != nil {
			return err
		}
		if runF != nil {
			return runF(opts)
		}
		return changeRun(opts)
	}
	cmd.Flags().StringVar(&opts.target, "target", "memory", "memory or user")
	cmdutil.AddWriteFlags(cmd, &opts.W)
	return cmd
}

// NewCmdAdd is `memory add`; runF, when not nil, runs instead of changeRun.
func NewCmdAdd(f *cmdutil.Factory, runF func(*ChangeOptions) error) *cobra.Command {
	return newCmdChange(f, runF, &cobra.Command{
		Use:     "add <text> [--target {memory|user}]",
		Short:   "Add an entry (an exact duplicate changes nothing)",
		Example: `  skillrepo memory add --target user "Prefers short answers with the command first"`,
		Args:    cobra.ExactArgs(1),
	}, func(args []string) skillrepo.MemoryOptions {
		return skillrepo.MemoryOptions{Action: "add", Content: args[0]}
	})
}

// NewCmdReplace is `memory replace`; runF, when not nil, runs instead of changeRun.
func NewCmdReplace(f *cmdutil.Factory, runF func(*ChangeOptions) error) *cobra.Command {
	return newCmdChange(f, runF, &cobra.Command{
		Use:     "replace <old-text> <new-entry> [--target {memory|user}]",
		Short:   "Replace the entry containing old-text",
		Example: `  skillrepo memory replace "uses npm" "The project uses pnpm 9"`,
		Args:    cobra.ExactArgs(2),
	}, func(args []string) skillrepo.MemoryOptions {
		return skillrepo.MemoryOptions{Action: "replace", OldText: args[0], Content: args[1]}
	})
}

// NewCmdRemove is `memory remove`; runF, when not nil, runs instead of changeRun.
func NewCmdRemove(f *cmdutil.Factory, runF func(*ChangeOptions) error) *cobra.Command {
	return newCmdChange(f, runF, &cobra.Command{
		Use:     "remove <old-text> [--target {memory|user}]",
		Short:   "Remove the entry containing old-text",
		Example: `  skillrepo memory remove "Buildkite"`,
		Args:    cobra.ExactArgs(1),
	}, func(args []string) skillrepo.MemoryOptions {
		return skillrepo.MemoryOptions{Action: "remove", OldText: args[0]}
	})
}

type memoryChangeJSON struct {
	Target   string `json:"target"`
	Path     string `json:"path"`
	Commit   string `json:"commit,omitempty"`
	Branch   string `json:"branch"`
	Proposal string `json:"proposal,omitempty"`
	DryRun   bool   `json:"dry_run"`
	Changed  bool   `json:"changed"`
	Message  string `json:"message"`
	Entries  int    `json:"entries"`
	Chars    int    `json:"chars"`
	Limit    int    `json:"limit"`
}

func changeRun(o *ChangeOptions) error {
	f, t, opts := o.Factory, o.Target, o.Change
	lib, err := f.Library()
	if err != nil {
		return err
	}
	pol, route, err := o.W.WriteTarget(lib)
	if err != nil {
		return err
	}
	branch, proposal := route.Branch, route.Proposal
	opts.Target, opts.DryRun = t, o.W.DryRun
	res, err := pol.ChangeMemory(o.Ctx, opts)
	var merr *memory.Error
	if errors.As(err, &merr) {
		return memoryErrorWithEntries(merr)
	}
	if err != nil {
		return err
	}
	if branch == "" {
		branch = lib.MainBranch()
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, memoryChangeJSON{
			Target: string(t), Path: res.Path, Commit: cmdutil.HashString(res.Commit), Branch: branch, Proposal: proposal, DryRun: o.W.DryRun,
			Changed: res.Changed, Message: res.Message, Entries: res.Entries, Chars: res.Chars, Limit: res.Limit,
		})
	}
	out := f.IO.ErrOut
	switch {
	case !res.Changed:
		fmt.Fprintf(out, "%s %s nothing to commit\n", f.IO.Green("✓"), res.Message)
	case o.W.DryRun:
		fmt.Fprintf(out, "%s %s dry run: would commit %s on %s (%s)\n", f.IO.Green("✓"), res.Message, res.Path, branch, res.Usage())
	default:
		fmt.Fprintf(out, "%s %s committed %s on %s (%s)\n", f.IO.Green("✓"), res.Message, cmdutil.Short(res.Commit), branch, res.Usage())
		if proposal != "" {
			cmdutil.ReportProposed(f, proposal)
		}
	}
	return nil
}

// memoryErrorWithEntries shows the current entries under a refused change,
// so the person can pick the text to match.
func memoryErrorWithEntries(e *memory.Error) error {
	var lines []string
	if len(e.Matches) > 0 {
		lines = append(lines, "matching entries:")
		for _, m := range e.Matches {
			lines = append(lines, "  "+m)
		}
	} else if len(e.Current) > 0 {
		lines = append(lines, "current entries:")
		for _, c := range e.Current {
			lines = append(lines, "  "+strings.ReplaceAll(c, "\n", "\n    "))
		}
	}
	if len(lines) == 0 {
		return e
	}
	return skillrepo.WithHint(e, strings.Join(lines, "\n"))
}
