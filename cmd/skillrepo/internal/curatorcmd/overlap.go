package curatorcmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/overlap"
)

// OverlapOptions is what `curator overlap` was asked.
type OverlapOptions struct {
	Factory   *cmdutil.Factory
	Threshold float64
}

// NewCmdOverlap is `curator overlap`; runF, when not nil, runs instead of overlapRun.
func NewCmdOverlap(f *cmdutil.Factory, runF func(*OverlapOptions) error) *cobra.Command {
	opts := &OverlapOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "overlap [--threshold X] [--json]",
		Short: "List clusters of curator-managed skills that belong under one umbrella",
		Long: `Compare every curator-managed skill outside .archive/ with every other and
list the clusters that likely belong under one umbrella skill: skills whose
name, description and body are similar (TF-IDF cosine at or above the
threshold, default 0.45), and every unpinned skill of a name prefix
(gateway-*, pr-*: a prefix cluster, where the reference's curator starts),
whatever its similarity. Each cluster names its members (pinned and
scheduled ones flagged: the curator never changes them), the evidence
(shared prefix; each pair with its similarity and the words that weigh most
in it, a prefix cluster's low pairs included) and a suggested umbrella name;
whether to build the umbrella is the model's decision.

No model is involved and nothing is written.`,
		Example: `  skillrepo curator overlap
  skillrepo curator overlap --threshold 0.6 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Threshold < 0 || opts.Threshold > 1 {
				return cmdutil.UsageErrorf("--threshold %v: want a similarity between 0 and 1", opts.Threshold)
			}
			if runF != nil {
				return runF(opts)
			}
			return overlapRun(opts)
		},
	}
	cmd.Flags().Float64Var(&opts.Threshold, "threshold", overlap.DefaultThreshold, "similarity (0..1) at or above which two skills overlap")
	return cmd
}

func overlapRun(opts *OverlapOptions) error {
	f := opts.Factory
	// Read-only: no recovery, no cache written, no lock.
	c, done, err := newDryRunCurator(f)
	if err != nil {
		return err
	}
	defer done()
	rep, err := c.Overlap(curator.OverlapOptions{Threshold: opts.Threshold})
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, rep)
	}
	printOverlap(f.IO.Out, rep)
	for _, d := range rep.Unreadable {
		fmt.Fprintf(f.IO.ErrOut, "warning: %s/SKILL.md could not be read; left out\n", d)
	}
	if rep.OwnershipUnknown != "" {
		f.Warn(rep.OwnershipUnknown + "; every unarchived skill was compared ('git fetch --unshallow' reads who owns them)")
	}
	return nil
}

func printOverlap(w io.Writer, rep *curator.OverlapReport) {
	which := "curator-managed"
	if rep.OwnershipUnknown != "" {
		which = "unarchived"
	}
	fmt.Fprintf(w, "%d %s among %d %s %s (threshold %.2f)\n",
		len(rep.Clusters), cmdutil.Plural(len(rep.Clusters), "cluster", "clusters"), rep.Skills, which, cmdutil.Plural(rep.Skills, "skill", "skills"), rep.Threshold)
	for _, c := range rep.Clusters {
		fmt.Fprintln(w)
		umbrella := "new umbrella " + c.Umbrella
		if c.UmbrellaExists {
			umbrella = "fold into " + c.Umbrella
		}
		prefix := ""
		if c.Prefix != "" {
			prefix = ", prefix " + c.Prefix + "*"
		}
		fmt.Fprintf(w, "%s: %d skills%s\n", umbrella, len(c.Members), prefix)
		for _, m := range c.Members {
			var flags []string
			if m.Pinned {
				flags = append(flags, "pinned")
			}
			if m.Scheduled {
				flags = append(flags, "scheduled")
			}
			line := "  " + m.Name
			if len(flags) > 0 {
				line += "  [" + strings.Join(flags, ", ") + ": never changed]"
			}
			fmt.Fprintln(w, line)
		}
		for _, p := range c.Pairs {
			why := ""
			if p.Prefix != "" {
				why = " (shared prefix " + p.Prefix + ")"
			}
			fmt.Fprintf(w, "  ~ %s, %s: %.2f%s: %s\n", p.A, p.B, p.Similarity, why, strings.Join(p.Shared, ", "))
		}
	}
}
