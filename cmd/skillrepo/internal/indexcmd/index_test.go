package indexcmd

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/promptindex"
)

// TestNewCmdIndex parses index's flags with a stub runF: --json is the
// json format; a bad format, state or budget is a usage error, no run.
func TestNewCmdIndex(t *testing.T) {
	tests := []struct {
		args  []string
		json  bool
		want  Options
		usage bool
	}{
		{args: nil, want: Options{Format: promptindex.XML}},
		{args: []string{"--format", "hermes", "--state", "active,stale", "--budget", "8000", "--rev", "main"}, want: Options{Format: promptindex.Hermes, States: []string{"active", "stale"}, Budget: 8000, Rev: "main"}},
		{args: nil, json: true, want: Options{Format: promptindex.JSON}},
		{args: []string{"--format", "yaml"}, usage: true},
		{args: []string{"--state", "archived"}, usage: true},
		{args: []string{"--budget", "-1"}, usage: true},
	}
	for _, tt := range tests {
		f := &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, JSON: tt.json}
		var got *Options
		cmd := NewCmdIndex(f, func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.Execute()
		if tt.usage {
			var fe *cmdutil.FlagError
			if !errors.As(err, &fe) || got != nil {
				t.Errorf("%q: error %v, ran %v; want a usage error and no run", tt.args, err, got != nil)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		got.Factory = nil
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.args, *got, tt.want)
		}
	}
}
