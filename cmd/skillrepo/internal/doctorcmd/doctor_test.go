package doctorcmd

import (
	"bytes"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// TestNewCmdDoctor parses doctor's flags with a stub runF; an argument is
// refused without running.
func TestNewCmdDoctor(t *testing.T) {
	f := &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	run := func(args ...string) (*Options, error) {
		var got *Options
		cmd := NewCmdDoctor(f, func(o *Options) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		return got, cmd.Execute()
	}
	got, err := run("--agent", "codex", "--scope", "project", "--project", "app", "--verbose", "--trust")
	if err != nil || got.Agent != "codex" || got.Scope != "project" || got.Project != "app" || !got.All || !got.Trust {
		t.Errorf("doctor flags: err %v, options %+v", err, got)
	}
	if got, err := run("codex"); err == nil || got != nil {
		t.Errorf("an argument: err %v, ran %v", err, got != nil)
	}
}
