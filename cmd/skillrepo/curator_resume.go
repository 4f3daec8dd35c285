package main

import "github.com/spf13/cobra"

func newCuratorResumeCmd(f *factory) *cobra.Command {
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
