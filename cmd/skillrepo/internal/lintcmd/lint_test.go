package lintcmd

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// TestNewCmdLint parses lint's flags with a stub runF: --json is the json
// format, and contradicts another --format (a usage error, no run).
func TestNewCmdLint(t *testing.T) {
	tests := []struct {
		args  []string
		json  bool
		want  Options
		usage bool
	}{
		{args: nil, want: Options{Format: "text"}},
		{args: []string{"skills/", "--profile", "hermes", "--strict", "--allow-empty"}, want: Options{Paths: []string{"skills/"}, Profile: "hermes", Format: "text", Strict: true, AllowEmpty: true}},
		{args: []string{"--format", "github", "--output", "sarif=lint.sarif", "--output", "json=lint.json"}, want: Options{Format: "github", Outputs: []string{"sarif=lint.sarif", "json=lint.json"}}},
		{args: nil, json: true, want: Options{Format: "json"}},
		{args: []string{"--list-rules"}, json: true, want: Options{Format: "text", ListRules: true}},
		{args: []string{"--format", "sarif"}, json: true, usage: true},
		// Checked when the flags are parsed, before any folder is read.
		{args: []string{"--format", "xml"}, usage: true},
		{args: []string{"--output", "lint.sarif"}, usage: true},
		{args: []string{"--output", "xml=lint.xml"}, usage: true},
		{args: []string{"--profile", "emacs"}, usage: true},
	}
	for _, tt := range tests {
		f := &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, JSON: tt.json}
		var got *Options
		cmd := NewCmdLint(f, func(o *Options) error { got = o; return nil })
		var out bytes.Buffer
		cmd.SetArgs(tt.args)
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.Execute()
		if tt.usage {
			var fe *cmdutil.FlagError
			if !errors.As(err, &fe) || got != nil {
				t.Errorf("%q (json %v): error %v, ran %v; want a usage error and no run", tt.args, tt.json, err, got != nil)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		got.Factory, got.format, got.outputs = nil, "", nil
		if len(got.Paths) == 0 {
			got.Paths = nil
		}
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("%q (json %v):\n got %+v\nwant %+v", tt.args, tt.json, *got, tt.want)
		}
	}
}
