package workercmd

import (
	"bytes"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// TestNewCmdWorker parses worker's flags with a stub runF; an argument is
// refused without running.
func TestNewCmdWorker(t *testing.T) {
	f := &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	run := func(args ...string) (*Options, error) {
		var got *Options
		cmd := NewCmdWorker(f, func(o *Options) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		return got, cmd.Execute()
	}
	if got, err := run("--once", "--verbose"); err != nil || !got.Once || !got.Verbose {
		t.Errorf("--once --verbose: err %v, options %+v", err, got)
	}
	if got, err := run("now"); err == nil || got != nil {
		t.Errorf("an argument: err %v, ran %v", err, got != nil)
	}
}
