package initcmd

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// TestNewCmdInit parses init's flags and folder with a stub runF: no
// folder is touched.
func TestNewCmdInit(t *testing.T) {
	tests := []struct {
		args  string
		want  Options
		usage bool // a usage error, and runF not called
	}{
		{args: "", want: Options{Dir: "lib-of-C"}},
		{args: "skills --dry-run --own-repo --adopt", want: Options{Dir: "skills", DryRun: true, OwnRepo: true, Adopt: true}},
		{args: "skills --example --runtime hermes", want: Options{Dir: "skills", Example: true, Runtime: skill.Hermes}},
		{args: "skills --runtime emacs", usage: true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			f := &cmdutil.Factory{Dir: "lib-of-C", IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
			var got *Options
			cmd := NewCmdInit(f, func(o *Options) error { got = o; return nil })
			cmd.SetArgs(strings.Fields(tt.args))
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			err := cmd.Execute()
			if tt.usage {
				var fe *cmdutil.FlagError
				if !errors.As(err, &fe) || got != nil {
					t.Fatalf("err %v, ran %v: want a usage error and no run", err, got != nil)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.Factory, got.Ctx = nil, nil
			if *got != tt.want {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}
