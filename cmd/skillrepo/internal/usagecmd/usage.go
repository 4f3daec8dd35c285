// Package usagecmd is the `skillrepo usage` command group: show (the
// sidecar's records, or the usage history) and bump. Each verb has an
// options struct, a NewCmd… that only parses flags and arguments into it
// (handed a runF, a test checks the parse without a library) and a run
// function (docs/architecture.md §6).
package usagecmd

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// NewCmdUsage is the usage command group.
func NewCmdUsage(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "usage <command>",
		Short: "Read and bump the usage sidecar (.usage.json)",
		Example: `  skillrepo usage show
  skillrepo usage show ci-debugging --json
  skillrepo usage bump ci-debugging --use`,
	}
	cmd.AddCommand(NewCmdShow(f, nil), NewCmdBump(f, nil))
	return cmd
}

// ShowOptions is what `usage show` was asked.
type ShowOptions struct {
	Factory *cmdutil.Factory
	Names   []string // the skill named, or none for all
	Raw     bool
	History bool
	Limit   int
}

// NewCmdShow is `usage show`; runF, when not nil, runs instead of showRun.
func NewCmdShow(f *cmdutil.Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "show [<name>] [--raw | --history [--limit N]]",
		Short: "Show usage records",
		Long: `Show the usage records of the library's skills, one per skill: a skill
recorded under several keys (its folder, its frontmatter name, category/name —
Hermes Agent counts views under the frontmatter name) is shown once, under its
folder name, with its records merged, as the curator reads it. Records of no
skill are shown under their own keys. --raw shows .usage.json's records as
they are, one per key.

--history shows the usage history instead: what happened, oldest first — an
agent loaded or invoked the skill, a person viewed it, a write created,
patched, archived or restored it (with the session and review that wrote),
and, without a name, each review's and goal's outcome. The history is kept
per clone, bounded (docs/usage.md); --limit keeps the last N events.`,
		Example: `  skillrepo usage show --json
  skillrepo usage show git-bisect
  skillrepo usage show git-bisect --history --json
  skillrepo usage show --raw`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Raw && opts.History {
				return cmdutil.UsageErrorf("give one of --raw or --history")
			}
			if opts.Limit < 0 {
				return cmdutil.UsageErrorf("--limit must be 0 (all) or more, not %d", opts.Limit)
			}
			opts.Names = args
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Raw, "raw", false, "the sidecar's records as they are, one per key")
	cmd.Flags().BoolVar(&opts.History, "history", false, "the usage history: events over time, oldest first")
	cmd.Flags().IntVar(&opts.Limit, "limit", 100, "with --history: the last N events (0: all)")
	return cmd
}

func showRun(opts *ShowOptions) error {
	f, args := opts.Factory, opts.Names
	lib, err := f.Library()
	if err != nil {
		return err
	}
	if opts.History {
		return showUsageHistory(f, lib, args, opts.Limit)
	}
	recs, err := usageRecords(lib, args, opts.Raw)
	if err != nil {
		return err
	}
	if len(args) == 1 {
		var name string
		for n := range recs {
			name = n
		}
		if f.JSON {
			return cmdutil.PrintJSON(f.IO.Out, recs[name])
		}
	} else if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, recs)
	}
	names := make([]string, 0, len(recs))
	for n := range recs {
		names = append(names, n)
	}
	sort.Strings(names)
	tw := cmdutil.NewTable(f.IO.Out)
	tw.Header(f.IO, "NAME", "STATE", "VIEWS", "USES", "PATCHES", "LAST ACTIVITY", "CREATED BY")
	for _, n := range names {
		r := recs[n]
		last := "-"
		if t := r.LastActivity(); !t.IsZero() {
			last = cmdutil.RFC3339(t)
		}
		by := "-"
		if r.CreatedBy != nil {
			by = *r.CreatedBy
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\n", n, r.State, r.ViewCount, r.UseCount, r.PatchCount, last, by)
	}
	return tw.Flush()
}

