package memorycmd

import (
	"errors"
	"reflect"
	"testing"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
)

// TestNewCmdChange: add, replace and remove parse their arguments into
// one change and --target into a checked target, with a stub runF.
func TestNewCmdChange(t *testing.T) {
	tests := []struct {
		newCmd     func(*cmdutil.Factory, func(*ChangeOptions) error) *cobra.Command
		args       []string
		want       skillrepo.MemoryOptions
		wantTarget memory.Target
		wantW      cmdutil.WriteFlags
		usage      bool
		fails      bool
	}{
		{newCmd: NewCmdAdd, args: []string{"uses pnpm"}, want: skillrepo.MemoryOptions{Action: "add", Content: "uses pnpm"}, wantTarget: memory.Memory, wantW: cmdutil.WriteFlags{Origin: skillrepo.OriginUser}},
		{newCmd: NewCmdAdd, args: []string{"short answers", "--target", "user", "--propose"}, want: skillrepo.MemoryOptions{Action: "add", Content: "short answers"}, wantTarget: memory.User, wantW: cmdutil.WriteFlags{Origin: skillrepo.OriginUser, Propose: true}},
		{newCmd: NewCmdReplace, args: []string{"npm", "uses pnpm 9", "--dry-run"}, want: skillrepo.MemoryOptions{Action: "replace", OldText: "npm", Content: "uses pnpm 9"}, wantTarget: memory.Memory, wantW: cmdutil.WriteFlags{Origin: skillrepo.OriginUser, DryRun: true}},
		{newCmd: NewCmdRemove, args: []string{"Buildkite", "--origin", "foreground"}, want: skillrepo.MemoryOptions{Action: "remove", OldText: "Buildkite"}, wantTarget: memory.Memory, wantW: cmdutil.WriteFlags{Origin: "foreground"}},
		{newCmd: NewCmdAdd, args: []string{"x", "--target", "soul"}, usage: true},
		{newCmd: NewCmdAdd, args: []string{"x", "--origin", "robot"}, usage: true},
		{newCmd: NewCmdRemove, args: []string{"x", "--origin", "foreground", "--force"}, usage: true},
		{newCmd: NewCmdReplace, args: []string{"only-old"}, fails: true},
	}
	for _, tt := range tests {
		var got *ChangeOptions
		err := cmdtest.Parse(tt.newCmd(cmdtest.Factory(), func(o *ChangeOptions) error { got = o; return nil }), tt.args...)
		var fe *cmdutil.FlagError
		switch {
		case tt.usage:
			if !errors.As(err, &fe) || got != nil {
				t.Errorf("%q: error %v, ran %v; want a usage error and no run", tt.args, err, got != nil)
			}
		case tt.fails:
			if err == nil || got != nil {
				t.Errorf("%q: error %v, ran %v; want an error and no run", tt.args, err, got != nil)
			}
		case err != nil:
			t.Errorf("%q: %v", tt.args, err)
		case !reflect.DeepEqual(got.Change, tt.want) || got.Target != tt.wantTarget || got.W != tt.wantW:
			t.Errorf("%q: got change %+v target %q flags %+v; want %+v %q %+v", tt.args, got.Change, got.Target, got.W, tt.want, tt.wantTarget, tt.wantW)
		}
	}
}

func TestNewCmdShow(t *testing.T) {
	var got *ShowOptions
	if err := cmdtest.Parse(NewCmdShow(cmdtest.Factory(), func(o *ShowOptions) error { got = o; return nil }), "--target", "user"); err != nil || got.Target != memory.User {
		t.Fatalf("show --target user: err %v, options %+v", err, got)
	}
	var fe *cmdutil.FlagError
	if err := cmdtest.Parse(NewCmdShow(cmdtest.Factory(), func(*ShowOptions) error { t.Fatal("ran"); return nil }), "--target", "x"); !errors.As(err, &fe) {
		t.Fatalf("show --target x: %v, want a usage error", err)
	}
}
