package curatorcmd

import (
	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// NewCmdResume is `curator resume`; runF, when not nil, runs instead of pauseRun.
func NewCmdResume(f *cmdutil.Factory, runF func(*PauseOptions) error) *cobra.Command {
	opts := &PauseOptions{Factory: f, Paused: false}
	return &cobra.Command{
		Use:     "resume",
		Short:   "Resume scheduled curator runs",
		Example: `  skillrepo curator resume`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return pauseRun(opts)
		},
	}
}
