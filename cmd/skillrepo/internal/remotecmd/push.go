package remotecmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo/remote"
)

// PushOptions is what `push` was asked.
type PushOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Remote  string
	DryRun  bool
}

// NewCmdPush is `push`; runF, when not nil, runs instead of pushRun.
func NewCmdPush(f *cmdutil.Factory, runF func(*PushOptions) error) *cobra.Command {
	opts := &PushOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "push [--remote <name>] [--dry-run]",
		Short: "Share main, proposals and rejections with a git remote",
		Long: `Push the proposal branches and rejection records, then main, to the remote
(default origin), and delete the remote's proposal branches that were approved
or rejected here. Nothing is forced: when the remote's main has commits this
library lacks, the push is refused with exit 3; run 'skillrepo pull' first.

When the push creates main on a bare repository on this machine whose HEAD
names a branch it does not have (a fresh 'git init --bare' with another
default branch), its HEAD is set to main, so clones check it out; for a
server, a warning says how to set its default branch.

The git binary does the transport when it is on PATH; otherwise go-git does
(much slower). SKILLREPO_TRANSPORT=go-git forces go-git.`,
		Example: `  skillrepo push
  skillrepo push --remote team --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return pushRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Remote, "remote", "origin", "remote to push to")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "show what would be pushed, push nothing")
	return cmd
}

func pushRun(opts *PushOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	res, err := remote.New(lib).Push(opts.Ctx, remoteOptions(f, opts.Remote, opts.DryRun))
	if res != nil {
		if f.JSON {
			out := remoteJSON{Remote: res.Remote, Transport: res.Transport, DryRun: res.DryRun, Updates: refUpdatesJSON(res.Updates), HEAD: res.HEAD}
			if perr := cmdutil.PrintJSON(f.IO.Out, out); perr != nil {
				return perr
			}
			return err
		}
		if perr := printRefUpdates(f, res.Remote, res.Transport, res.Updates, res.DryRun, "pushed to"); perr != nil {
			return perr
		}
		switch h := res.HEAD; {
		case h != nil && h.Set:
			fmt.Fprintf(f.IO.ErrOut, "set %s's HEAD to %s (it named %s, which does not exist), so clones check out %s\n", res.Remote, lib.MainBranch(), h.Was, lib.MainBranch())
		case h != nil && h.Hint != "":
			fmt.Fprintf(f.IO.ErrOut, "warning: %s\n", h.Hint)
		}
	}
	return err
}

// remoteOptions builds the transport options shared by push and pull.
func remoteOptions(f *cmdutil.Factory, name string, dryRun bool) remote.Options {
	return remote.Options{Remote: name, DryRun: dryRun, GoGit: f.Getenv("SKILLREPO_TRANSPORT") == "go-git"}
}

type refUpdateJSON struct {
	Ref      string `json:"ref"`
	Old      string `json:"old"`
	New      string `json:"new"`
	Status   string `json:"status"` // created, updated, deleted, rejected
	Rejected string `json:"rejected,omitempty"`
}

type remoteJSON struct {
	Remote    string          `json:"remote"`
	Transport string          `json:"transport"`
	DryRun    bool            `json:"dry_run"`
	Updates   []refUpdateJSON `json:"updates"`
	Main      *mainMoveJSON   `json:"main,omitempty"`
	Diverged  []string        `json:"diverged,omitempty"`
	HEAD      *remote.HEAD    `json:"head,omitempty"`
}

type mainMoveJSON struct {
	Old   string   `json:"old"`
	New   string   `json:"new"`
	Paths []string `json:"paths"`
}

func refStatus(u remote.RefUpdate) string {
	switch {
	case u.Rejected != "":
		return "rejected"
	case u.Old.IsZero():
		return "created"
	case u.New.IsZero():
		return "deleted"
	}
	return "updated"
}

func refUpdatesJSON(us []remote.RefUpdate) []refUpdateJSON {
	out := []refUpdateJSON{}
	for _, u := range us {
		out = append(out, refUpdateJSON{Ref: u.Ref, Old: cmdutil.HashString(u.Old), New: cmdutil.HashString(u.New), Status: refStatus(u), Rejected: u.Rejected})
	}
	return out
}

// printRefUpdates prints push results on stderr, one line per ref.
func printRefUpdates(f *cmdutil.Factory, remote, transport string, us []remote.RefUpdate, dryRun bool, verb string) error {
	w := f.IO.ErrOut
	if len(us) == 0 {
		fmt.Fprintf(w, "%s is up to date\n", remote)
		return nil
	}
	if dryRun {
		verb = "would push to"
	}
	fmt.Fprintf(w, "%s %s (%s):\n", verb, remote, transport)
	for _, u := range us {
		name := strings.TrimPrefix(strings.TrimPrefix(u.Ref, "refs/heads/"), "refs/")
		switch st := refStatus(u); st {
		case "rejected":
			fmt.Fprintf(w, "  %s %s: %s\n", f.IO.Red("!"), name, u.Rejected)
		case "updated":
			fmt.Fprintf(w, "  %s..%s %s\n", cmdutil.Short(u.Old), cmdutil.Short(u.New), name)
		default:
			fmt.Fprintf(w, "  %s %s\n", st, name)
		}
	}
	return nil
}
