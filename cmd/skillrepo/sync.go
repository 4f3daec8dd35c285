package main

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agentsession"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/lint"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// lintErrorLines are the lint errors of dirs under the library's profile,
// one line each ("path:line: rule message").
func lintErrorLines(lib *skillrepo.Library, fsys fs.FS, dirs []string) []string {
	err := lint.GateFor(fsys, dirs, lib.Config.LintSettings())
	var ef *lint.ErrorsFound
	if !errors.As(err, &ef) {
		return nil
	}
	var out []string
	for _, fd := range ef.Findings {
		loc := fd.Path
		if fd.Line > 0 {
			loc = fmt.Sprintf("%s:%d", fd.Path, fd.Line)
		}
		out = append(out, fmt.Sprintf("%s: %s %s", loc, fd.Rule, fd.Message))
	}
	return out
}

type syncOptions struct {
	f       *factory
	Origin  string
	Message string
	DryRun  bool
	// HookLog (hidden) is the agent whose session start began this sync
	// in the background: what it reports goes to the hooks log, one
	// stamped line each, as the hook's own lines do.
	HookLog string
}

func newSyncCmd(f *factory) *cobra.Command {
	opts := &syncOptions{f: f}
	cmd := &cobra.Command{
		Use:   "sync [--origin <o>] [-m <subject>] [--dry-run]",
		Short: "Record edits made outside skillrepo as one commit",
		Long: `Record every change in the work tree (files edited, added or deleted by a
person, or by an agent writing files directly) as one commit. The origin is
"user" unless the usage sidecar shows an agent wrote the changed skills after
the last commit (then "foreground", or "background-review" for agent-created
skills); --origin overrides it.`,
		Example: `  skillrepo sync
  skillrepo sync --origin foreground -m "hermes: tune ci-debugging"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Origin != "" && !skillrepo.ValidOrigin(opts.Origin) {
				return usageErrorf("--origin %q: want user, foreground, background-review, curator or import", opts.Origin)
			}
			if opts.HookLog != "" {
				return runSyncForHook(cmd, opts)
			}
			return runSync(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Origin, "origin", "", "origin to record (default: inferred)")
	cmd.Flags().StringVarP(&opts.Message, "message", "m", "", "commit subject")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "show what would be recorded, write nothing")
	cmd.Flags().StringVar(&opts.HookLog, "hook-log", "", "report to the hooks log as this agent's session start (used by the SessionStart hook)")
	_ = cmd.Flags().MarkHidden("hook-log")
	return cmd
}

// runSyncForHook is the sync a SessionStart hook starts in the
// background: its report and its failure become lines of the hooks log
// ("<time> <agent> SessionStart sync: …"), nothing is printed.
func runSyncForHook(cmd *cobra.Command, opts *syncOptions) error {
	f := opts.f
	agent := hooks.Agent(opts.HookLog)
	lw := &hookLogWriter{log: func(lines ...string) {
		for i := range lines {
			lines[i] = "sync: " + lines[i]
		}
		agentsession.Log(f.Dir, f.Now(), agent, hooks.EventSessionStart, lines...)
	}}
	f.IO.ErrOut = lw
	err := runSync(cmd, opts)
	if err != nil {
		fmt.Fprintf(lw, "failed: %v\n", err)
	}
	lw.Flush()
	if err != nil {
		return &silentError{code: exitCodeFor(err)}
	}
	return nil
}

type syncJSON struct {
	Commit  string                 `json:"commit,omitempty"`
	Origin  string                 `json:"origin,omitempty"`
	DryRun  bool                   `json:"dry_run"`
	Skills  []string               `json:"skills"`
	Changes []skillrepo.FileChange `json:"changes"`
	// PinsCarried: pinned skills renamed outside skillrepo, old -> new.
	PinsCarried map[string]string `json:"pins_carried,omitempty"`
	// LintErrors were recorded anyway (Lint-Error trailers).
	LintErrors []string `json:"lint_errors"`
}

func runSync(cmd *cobra.Command, opts *syncOptions) error {
	f := opts.f
	lib, err := f.Library()
	if err != nil {
		return err
	}
	res, err := lib.Sync(cmd.Context(), skillrepo.SyncOptions{Origin: opts.Origin, Message: opts.Message, DryRun: opts.DryRun,
		Lint: func(fsys fs.FS, dirs []string) []string { return lintErrorLines(lib, fsys, dirs) }})
	if err != nil {
		return err
	}
	if f.JSON {
		changes := res.Changes
		if changes == nil {
			changes = []skillrepo.FileChange{}
		}
		return printJSON(f.IO.Out, syncJSON{Commit: hashString(res.Commit), Origin: res.Origin, DryRun: res.DryRun, Skills: nonNil(res.Skills), Changes: changes, PinsCarried: res.PinsCarried, LintErrors: nonNil(res.LintErrors)})
	}
	w := f.IO.ErrOut
	if len(res.Changes) == 0 {
		fmt.Fprintln(w, "nothing to record: the work tree matches the branch")
		return nil
	}
	// Thousands of edits are summarised: the first lines, then a count
	// and where the whole list is.
	whole := "'skillrepo sync --dry-run --json' lists them all"
	if !res.DryRun {
		whole = "'git show --name-status " + short(res.Commit) + "' lists them all"
	}
	for i, c := range res.Changes {
		if i == maxListedChanges && len(res.Changes) > maxListedChanges+1 {
			fmt.Fprintf(w, "  … and %s (%s)\n", nounCount(len(res.Changes)-i, "more change"), whole)
			break
		}
		fmt.Fprintf(w, "  %-8s %s\n", c.Status, c.Path)
	}
	if n := len(res.LintErrors); n > 0 {
		fmt.Fprintf(w, "%s recorded with %d lint %s (Lint-Error trailers): edits made outside skillrepo are recorded as they are\n", f.IO.Yellow("warning:"), n, plural(n, "error", "errors"))
		for i, e := range res.LintErrors {
			if i == maxListedChanges && n > maxListedChanges+1 {
				fmt.Fprintf(w, "  … and %s (skillrepo lint shows them all)\n", nounCount(n-i, "more error"))
				break
			}
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	carried := make([]string, 0, len(res.PinsCarried))
	for old, new := range res.PinsCarried {
		carried = append(carried, fmt.Sprintf("  pin of %s carried to its new name %s", old, new))
	}
	sort.Strings(carried)
	for _, line := range carried {
		fmt.Fprintln(w, line)
	}
	if res.DryRun {
		fmt.Fprintf(w, "dry run: would record %s as origin %s\n", nounCount(len(res.Changes), "change"), res.Origin)
		return nil
	}
	fmt.Fprintf(w, "%s recorded %s as %s (origin %s)\n", f.IO.Green("✓"), nounCount(len(res.Changes), "change"), short(res.Commit), res.Origin)
	return nil
}

// maxListedChanges is how many changed files (or lint errors) sync lists
// on a terminal before it summarises the rest.
const maxListedChanges = 20
