package whatsnewcmd

import (
	"bytes"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// TestNewCmdWhatsnew parses --since with a stub runF; an argument is
// refused without running.
func TestNewCmdWhatsnew(t *testing.T) {
	f := &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	run := func(args ...string) (*Options, error) {
		var got *Options
		cmd := NewCmdWhatsnew(f, func(o *Options) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		return got, cmd.Execute()
	}
	if got, err := run("--since", "3d"); err != nil || got.Since != "3d" {
		t.Errorf("--since 3d: err %v, options %+v", err, got)
	}
	if got, err := run("yesterday"); err == nil || got != nil {
		t.Errorf("an argument: err %v, ran %v", err, got != nil)
	}
}
