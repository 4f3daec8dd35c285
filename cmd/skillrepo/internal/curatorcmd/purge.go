package curatorcmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// PurgeOptions is what `curator purge` was asked.
type PurgeOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Days    int
	DryRun  bool
}

// NewCmdPurge is `curator purge`; runF, when not nil, runs instead of purgeRun.
func NewCmdPurge(f *cmdutil.Factory, runF func(*PurgeOptions) error) *cobra.Command {
	opts := &PurgeOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "purge [--days N] [--dry-run] [--json]",
		Short: "Remove archived skills older than curator.archive_ttl_days from the tree",
		Long: `Remove from the tree every archived skill that was archived at least N days
ago (N defaults to curator.archive_ttl_days; 0, the default, means purging
is off), in one commit (Skill-Action: purge). The age is read from history:
when the folder entered .archive/ (else the usage sidecar's archived_at); a
folder neither dates is kept.

Nothing is lost: history keeps every purged folder, and
'skillrepo skill restore NAME' brings one back to where it lived.`,
		Example: `  skillrepo curator purge --dry-run
  skillrepo curator purge --days 90 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("days") && opts.Days < 1 {
				return cmdutil.UsageErrorf("--days %d: want at least 1", opts.Days)
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return purgeRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&opts.Days, "days", 0, "purge skills archived at least N days ago (default curator.archive_ttl_days)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "list what would be purged, write nothing")
	return cmd
}

func printPurge(ios *cmdutil.IOStreams, res *curator.PurgeResult) {
	w := ios.Out
	verb := "purged"
	if res.DryRun {
		verb = "dry run: would purge"
	}
	fmt.Fprintf(w, "%s %d archived %s (archived at least %d days ago)", verb, len(res.Purged), cmdutil.Plural(len(res.Purged), "skill", "skills"), res.Days)
	if res.Commit != "" {
		fmt.Fprintf(w, " in %.7s", res.Commit)
	}
	fmt.Fprintln(w)
	tw := cmdutil.NewTable(w)
	tw.Header(ios, "ACTION", "NAME", "PATH", "WHY")
	for _, p := range res.Purged {
		fmt.Fprintf(tw, "purge\t%s\t%s\tarchived %s, %s ago\n", p.Name, p.Dir, cmdutil.RFC3339(p.ArchivedAt), cmdutil.NounCount(p.AgeDays, "day"))
	}
	for _, p := range res.Kept {
		fmt.Fprintf(tw, "keep\t%s\t%s\tarchived %s, %s ago\n", p.Name, p.Dir, cmdutil.RFC3339(p.ArchivedAt), cmdutil.NounCount(p.AgeDays, "day"))
	}
	for _, d := range res.Undated {
		fmt.Fprintf(tw, "keep\t-\t%s\tno archiving time in history or the sidecar\n", d)
	}
	tw.Flush()
	if len(res.Purged) > 0 && !res.DryRun {
		fmt.Fprintln(w, "history keeps them: skillrepo skill restore NAME brings one back")
	}
}

func purgeRun(opts *PurgeOptions) error {
	f := opts.Factory
	c, done, err := curatorFor(f, opts.DryRun)
	if err != nil {
		return err
	}
	defer done()
	res, err := c.Purge(opts.Ctx, curator.PurgeOptions{Days: opts.Days, DryRun: opts.DryRun})
	if errors.Is(err, curator.ErrPurgeDisabled) {
		return skillrepo.WithHint(err, "set curator.archive_ttl_days in .skillrepo/config.yaml, or pass --days N")
	}
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, res)
	}
	printPurge(f.IO, res)
	return nil
}
