package main

import (
	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

func newCuratorResumeCmd(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "resume",
		Short:   "Resume scheduled curator runs",
		Example: `  skillrepo curator resume`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return setCuratorPaused(f, false)
		},
	}
}
