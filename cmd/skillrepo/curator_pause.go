package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
)

func newCuratorPauseCmd(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "pause",
		Short: "Stop scheduled curator runs until resumed",
		Long: `Pause scheduled runs: 'curator run --if-due' does nothing until 'curator
resume'. An explicit 'curator run' still runs. The pause is per clone
(.git/skillrepo/curator.json).`,
		Example: `  skillrepo curator pause`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return setCuratorPaused(f, true)
		},
	}
}

func setCuratorPaused(f *cmdutil.Factory, paused bool) error {
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
