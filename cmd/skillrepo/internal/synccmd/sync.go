// Package synccmd is `skillrepo sync`, which records edits made outside
// skillrepo as one commit: Options, NewCmdSync that only parses flags
// into it (handed a runF, a test checks the parse without a library) and
// syncRun, or hookSyncRun for the sync a SessionStart hook starts in the
// background (docs/architecture.md §6).
package synccmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agentsession"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// Options is what `sync` was asked.
type Options struct {
	Factory     *cmdutil.Factory
	Ctx         context.Context
	Origin      string
	Message     string
	DryRun      bool
	LeaveStaged bool
	// HookLog (hidden) is the agent whose session start began this sync
	// in the background: what it reports goes to the hooks log, one
	// stamped line each, as the hook's own lines do.
	HookLog string
}

// NewCmdSync is `sync`; runF, when not nil, runs instead of syncRun.
func NewCmdSync(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "sync [--origin <o>] [-m <subject>] [--dry-run]",
		Short: "Record edits made outside skillrepo as one commit",
		Long: `Record every change in the work tree (files edited, added or deleted by a
person, or by an agent writing files directly) as one commit. The origin is
"user" unless the usage sidecar shows an agent wrote the changed skills after
the last commit (then "foreground", or "background-review" for agent-created
skills) — a write skillrepo itself made, whoever asked for it, is not such a
sign; --origin overrides it.

Files git is told to ignore ('git update-index --assume-unchanged' or
'--skip-worktree', and files outside a sparse checkout) are left as 'git add
-A' leaves them. With --leave-staged, paths you staged with git and have not
committed are left for your own 'git commit' (agent hooks sync this way).`,
		Example: `  skillrepo sync
  skillrepo sync --origin foreground -m "hermes: tune ci-debugging"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Origin != "" && !skillrepo.ValidOrigin(opts.Origin) {
				return cmdutil.UsageErrorf("--origin %q: want user, foreground, background-review, curator or import", opts.Origin)
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return syncRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Origin, "origin", "", "origin to record (default: inferred)")
	cmd.Flags().StringVarP(&opts.Message, "message", "m", "", "commit subject")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "show what would be recorded, write nothing")
	cmd.Flags().BoolVar(&opts.LeaveStaged, "leave-staged", false, "leave paths staged with git (and not committed) for your own commit")
	cmd.Flags().StringVar(&opts.HookLog, "hook-log", "", "report to the hooks log as this agent's session start (used by the SessionStart hook)")
	_ = cmd.Flags().MarkHidden("hook-log")
	return cmd
}

// hookSyncRun is the sync a SessionStart hook starts in the
// background: its report and its failure become lines of the hooks log
// ("<time> <agent> SessionStart sync: …"), nothing is printed.
func hookSyncRun(opts *Options) error {
	f := opts.Factory
	name := agent.Name(opts.HookLog)
	lw := &hookLogWriter{log: func(lines ...string) {
		for i := range lines {
			lines[i] = "sync: " + lines[i]
		}
		agentsession.Log(f.Dir, f.Now(), name, agent.EventSessionStart, lines...)
	}}
	f.IO.ErrOut = lw
	err := record(opts)
	if err != nil {
		fmt.Fprintf(lw, "failed: %v\n", err)
	}
	lw.Flush()
	if err != nil {
		return &cmdutil.SilentError{Code: cmdutil.ExitCodeFor(err)}
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
	// LeftStaged: paths staged with git and not committed, left to the
	// person's own commit.
	LeftStaged []string `json:"left_staged"`
	// What a Hermes library's sync records first, each in its own commit:
	// Hermes' housekeeping an earlier import tracked, pins and unpins
	// made in Hermes, edits of Hermes' memories/, a run of Hermes'
	// curator.
	Untracked     []string           `json:"untracked,omitempty"`
	UntrackCommit string             `json:"untrack_commit,omitempty"`
	Pins          *syncPinsJSON      `json:"pins,omitempty"`
	Memory        []string           `json:"memory,omitempty"`
	MemoryCommit  string             `json:"memory_commit,omitempty"`
	HermesCurator *syncHermesCurator `json:"hermes_curator,omitempty"`
}

type syncPinsJSON struct {
	Commit   string   `json:"commit,omitempty"`
	Pinned   []string `json:"pinned"`
	Unpinned []string `json:"unpinned"`
}

type syncHermesCurator struct {
	*skillrepo.HermesCuratorRun
	Commit string `json:"commit,omitempty"`
}

// syncJSONOf is sync's JSON report.
func syncJSONOf(res *skillrepo.SyncResult) syncJSON {
	changes := res.Changes
	if changes == nil {
		changes = []skillrepo.FileChange{}
	}
	out := syncJSON{Commit: cmdutil.HashString(res.Commit), Origin: res.Origin, DryRun: res.DryRun, Skills: cmdutil.NonNil(res.Skills), Changes: changes,
		PinsCarried: res.PinsCarried, LintErrors: cmdutil.NonNil(res.LintErrors), LeftStaged: cmdutil.NonNil(res.LeftStaged),
		Untracked: res.Untracked, UntrackCommit: cmdutil.HashString(res.UntrackCommit), Memory: res.Memory, MemoryCommit: cmdutil.HashString(res.MemoryCommit)}
	if p := res.Pins; p != nil && (len(p.Pinned) > 0 || len(p.Unpinned) > 0) {
		out.Pins = &syncPinsJSON{Commit: cmdutil.HashString(p.Commit), Pinned: cmdutil.NonNil(p.Pinned), Unpinned: cmdutil.NonNil(p.Unpinned)}
	}
	if h := res.HermesCurator; h != nil {
		out.HermesCurator = &syncHermesCurator{HermesCuratorRun: h, Commit: cmdutil.HashString(h.Commit)}
	}
	return out
}

// reportHermesRecords prints what a Hermes library's sync recorded (or,
// in a dry run, would record) before the work tree's changes, and
// whether there was any.
func reportHermesRecords(w io.Writer, f *cmdutil.Factory, res *skillrepo.SyncResult) bool {
	done := func(h skillrepo.Hash) string {
		if res.DryRun {
			return "would record"
		}
		return fmt.Sprintf("%s recorded as %s:", f.IO.Green("✓"), cmdutil.Short(h))
	}
	any := false
	if len(res.Untracked) > 0 {
		fmt.Fprintf(w, "%s stopped tracking Hermes' housekeeping (%s); the files stay on disk, ignored\n", done(res.UntrackCommit), cmdutil.NounCount(len(res.Untracked), "file"))
		any = true
	}
	if p := res.Pins; p != nil && (len(p.Pinned) > 0 || len(p.Unpinned) > 0) {
		var parts []string
		if len(p.Pinned) > 0 {
			parts = append(parts, "pinned "+strings.Join(p.Pinned, ", "))
		}
		if len(p.Unpinned) > 0 {
			parts = append(parts, "unpinned "+strings.Join(p.Unpinned, ", "))
		}
		fmt.Fprintf(w, "%s %s in Hermes\n", done(p.Commit), strings.Join(parts, "; "))
		any = true
	}
	if len(res.Memory) > 0 {
		fmt.Fprintf(w, "%s edits of Hermes' memory (%s)\n", done(res.MemoryCommit), strings.Join(res.Memory, ", "))
		any = true
	}
	if h := res.HermesCurator; h != nil {
		what := h.Summary
		if len(h.Archived) > 0 {
			what = "archived " + strings.Join(h.Archived, ", ")
		}
		fmt.Fprintf(w, "%s Hermes' curator run %d (%s), origin curator\n", done(h.Commit), h.Number, what)
		any = true
	}
	return any
}

func syncRun(opts *Options) error {
	if opts.HookLog != "" {
		return hookSyncRun(opts)
	}
	return record(opts)
}

// record is the sync itself: the work tree's changes as one commit.
func record(opts *Options) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	res, err := lib.Sync(opts.Ctx, skillrepo.SyncOptions{Origin: opts.Origin, Message: opts.Message, DryRun: opts.DryRun, LeaveStaged: opts.LeaveStaged,
		Lint: true})
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, syncJSONOf(res))
	}
	w := f.IO.ErrOut
	hermes := reportHermesRecords(w, f, res)
	if n := len(res.LeftStaged); n > 0 {
		fmt.Fprintf(w, "left %s you staged with git for your own commit ('git commit' records %s):\n", cmdutil.NounCount(n, "path"), cmdutil.Plural(n, "it", "them"))
		for _, p := range res.LeftStaged {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	if len(res.Changes) == 0 {
		if !hermes {
			fmt.Fprintln(w, "nothing to record: the work tree matches the branch")
		}
		return nil
	}
	// Thousands of edits are summarised: the first lines, then a count
	// and where the whole list is.
	whole := "'skillrepo sync --dry-run --json' lists them all"
	if !res.DryRun {
		whole = "'git show --name-status " + cmdutil.Short(res.Commit) + "' lists them all"
	}
	for i, c := range res.Changes {
		if i == maxListedChanges && len(res.Changes) > maxListedChanges+1 {
			fmt.Fprintf(w, "  … and %s (%s)\n", cmdutil.NounCount(len(res.Changes)-i, "more change"), whole)
			break
		}
		fmt.Fprintf(w, "  %-8s %s\n", c.Status, c.Path)
	}
	if n := len(res.LintErrors); n > 0 {
		fmt.Fprintf(w, "%s recorded with %d lint %s (Lint-Error trailers): edits made outside skillrepo are recorded as they are\n", f.IO.Yellow("warning:"), n, cmdutil.Plural(n, "error", "errors"))
		for i, e := range res.LintErrors {
			if i == maxListedChanges && n > maxListedChanges+1 {
				fmt.Fprintf(w, "  … and %s (skillrepo lint shows them all)\n", cmdutil.NounCount(n-i, "more error"))
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
		fmt.Fprintf(w, "dry run: would record %s as origin %s\n", cmdutil.NounCount(len(res.Changes), "change"), res.Origin)
		return nil
	}
	fmt.Fprintf(w, "%s recorded %s as %s (origin %s)\n", f.IO.Green("✓"), cmdutil.NounCount(len(res.Changes), "change"), cmdutil.Short(res.Commit), res.Origin)
	return nil
}

// maxListedChanges is how many changed files (or lint errors) sync lists
// on a terminal before it summarises the rest.
const maxListedChanges = 20

// hookLogWriter collects what a background command prints and hands it
// to log one whole line at a time (Flush sends a last partial line).
type hookLogWriter struct {
	log func(lines ...string)
	buf []byte
}

func (w *hookLogWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	var lines []string
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		if l := strings.TrimRight(string(w.buf[:i]), "\r"); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
		w.buf = w.buf[i+1:]
	}
	if len(lines) > 0 {
		w.log(lines...)
	}
	return len(p), nil
}

// Flush logs what is left of an unfinished line.
func (w *hookLogWriter) Flush() {
	if l := strings.TrimSpace(string(w.buf)); l != "" {
		w.log(l)
	}
	w.buf = nil
}
