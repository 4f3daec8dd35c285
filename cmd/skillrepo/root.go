package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/configcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/curatorcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/doctorcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/goalcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/hookscmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/indexcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/initcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/lintcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/mcpcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/memorycmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/proposalcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/queuecmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/remotecmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/reviewcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/skillcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/statuscmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/synccmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/uicmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/usagecmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/whatsnewcmd"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/workercmd"
)

// run is main without os.Exit, so tests and testscript call it directly.
func run(args []string, io *cmdutil.IOStreams, getenv func(string) string) int {
	f := &cmdutil.Factory{IO: io, Getenv: getenv, Now: time.Now, ToolVersion: toolVersion()}
	defer f.Close()
	root := newRootCmd(f)
	finishCommandTree(f, root, args)
	root.SetArgs(args)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := root.ExecuteContext(ctx)
	f.ShareAfterWrite()
	if errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "interrupted") {
		err = fmt.Errorf("interrupted: %w", err) // Ctrl-C: exit 130
	}
	if err != nil {
		cmdutil.ReportError(io, err, f.JSON)
	}
	return cmdutil.ExitCodeFor(err)
}

func newRootCmd(f *cmdutil.Factory) *cobra.Command {
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
				f.Dir, f.DirDefault = ".", true
			}
			f.IO.SetColor(f.Getenv, noColor)
			if now != "" {
				t, err := time.Parse(time.RFC3339, now)
				if err != nil {
					return cmdutil.UsageErrorf("--now: want an RFC 3339 time such as 2026-11-30T12:00:00Z: %v", err)
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
		Long:  cmdutil.ExitCodesHelp,
	})
	cmd.SetVersionTemplate("{{.Version}}\n")
	cmd.AddCommand(
		newVersionCmd(f),
		hookscmd.NewCmdHooks(f),
		initcmd.NewCmdInit(f, nil),
		lintcmd.NewCmdLint(f, nil),
		skillcmd.NewCmdSkill(f),
		synccmd.NewCmdSync(f, nil),
		usagecmd.NewCmdUsage(f),
		reviewcmd.NewCmdReview(f, nil),
		memorycmd.NewCmdMemory(f),
		proposalcmd.NewCmdProposal(f), remotecmd.NewCmdPush(f, nil), remotecmd.NewCmdPull(f, nil), remotecmd.NewCmdRemote(f),
		indexcmd.NewCmdIndex(f, nil),
		curatorcmd.NewCmdCurator(f),
		mcpcmd.NewCmdMCP(f, nil),
		goalcmd.NewCmdGoal(f),
		queuecmd.NewCmdQueue(f), workercmd.NewCmdWorker(f, nil), statuscmd.NewCmdStatus(f, nil), doctorcmd.NewCmdDoctor(f, nil), whatsnewcmd.NewCmdWhatsnew(f, nil), uicmd.NewCmdUI(f, nil), configcmd.NewCmdConfig(f),
	)
	cmd.AddCommand(newCompletionCmd(cmd))
	return cmd
}
