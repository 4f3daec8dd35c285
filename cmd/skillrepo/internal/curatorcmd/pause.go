package curatorcmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
)

// PauseOptions is what `curator pause` or `curator resume` was asked.
type PauseOptions struct {
	Factory *cmdutil.Factory
	Paused  bool
}

// NewCmdPause is `curator pause`; runF, when not nil, runs instead of pauseRun.
func NewCmdPause(f *cmdutil.Factory, runF func(*PauseOptions) error) *cobra.Command {
	opts := &PauseOptions{Factory: f, Paused: true}
	return &cobra.Command{
		Use:   "pause",
		Short: "Stop scheduled curator runs until resumed",
		Long: `Pause scheduled runs: 'curator run --if-due' does nothing until 'curator
resume'. An explicit 'curator run' still runs. The pause is per clone
(.git/skillrepo/curator.json).`,
		Example: `  skillrepo curator pause`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return pauseRun(opts)
		},
	}
}

func pauseRun(opts *PauseOptions) error {
	f, paused := opts.Factory, opts.Paused
	lib, err := f.Library()
	if err != nil {
		return err
	}
	if _, err := curator.StoreOf(lib).SetPaused(paused); err != nil {
		return err
	}
	if paused {
		fmt.Fprintf(f.IO.ErrOut, "%s curator paused; resume with 'skillrepo curator resume'\n", f.IO.Green("✓"))
	} else {
		fmt.Fprintf(f.IO.ErrOut, "%s curator resumed\n", f.IO.Green("✓"))
	}
	return nil
}
