// Package configcmd is `skillrepo config accept`: the settings a remote
// changed that this clone holds back. AcceptOptions, NewCmdAccept that
// only parses flags into it (handed a runF, a test checks the parse
// without a library) and acceptRun (docs/architecture.md §6).
package configcmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// AcceptOptions is what `config accept` was asked.
type AcceptOptions struct {
	Factory *cmdutil.Factory
	DryRun  bool
}

// NewCmdConfig is the config command group.
func NewCmdConfig(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Settings that arrived from the remote",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(NewCmdAccept(f, nil))
	return cmd
}

// NewCmdAccept is `config accept`; runF, when not nil, runs instead of acceptRun.
func NewCmdAccept(f *cmdutil.Factory, runF func(*AcceptOptions) error) *cobra.Command {
	opts := &AcceptOptions{Factory: f}
	accept := &cobra.Command{
		Use:   "accept [--dry-run] [--json]",
		Short: "Accept the settings a remote changed, which this clone holds back",
		Long: `A pull or remote sync that changes a setting deciding where a review's
transcript and your API key go, or what an agent may do without you
(review.base_url, review.model, review.backend, review.write_approval, the
curator's and goals' model and address, memory.dir, protected, remote.*),
does not change what this clone does: it goes on with the values it had
until you accept. status and the agents' SessionStart say a change is held.
Read the change (git log -p .skillrepo/config.yaml), then accept it here;
from the next command on, the file's values are used. docs/config.md.`,
		Example: `  skillrepo config accept --dry-run
  skillrepo config accept`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return acceptRun(opts)
		},
	}
	accept.Flags().BoolVar(&opts.DryRun, "dry-run", false, "list what would be accepted")
	return accept
}

func acceptRun(opts *AcceptOptions) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	held := lib.HeldSettings()
	if !opts.DryRun && len(held) > 0 {
		if held, err = lib.AcceptSettings(); err != nil {
			return err
		}
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, configAcceptJSON{Accepted: heldOrEmpty(held), DryRun: opts.DryRun})
	}
	if len(held) == 0 {
		fmt.Fprintln(f.IO.ErrOut, "no setting is held: this clone uses .skillrepo/config.yaml as it is")
		return nil
	}
	verb := "accepted"
	if opts.DryRun {
		verb = "would accept (dry run: nothing changed)"
	}
	for _, h := range held {
		fmt.Fprintf(f.IO.ErrOut, "%s %s: %s (was %s)\n", verb, h.Key, h.Incoming, h.Confirmed)
	}
	return nil
}

type configAcceptJSON struct {
	Accepted []config.Held `json:"accepted"`
	DryRun   bool          `json:"dry_run"`
}

func heldOrEmpty(h []config.Held) []config.Held {
	if h == nil {
		return []config.Held{}
	}
	return h
}