// showUsageHistory prints the usage history of the skill args names, or
// the library's.
func showUsageHistory(f *cmdutil.Factory, lib *skillrepo.Library, args []string, limit int) error {
	filter := usage.HistoryFilter{Limit: limit}
	var events []usage.HistoryEvent
	var err error
	if len(args) == 1 {
		events, err = lib.History().Skill(args[0], filter)
		if err == nil && len(events) == 0 {
			// No events: a name of no skill is an error, not an empty
			// history (a deleted skill keeps its events).
			snap, serr := lib.Snapshot("")
			if serr != nil {
				return serr
			}
			if _, err := snap.FindSkill(args[0]); err != nil {
				return err
			}
		}
	} else {
		events, err = lib.UsageHistory().Read(filter)
	}
	if err != nil {
		return err
	}
	if f.JSON {
		if events == nil {
			events = []usage.HistoryEvent{}
		}
		return cmdutil.PrintJSON(f.IO.Out, events)
	}
	if len(events) == 0 {
		fmt.Fprintln(f.IO.Out, "no usage history yet")
		return nil
	}
	tw := cmdutil.NewTable(f.IO.Out)
	tw.Header(f.IO, "TIME", "EVENT", "SKILL", "SESSION", "REVIEW", "OUTCOME")
	for _, e := range events {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", cmdutil.RFC3339(e.Time), e.Kind, cmdutil.Dash(e.Skill), cmdutil.Dash(e.Session), cmdutil.Dash(e.Review), cmdutil.Dash(e.Outcome))
	}
	return tw.Flush()
}

// usageRecords is what usage show prints: every record (args empty) or
// the one args[0] names, merged per skill unless raw.
func usageRecords(lib *skillrepo.Library, args []string, raw bool) (map[string]*usage.Record, error) {
	var recs map[string]*usage.Record
	name := ""
	if len(args) == 1 {
		name = args[0]
	}
	if raw {
		all, err := lib.Usage().Load()
		if err != nil {
			return nil, err
		}
		recs = all
	} else {
		snap, err := lib.Snapshot("")
		if err != nil {
			return nil, err
		}
		all, keys, err := lib.UsageOf(snap)
		if err != nil {
			return nil, err
		}
		recs = all
		// A skill's other names (frontmatter, category/folder) find its
		// merged record.
		if owner, ok := keys.Skill(name); ok && name != "" {
			name = owner
		}
	}
	if name == "" {
		return recs, nil
	}
	r, ok := recs[name]
	if !ok {
		return nil, fmt.Errorf("no usage record for %q: %w", args[0], skillrepo.ErrNotFound)
	}
	return map[string]*usage.Record{name: r}, nil
}

// BumpOptions is what `usage bump` was asked.
type BumpOptions struct {
	Factory *cmdutil.Factory
	Name    string
	Kind    skillrepo.UseKind // a view or a use, from --view or --use
	DryRun  bool

	view, use bool
}

// NewCmdBump is `usage bump`; runF, when not nil, runs instead of bumpRun.
func NewCmdBump(f *cmdutil.Factory, runF func(*BumpOptions) error) *cobra.Command {
	opts := &BumpOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "bump <name> {--view | --use} [--dry-run]",
		Short: "Count a view or a use of a skill",
		Long: `Count a view (which is also a use, as the agent's skill_view counts it) or a
use of a skill in the usage sidecar, and print its counts afterwards. The count
goes under the key Hermes Agent counts by (the skill's frontmatter name); the
counts printed are the skill's whole record, every key it has merged. With
--dry-run the counts are shown as they would be and nothing is written.`,
		Example: `  skillrepo usage bump ci-debugging --use
  skillrepo usage bump ci-debugging --view --dry-run --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.view == opts.use {
				return cmdutil.UsageErrorf("give exactly one of --view or --use")
			}
			opts.Name, opts.Kind = args[0], skillrepo.UseUse
			if opts.view {
				opts.Kind = skillrepo.UseView
			}
			if runF != nil {
				return runF(opts)
			}
			return bumpRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.view, "view", false, "count a view (also a use)")
	cmd.Flags().BoolVar(&opts.use, "use", false, "count a use")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "show the counts after the bump; write nothing")
	return cmd
}

func bumpRun(opts *BumpOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	r, err := lib.CountUse(opts.Name, opts.Kind, opts.DryRun)
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, r)
	}
	verb := "counted"
	if opts.DryRun {
		verb = "would count"
	}
	fmt.Fprintf(f.IO.Out, "%s a %s of %s: %s, %s\n", verb, opts.Kind, opts.Name, cmdutil.NounCount(r.ViewCount, "view"), cmdutil.NounCount(r.UseCount, "use"))
	return nil
}
