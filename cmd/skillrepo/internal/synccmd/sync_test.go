package synccmd

import (
	"bytes"
	"errors"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// TestNewCmdSync parses sync's flags with a stub runF; an unknown
// --origin is a usage error before anything is read.
func TestNewCmdSync(t *testing.T) {
	f := &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	run := func(args ...string) (*Options, error) {
		var got *Options
		cmd := NewCmdSync(f, func(o *Options) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		return got, cmd.Execute()
	}
	got, err := run("--origin", "foreground", "-m", "tune", "--dry-run", "--leave-staged", "--hook-log", "claude-code")
	if err != nil || got.Origin != "foreground" || got.Message != "tune" || !got.DryRun || !got.LeaveStaged || got.HookLog != "claude-code" {
		t.Errorf("sync flags: err %v, options %+v", err, got)
	}
	var fe *cmdutil.FlagError
	if got, err := run("--origin", "robot"); !errors.As(err, &fe) || got != nil {
		t.Errorf("--origin robot: err %v, ran %v; want a usage error and no run", err, got != nil)
	}
	if got, err := run("extra"); err == nil || got != nil {
		t.Errorf("an argument: err %v, ran %v", err, got != nil)
	}
}
