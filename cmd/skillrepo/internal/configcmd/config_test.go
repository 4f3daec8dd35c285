package configcmd

import (
	"bytes"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// TestNewCmdAccept parses config accept with a stub runF; an argument is
// refused without running.
func TestNewCmdAccept(t *testing.T) {
	f := &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	run := func(args ...string) (*AcceptOptions, error) {
		var got *AcceptOptions
		cmd := NewCmdAccept(f, func(o *AcceptOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		return got, cmd.Execute()
	}
	if got, err := run("--dry-run"); err != nil || !got.DryRun {
		t.Errorf("--dry-run: err %v, options %+v", err, got)
	}
	if got, err := run("review.model"); err == nil || got != nil {
		t.Errorf("an argument: err %v, ran %v", err, got != nil)
	}
}
