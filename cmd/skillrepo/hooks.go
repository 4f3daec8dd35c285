package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/lint"
)

func newHooksCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hooks <command>",
		Short: "Install and run skillrepo's git hooks",
		Long: `Install a pre-commit hook that lints the staged skills and blocks a commit
with lint errors, and run hook entry points.`,
		Example: `  skillrepo hooks install --git
  skillrepo hooks run pre-commit`,
	}
	cmd.AddCommand(newHooksInstallCmd(f), newHooksRunCmd(f))
	return cmd
}

type hooksInstallOptions struct {
	f      *factory
	Git    bool
	DryRun bool
}

// hooksInstallJSON paths are relative to the folder given with -C when
// the hook is inside it (the usual case), else absolute.
type hooksInstallJSON struct {
	Hook      string `json:"hook"`
	Chained   string `json:"chained,omitempty"`
	Unchanged bool   `json:"unchanged"`
	DryRun    bool   `json:"dry_run"`
}

func newHooksInstallCmd(f *factory) *cobra.Command {
	opts := &hooksInstallOptions{f: f}
	cmd := &cobra.Command{
		Use:   "install [--git] [--dry-run]",
		Short: "Install the pre-commit hook that lints staged skills",
		Long: `Install a generated pre-commit hook in the git repository of the library
(-C, default the current folder). The hook runs 'skillrepo hooks run
pre-commit', which lints the staged version of every skill the commit touches
and blocks the commit on errors. A pre-commit hook you already had is kept as
pre-commit.skillrepo-chained and runs first. Installing again changes nothing.`,
		Example: `  skillrepo hooks install --git
  skillrepo -C ~/.hermes/skills hooks install --git --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHooksInstall(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Git, "git", true, "install the git pre-commit hook (the only kind so far)")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "say what would be written, write nothing")
	return cmd
}

func runHooksInstall(cmd *cobra.Command, opts *hooksInstallOptions) error {
	f := opts.f
	if !opts.Git {
		return usageErrorf("nothing to install: --git is the only hook kind so far")
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
		return printJSON(f.IO.Out, hooksInstallJSON{Hook: hook, Chained: chained, Unchanged: res.Unchanged, DryRun: opts.DryRun})
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
	f       *factory
	Event   string
	Profile string
	Format  string
	Strict  bool
}

func newHooksRunCmd(f *factory) *cobra.Command {
	opts := &hooksRunOptions{f: f}
	cmd := &cobra.Command{
		Use:   "run <event> [--profile <profile>] [--strict]",
		Short: "Run a hook entry point (called by the installed hooks)",
		Long: `Run a hook entry point. pre-commit lints the staged version of every skill
the staged changes touch (read from git's index, not the work tree) with the
lint: settings of the staged .skillrepo/config.yaml, prints the findings on
stderr and exits 1 when there are errors, which blocks the commit.`,
		Example: `  skillrepo hooks run pre-commit
  skillrepo hooks run pre-commit --profile hermes --strict`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Event = args[0]
			return runHooksRun(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Profile, "profile", "", "runtime rules (default from config, else spec)")
	cmd.Flags().StringVar(&opts.Format, "format", "text", "output: text, json, github or sarif")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "treat warnings as errors")
	return cmd
}

func runHooksRun(cmd *cobra.Command, opts *hooksRunOptions) error {
	f := opts.f
	if opts.Event != "pre-commit" {
		return usageErrorf("unknown hook event %q: want pre-commit", opts.Event)
	}
	format, err := lint.ParseFormat(opts.Format)
	if err != nil {
		return usageErrorf("--format: %v", err)
	}
	if opts.Profile != "" && !validProfile(lint.Profile(opts.Profile)) {
		return usageErrorf("--profile: unknown profile %q", opts.Profile)
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
		return &silentError{code: exitFailure}
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
