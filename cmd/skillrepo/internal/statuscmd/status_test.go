package statuscmd

import (
	"bytes"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// TestNewCmdStatus: status takes no argument; with none it runs (a stub
// runF), with one it is refused without running.
func TestNewCmdStatus(t *testing.T) {
	f := &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	run := func(args ...string) (*Options, error) {
		var got *Options
		cmd := NewCmdStatus(f, func(o *Options) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		return got, cmd.Execute()
	}
	if got, err := run(); err != nil || got == nil || got.Factory != f {
		t.Errorf("status: err %v, options %+v", err, got)
	}
	if got, err := run("now"); err == nil || got != nil {
		t.Errorf("an argument: err %v, ran %v", err, got != nil)
	}
}
