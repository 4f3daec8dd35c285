package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// factory hands commands their dependencies lazily, so nothing expensive
// runs at start-up and tests can replace any one of them.
type factory struct {
	IO     *iostreams
	Getenv func(string) string
	// Now is the clock; --now (hidden) fixes it for deterministic tests.
	Now func() time.Time
	// Dir is the library directory from -C, $SKILLREPO_LIBRARY or ".".
	Dir  string
	JSON bool
	// dirDefault: Dir is the current folder because neither -C nor
	// $SKILLREPO_LIBRARY named one.
	dirDefault bool

	lib *skillrepo.Library
	// inferredSaid: the library used was named on stderr (sayInferred).
	inferredSaid bool
	// shareMark is what the shared remote would be sent when the library
	// was opened (remote.go); noShare: this command shares by itself.
	shareMark skillrepo.ShareMark
	noShare   bool
}

// Library opens the library once per process.
func (f *factory) Library() (*skillrepo.Library, error) {
	if f.lib != nil {
		return f.lib, nil
	}
	lib, err := skillrepo.Open(f.Dir, skillrepo.OpenOptions{Getenv: f.Getenv, Now: f.Now, Progress: f.libraryProgress(), Warn: f.warn})
	if err != nil {
		return nil, err
	}
	f.lib = lib
	f.sayInferred(lib.Root)
	if lib.Config.Remote.Enabled() {
		f.shareMark = lib.Remote().ShareMark()
	}
	return lib, nil
}

// sayInferred tells, once, which library a command run outside any
// library uses (the only one of the project, found as git finds its
// repository from a sub-folder), on stderr so output stays the command's.
func (f *factory) sayInferred(root string) {
	dir, err := filepath.Abs(f.Dir)
	if err != nil || f.inferredSaid {
		return
	}
	if rel, err := filepath.Rel(root, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return // dir is in the library
	}
	f.inferredSaid = true
	shown := root
	if rel, err := filepath.Rel(dir, root); err == nil {
		shown = rel
	}
	fmt.Fprintf(f.IO.ErrOut, "skillrepo: using the library in %s (the project's only one)\n", shown)
}

// warn prints a warning on stderr: a write that landed but left work for
// the next command (exit code 0).
func (f *factory) warn(msg string) {
	fmt.Fprintf(f.IO.ErrOut, "warning: %s\n", msg)
}

// warnHinted prints a read's caveat on stderr, with its hint when it
// has one (output stays the command's, exit 0).
func (f *factory) warnHinted(err error) {
	f.warn(err.Error())
	var h hinter
	if errors.As(err, &h) && h.Hint() != "" {
		fmt.Fprintf(f.IO.ErrOut, "hint: %s\n", h.Hint())
	}
}

func (f *factory) close() {
	if f.lib != nil {
		f.lib.Close()
		f.lib = nil
	}
}

// run is main without os.Exit, so tests and testscript call it directly.
func run(args []string, io *iostreams, getenv func(string) string) int {
	f := &factory{IO: io, Getenv: getenv, Now: time.Now}
	defer f.close()
	root := newRootCmd(f)
	finishCommandTree(f, root)
	root.SetArgs(args)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := root.ExecuteContext(ctx)
	f.shareAfterWrite()
	if errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "interrupted") {
		err = fmt.Errorf("interrupted: %w", err) // Ctrl-C: exit 130
	}
	if err != nil {
		reportError(io, err, f.JSON)
	}
	return exitCodeFor(err)
}

func newRootCmd(f *factory) *cobra.Command {
	var noColor bool
	var now string
	cmd := &cobra.Command{
		Use:   "skillrepo <command> [flags]",
		Short: "Keep an agent's skills library as a git repository",
		Long: `skillrepo turns an AI agent's skills folder into a git repository and runs the
agent's self-improvement loop on it: every skill write is a commit with
provenance trailers, staged proposals are branches, approval is a merge, and
archive, restore and rollback are git operations.`,
		Version:       readVersion().String(),
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if f.Dir == "" {
				f.Dir = f.Getenv("SKILLREPO_LIBRARY")
			}
			if f.Dir == "" {
				f.Dir, f.dirDefault = ".", true
			}
			f.IO.setColor(f.Getenv, noColor)
			if now != "" {
				t, err := time.Parse(time.RFC3339, now)
				if err != nil {
					return usageErrorf("--now: want an RFC 3339 time such as 2026-11-30T12:00:00Z: %v", err)
				}
				f.Now = func() time.Time { return t }
			}
			return nil
		},
	}
	pf := cmd.PersistentFlags()
	pf.StringVarP(&f.Dir, "dir", "C", "", "library `directory` (default $SKILLREPO_LIBRARY, else the current directory)")
	pf.BoolVar(&f.JSON, "json", false, "machine-readable JSON output")
	pf.BoolVar(&noColor, "no-color", false, "disable colour output")
	pf.StringVar(&now, "now", "", "fix the clock to this RFC 3339 time (for tests)")
	_ = pf.MarkHidden("now")

	// A command with no Run is a help topic: "skillrepo help exit-codes".
	cmd.AddCommand(&cobra.Command{
		Use:   "exit-codes",
		Short: "What skillrepo's exit codes mean",
		Long:  exitCodesHelp,
	})
	cmd.SetVersionTemplate("{{.Version}}\n")
	cmd.AddCommand(
		newVersionCmd(f),
		newHooksCmd(f),
		newInitCmd(f),
		newLintCmd(f),
		newSkillCmd(f),
		newSyncCmd(f),
		newUsageCmd(f),
		newReviewCmd(f),
		newMemoryCmd(f),
		newProposalCmd(f), newPushCmd(f), newPullCmd(f), newRemoteCmd(f),
		newIndexCmd(f),
		newCuratorCmd(f),
		newMCPCmd(f),
		newGoalCmd(f),
		newQueueCmd(f), newWorkerCmd(f), newStatusCmd(f), newDoctorCmd(f), newWhatsnewCmd(f), newUICmd(f), newConfigCmd(f),
	)
	cmd.AddCommand(newCompletionCmd(cmd))
	return cmd
}
