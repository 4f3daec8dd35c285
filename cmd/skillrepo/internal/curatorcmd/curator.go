// Package curatorcmd is the `skillrepo curator` command group: status,
// run, pause, resume, rollback, overlap, prune, purge and list-unmanaged.
// Each verb has an options struct, a NewCmd… that only parses flags and
// arguments into it (handed a runF, a test checks the parse without a
// library) and a …Run that does the work through package curator
// (docs/architecture.md §6).
package curatorcmd

import (
	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// NewCmdCurator is the curator command group.
func NewCmdCurator(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "curator <command>",
		Short: "Age idle agent-made skills: active → stale → archived",
		Long: `The curator moves curator-managed skills (made by a background review, or
adopted) through active → stale → archived by how long they went unused,
viewed or patched. Pinned skills and skills a scheduled job uses are never
touched, and user-owned skills are never curated. A run is one branch merged
into the main branch; 'curator rollback RUN' undoes it.`,
		Example: `  skillrepo curator status
  skillrepo curator run --dry-run
  skillrepo curator run --if-due
  skillrepo curator rollback 20261130-120000`,
	}
	cmd.AddCommand(
		NewCmdStatus(f, nil),
		NewCmdRun(f, nil),
		NewCmdPause(f, nil),
		NewCmdResume(f, nil),
		NewCmdRollback(f, nil),
		NewCmdOverlap(f, nil),
		NewCmdPrune(f, nil),
		NewCmdPurge(f, nil),
		NewCmdListUnmanaged(f, nil),
	)
	return cmd
}

// newDryRunCurator opens the library read-only: no recovery of an
// interrupted earlier write (it removes temp files and takes the lock) and
// no history or owners cache written, since a dry run must leave every
// byte as it was. The caller calls done.
func newDryRunCurator(f *cmdutil.Factory) (c *curator.Curator, done func(), err error) {
	lib, err := skillrepo.Open(f.Dir, skillrepo.OpenOptions{Getenv: f.Getenv, Now: f.Now, ReadOnly: true, Progress: f.LibraryProgress()})
	if err != nil {
		return nil, nil, err
	}
	return &curator.Curator{Lib: lib, Now: f.Now, Agents: agents.Implementing[curator.Unattended]()}, func() { lib.Close() }, nil
}

// curatorFor picks the curator for a command that may be a dry run.
func curatorFor(f *cmdutil.Factory, dryRun bool) (*curator.Curator, func(), error) {
	if dryRun {
		return newDryRunCurator(f)
	}
	c, err := cmdutil.NewCurator(f)
	return c, func() {}, err
}
