package skillcmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// PatchOptions is what `skill patch` was asked.
type PatchOptions struct {
	Factory    *cmdutil.Factory
	Ctx        context.Context
	Name       string
	W          cmdutil.WriteFlags
	Old, New   string
	File       string
	ReplaceAll bool
}

// NewCmdPatch is `skill patch`; runF, when not nil, runs instead of patchRun.
func NewCmdPatch(f *cmdutil.Factory, runF func(*PatchOptions) error) *cobra.Command {
	opts := &PatchOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "patch <name> --old <text> --new <text> [--file <path>] [--replace-all]",
		Short: "Replace text in a skill's SKILL.md or support file",
		Long: `Replace --old with --new in SKILL.md (or --file, a support file such as
references/api.md). The old text must match exactly once unless --replace-all;
when it does not match exactly, matching ignores surrounding whitespace per line
and then runs of whitespace. --new "" deletes the match. The patched SKILL.md
must still be valid.`,
		Example: `  skillrepo skill patch ci-debugging --old "step one" --new "step 1"
  skillrepo skill patch ci-debugging --file references/common-failures.md --old "fails" --new "breaks" --replace-all`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("old") {
				return cmdutil.UsageErrorf("--old is required")
			}
			if !cmd.Flags().Changed("new") {
				return cmdutil.UsageErrorf("--new is required (use --new \"\" to delete the match)")
			}
			opts.Name, opts.Ctx = args[0], cmd.Context()
			if err := opts.W.Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return patchRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Old, "old", "", "text to replace")
	fl.StringVar(&opts.New, "new", "", "replacement text")
	fl.StringVar(&opts.File, "file", "", "support file to patch instead of SKILL.md")
	fl.BoolVar(&opts.ReplaceAll, "replace-all", false, "replace every match")
	cmdutil.AddWriteFlags(cmd, &opts.W)
	return cmd
}

// literalEscape reports text holding a written-out \n or \t but no real
// line break or tab: in a shell, "a\nb" is a backslash and an n, which is
// rarely what the person meant.
func patchRun(opts *PatchOptions) error {
	op := skillrepo.Op{Action: skillrepo.ActionPatch, Name: opts.Name, OldString: &opts.Old, NewString: &opts.New, ReplaceAll: opts.ReplaceAll, FilePath: opts.File}
	if err := applyOps(opts.Ctx, opts.Factory, &opts.W, []skillrepo.Op{op}); err != nil {
		return inFlagWords(err, opts.Name, opts.File)
	}
	if literalEscape(opts.New) {
		fmt.Fprintln(opts.Factory.IO.ErrOut, `hint: --new holds a backslash and an n, written as is, not a line break; for one, pass a real newline (in bash: --new $'first\nsecond')`)
	}
	return nil
}

func literalEscape(s string) bool {
	return (strings.Contains(s, `\n`) && !strings.Contains(s, "\n")) || (strings.Contains(s, `\t`) && !strings.Contains(s, "\t"))
}

// flagWords puts the patch's messages, written in the agent tool's words
// (old_string, replace_all), in skill patch's (--old, --replace-all).
func flagWords(name, file string) *strings.Replacer {
	view := "skillrepo skill view " + name
	if file != "" {
		view += " " + file
	}
	return strings.NewReplacer(
		"set replace_all", "pass --replace-all",
		"replace_all", "--replace-all",
		"old_string/new_string", "--old/--new",
		"old_string", "--old",
		"new_string", "--new",
		"file_path", "--file",
		"view the file again", "run '"+view+"' again",
		"read the file first", "run '"+view+"' first",
		"view the file first", "run '"+view+"' first",
		"Read the file again", "Run '"+view+"' again",
	)
}

// inFlagWords rewords err (and its hint) for skill patch, keeping what it
// is (errors.Is and As see through it, so the exit code stays).
func inFlagWords(err error, name, file string) error {
	return &reworded{err: err, words: flagWords(name, file)}
}

type reworded struct {
	err   error
	words *strings.Replacer
}

func (e *reworded) Error() string { return e.words.Replace(e.err.Error()) }
func (e *reworded) Unwrap() error { return e.err }

// Hint is the wrapped error's hint, reworded.
func (e *reworded) Hint() string {
	var h cmdutil.Hinter
	if errors.As(e.err, &h) {
		return e.words.Replace(h.Hint())
	}
	return ""
}
