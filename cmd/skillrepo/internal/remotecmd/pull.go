package remotecmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo/remote"
)

// PullOptions is what `pull` was asked.
type PullOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Remote  string
	DryRun  bool
}

// NewCmdPull is `pull`; runF, when not nil, runs instead of pullRun.
func NewCmdPull(f *cmdutil.Factory, runF func(*PullOptions) error) *cobra.Command {
	opts := &PullOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "pull [--remote <name>] [--dry-run]",
		Short: "Fast-forward main and bring in proposals from a git remote",
		Long: `Fetch from the remote (default origin), fast-forward main and the work tree
(touched paths only; an uncommitted edit on one of them stops the pull with
exit 3), bring in the remote's proposal branches and rejection records, and
delete local proposal branches that main now contains (approved elsewhere,
or merged on GitHub). Nothing is merged or forced: when main has diverged
from the remote's, pull says so and exits 3.`,
		Example: `  skillrepo pull
  skillrepo pull --dry-run --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return pullRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Remote, "remote", "origin", "remote to pull from")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "show what would change, change nothing (still fetches)")
	return cmd
}

func pullRun(opts *PullOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	res, err := remote.New(lib).Pull(opts.Ctx, remoteOptions(f, opts.Remote, opts.DryRun))
	if res == nil {
		return err
	}
	if f.JSON {
		out := remoteJSON{Remote: res.Remote, Transport: res.Transport, DryRun: res.DryRun, Updates: refUpdatesJSON(res.Refs), Diverged: res.Diverged}
		if m := res.Main; m != nil {
			out.Main = &mainMoveJSON{Old: cmdutil.HashString(m.Old), New: cmdutil.HashString(m.New), Paths: m.Paths}
			if out.Main.Paths == nil {
				out.Main.Paths = []string{}
			}
		}
		if perr := cmdutil.PrintJSON(f.IO.Out, out); perr != nil {
			return perr
		}
		return err
	}
	w := f.IO.ErrOut
	prefix := ""
	if res.DryRun {
		prefix = "dry run: would "
	}
	if m := res.Main; m != nil {
		fmt.Fprintf(w, "%sfast-forward %s %s..%s (%d %s)\n", prefix, lib.MainBranch(), cmdutil.Short(m.Old), cmdutil.Short(m.New), len(m.Paths), cmdutil.Plural(len(m.Paths), "file", "files"))
	}
	for _, u := range res.Refs {
		name := strings.TrimPrefix(strings.TrimPrefix(u.Ref, "refs/heads/"), "refs/")
		fmt.Fprintf(w, "%s%s %s\n", prefix, refStatus(u), name)
	}
	for _, d := range res.Diverged {
		fmt.Fprintf(w, "%s differs here and on %s with commits on both sides: left as it is\n", d, res.Remote)
	}
	if res.Main == nil && len(res.Refs) == 0 && len(res.Diverged) == 0 && err == nil {
		fmt.Fprintf(w, "up to date with %s\n", res.Remote)
	}
	return err
}
