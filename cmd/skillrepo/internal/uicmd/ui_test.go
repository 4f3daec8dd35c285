package uicmd

import (
	"bytes"
	"errors"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// TestNewCmdUI parses ui's flags with a stub runF; a port out of range is
// a usage error before anything listens.
func TestNewCmdUI(t *testing.T) {
	f := &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	for _, tt := range []struct {
		args  []string
		port  int
		open  bool
		by    string
		usage bool
	}{
		{args: nil},
		{args: []string{"--port", "8123", "--open", "--by", "Ada <ada@example.com>"}, port: 8123, open: true, by: "Ada <ada@example.com>"},
		{args: []string{"--port", "70000"}, usage: true},
	} {
		var got *Options
		cmd := NewCmdUI(f, func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.Execute()
		var fe *cmdutil.FlagError
		switch {
		case tt.usage:
			if !errors.As(err, &fe) || got != nil {
				t.Errorf("%q: error %v, ran %v; want a usage error and no run", tt.args, err, got != nil)
			}
		case err != nil:
			t.Errorf("%q: %v", tt.args, err)
		case got.Port != tt.port || got.Open != tt.open || got.By != tt.by:
			t.Errorf("%q: got %+v", tt.args, got)
		}
	}
}
