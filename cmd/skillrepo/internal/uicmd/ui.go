// Package uicmd is `skillrepo ui`, the local web page over the library:
// Options, NewCmdUI that only
// parses flags and arguments into it (handed a runF, a test checks the
// parse without a library) and uiRun (docs/architecture.md §6).
package uicmd

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/webui"
)

// Options is what `ui` was asked.
type Options struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Port    int
	Open    bool
	By      string
}

// NewCmdUI is `ui`; runF, when not nil, runs instead of uiRun.
func NewCmdUI(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "ui [--port N] [--open] [--by NAME]",
		Short: "A local web page: proposals, skills, history and usage over time",
		Long: `Serve a web page for the library on this computer (127.0.0.1 only) until
interrupted: the overview (skills by state and owner, proposals waiting, the
last reviews, failed ones with their retry command, the curator's next run,
what was learned in the last day), proposals as side-by-side or unified diffs
with their provenance, lint verdict and merge status — approve or reject
them — skills with SKILL.md, files, history, blame and any commit's diff,
usage over time, and curator runs with rollback. The page follows the
library as it changes.

The URL printed carries a token made at start; the page keeps it in a
cookie. Requests without it, from another origin, or under a host name
that is not loopback are refused. --by fills the approver's name (the
person may change it; Approved-By and Rejected-By record it).`,
		Example: `  skillrepo ui
  skillrepo ui --port 8123 --open --by "Ada <ada@example.com>"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Port < 0 || opts.Port > 65535 {
				return cmdutil.UsageErrorf("--port %d: want 0–65535", opts.Port)
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return uiRun(opts)
		},
	}
	cmd.Flags().IntVar(&opts.Port, "port", 0, "port on 127.0.0.1 (0: any free port)")
	cmd.Flags().BoolVar(&opts.Open, "open", false, "open the page in the default browser")
	cmd.Flags().StringVar(&opts.By, "by", "", `the approver the forms are filled with ("Name <email>")`)
	return cmd
}

func uiRun(opts *Options) error {
	f := opts.Factory
	lib, err := f.Library()
	if err != nil {
		return err
	}
	srv, err := webui.New(webui.Options{Root: lib.Root, Getenv: f.Getenv, Now: f.Now, By: opts.By})
	if err != nil {
		return err
	}
	ln, err := webui.Listen(opts.Port)
	if err != nil {
		return err
	}
	url := srv.URL(ln.Addr())
	fmt.Fprintf(f.IO.Out, "skillrepo ui for %s at\n  %s\n(interrupt to stop)\n", lib.Root, url)
	if opts.Open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(f.IO.ErrOut, "could not open a browser (%v); open the URL above\n", err)
		}
	}
	return srv.Serve(opts.Ctx, ln)
}

// openBrowser opens url in the person's default browser.
func openBrowser(url string) error {
	var c *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		c = exec.Command("open", url)
	case "windows":
		c = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		c = exec.Command("xdg-open", url)
	}
	if err := c.Start(); err != nil {
		return err
	}
	go func() { _ = c.Wait() }()
	return nil
}
