package usagecmd

import (
	"errors"
	"reflect"
	"testing"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/skillrepo"
)

func TestNewCmdShow(t *testing.T) {
	tests := []struct {
		args  []string
		want  ShowOptions
		usage bool
	}{
		{args: nil, want: ShowOptions{Limit: 100}},
		{args: []string{"git-bisect", "--history", "--limit", "0"}, want: ShowOptions{Names: []string{"git-bisect"}, History: true}},
		{args: []string{"--raw"}, want: ShowOptions{Raw: true, Limit: 100}},
		{args: []string{"--raw", "--history"}, usage: true},
		{args: []string{"--history", "--limit", "-2"}, usage: true},
	}
	for _, tt := range tests {
		var got *ShowOptions
		err := cmdtest.Parse(NewCmdShow(cmdtest.Factory(), func(o *ShowOptions) error { got = o; return nil }), tt.args...)
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
		if len(got.Names) == 0 {
			got.Names = nil
		}
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("%q: got %+v, want %+v", tt.args, *got, tt.want)
		}
	}
}

func TestNewCmdBump(t *testing.T) {
	tests := []struct {
		args  []string
		kind  skillrepo.UseKind
		dry   bool
		usage bool
	}{
		{args: []string{"x", "--use"}, kind: skillrepo.UseUse},
		{args: []string{"x", "--view", "--dry-run"}, kind: skillrepo.UseView, dry: true},
		{args: []string{"x"}, usage: true},
		{args: []string{"x", "--view", "--use"}, usage: true},
	}
	for _, tt := range tests {
		var got *BumpOptions
		err := cmdtest.Parse(NewCmdBump(cmdtest.Factory(), func(o *BumpOptions) error { got = o; return nil }), tt.args...)
		if tt.usage {
			var fe *cmdutil.FlagError
			if !errors.As(err, &fe) || got != nil {
				t.Errorf("%q: error %v, ran %v; want a usage error and no run", tt.args, err, got != nil)
			}
			continue
		}
		if err != nil || got.Name != "x" || got.Kind != tt.kind || got.DryRun != tt.dry {
			t.Errorf("%q: err %v, options %+v; want x, %s, dry run %v", tt.args, err, got, tt.kind, tt.dry)
		}
	}
}
