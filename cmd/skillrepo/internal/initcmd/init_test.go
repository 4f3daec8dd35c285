package initcmd

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
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
			f := cmdtest.Factory()
			f.Dir = "lib-of-C"
			var got *Options
			err := cmdtest.Parse(NewCmdInit(f, func(o *Options) error { got = o; return nil }), strings.Fields(tt.args)...)
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
