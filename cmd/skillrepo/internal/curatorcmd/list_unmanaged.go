package curatorcmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// ListUnmanagedOptions is what `curator list-unmanaged` was asked.
type ListUnmanagedOptions struct {
	Factory *cmdutil.Factory
}

// NewCmdListUnmanaged is `curator list-unmanaged`; runF, when not nil, runs instead of listUnmanagedRun.
func NewCmdListUnmanaged(f *cmdutil.Factory, runF func(*ListUnmanagedOptions) error) *cobra.Command {
	opts := &ListUnmanagedOptions{Factory: f}
	return &cobra.Command{
		Use:   "list-unmanaged [--json]",
		Short: "List the skills the curator does not manage (yours)",
		Long: `List every skill outside .archive/ that is not curator-managed, with the
evidence for its owner. The curator never ages, archives or consolidates
these; 'skillrepo skill adopt NAME' hands one to it. Nothing is written.`,
		Example: `  skillrepo curator list-unmanaged
  skillrepo curator list-unmanaged --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return listUnmanagedRun(opts)
		},
	}
}

func listUnmanagedRun(opts *ListUnmanagedOptions) error {
	f := opts.Factory
	c, done, err := newDryRunCurator(f)
	if err != nil {
		return err
	}
	defer done()
	list, err := c.ListUnmanaged()
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, list)
	}
	if len(list) > 0 && strings.HasPrefix(list[0].Reason, "ownership is unknown") {
		f.Warn(list[0].Reason + "; until 'git fetch --unshallow', the curator manages none of them")
	}
	tw := cmdutil.NewTable(f.IO.Out)
	tw.Header(f.IO, "NAME", "PATH", "PINNED", "WHY NOT MANAGED")
	for _, s := range list {
		pinned := ""
		if s.Pinned {
			pinned = "pinned"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, s.Dir, pinned, s.Reason)
	}
	tw.Flush()
	if len(list) == 0 {
		fmt.Fprintln(f.IO.ErrOut, "every skill is curator-managed")
	}
	return nil
}
