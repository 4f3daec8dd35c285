package main

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/skillrepo"
)

func newUsageCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "usage <command>",
		Short: "Read and bump the usage sidecar (.usage.json)",
		Example: `  skillrepo usage show
  skillrepo usage show ci-debugging --json
  skillrepo usage bump ci-debugging --use`,
	}
	cmd.AddCommand(newUsageShowCmd(f), newUsageBumpCmd(f))
	return cmd
}

func newUsageShowCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:     "show [<name>]",
		Short:   "Show usage records",
		Example: `  skillrepo usage show --json`,
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lib, err := f.Library()
			if err != nil {
				return err
			}
			recs, err := lib.Usage().Load()
			if err != nil {
				return err
			}
			if len(args) == 1 {
				r, ok := recs[args[0]]
				if !ok {
					return fmt.Errorf("no usage record for %q: %w", args[0], skillrepo.ErrNotFound)
				}
				if f.JSON {
					return printJSON(f.IO.Out, r)
				}
				recs = map[string]*skillrepo.UsageRecord{args[0]: r}
			} else if f.JSON {
				return printJSON(f.IO.Out, recs)
			}
			names := make([]string, 0, len(recs))
			for n := range recs {
				names = append(names, n)
			}
			sort.Strings(names)
			tw := newTable(f.IO.Out)
			tw.header(f.IO, "NAME", "STATE", "VIEWS", "USES", "PATCHES", "LAST ACTIVITY", "CREATED BY")
			for _, n := range names {
				r := recs[n]
				last := "-"
				if t := r.LastActivity(); !t.IsZero() {
					last = rfc3339(t)
				}
				by := "-"
				if r.CreatedBy != nil {
					by = *r.CreatedBy
				}
				fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\n", n, r.State, r.ViewCount, r.UseCount, r.PatchCount, last, by)
			}
			return tw.Flush()
		},
	}
}

func newUsageBumpCmd(f *factory) *cobra.Command {
	var view, use, dryRun bool
	cmd := &cobra.Command{
		Use:   "bump <name> {--view | --use} [--dry-run]",
		Short: "Count a view or a use of a skill",
		Long: `Count a view (which is also a use, as the agent's skill_view counts it) or a
use of a skill in the usage sidecar, and print its counts afterwards. With
--dry-run the counts are shown as they would be and nothing is written.`,
		Example: `  skillrepo usage bump ci-debugging --use
  skillrepo usage bump ci-debugging --view --dry-run --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if view == use {
				return usageErrorf("give exactly one of --view or --use")
			}
			lib, err := f.Library()
			if err != nil {
				return err
			}
			snap, err := lib.Snapshot("")
			if err != nil {
				return err
			}
			si, err := snap.FindSkill(args[0])
			if err != nil {
				return err
			}
			r, err := lib.Usage().Bump(si.Name, view, dryRun)
			if err != nil {
				return err
			}
			if f.JSON {
				return printJSON(f.IO.Out, r)
			}
			verb, kind := "counted", "use"
			if dryRun {
				verb = "would count"
			}
			if view {
				kind = "view"
			}
			fmt.Fprintf(f.IO.Out, "%s a %s of %s: %s, %s\n", verb, kind, si.Name, nounCount(r.ViewCount, "view"), nounCount(r.UseCount, "use"))
			return nil
		},
	}
	cmd.Flags().BoolVar(&view, "view", false, "count a view (also a use)")
	cmd.Flags().BoolVar(&use, "use", false, "count a use")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "show the counts after the bump; write nothing")
	return cmd
}
