package whatsnewcmd

import (
	"bytes"
	"errors"
	"testing"
	"time"

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
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	f.Now = func() time.Time { return now }
	if got, err := run("--since", "3d"); err != nil || got.Since != "3d" || !got.since.Equal(now.Add(-72*time.Hour)) {
		t.Errorf("--since 3d: err %v, options %+v", err, got)
	}
	// --since is checked when the flags are parsed, before the library opens.
	var fe *cmdutil.FlagError
	if got, err := run("--since", "yesterday"); !errors.As(err, &fe) || got != nil {
		t.Errorf("--since yesterday: err %v, ran %v; want a usage error and no run", err, got != nil)
	}
	if got, err := run("yesterday"); err == nil || got != nil {
		t.Errorf("an argument: err %v, ran %v", err, got != nil)
	}
}
