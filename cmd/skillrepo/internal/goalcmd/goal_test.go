package goalcmd

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

func execute(cmd *cobra.Command, args ...string) error {
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.Execute()
}

// TestNewCmdSet parses goal set with a stub runF.
func TestNewCmdSet(t *testing.T) {
	var got *SetOptions
	err := execute(NewCmdSet(cmdtest.Factory(), func(o *SetOptions) error { got = o; return nil }),
		"tests pass", "--session", "s-1", "--max-turns", "40", "--contract", "c.yaml", "--subgoal", "a", "--subgoal", "b", "--dry-run")
	if err != nil {
		t.Fatal(err)
	}
	got.Factory = nil
	want := SetOptions{Text: "tests pass", Session: "s-1", MaxTurns: 40, Contract: "c.yaml", Subgoals: []string{"a", "b"}, DryRun: true}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("got %+v, want %+v", *got, want)
	}
	if err := execute(NewCmdSet(cmdtest.Factory(), func(*SetOptions) error { t.Error("ran"); return nil })); err == nil {
		t.Error("set without a goal: no error")
	}
	// A bad turn budget or session id is a usage error before the library
	// is opened.
	for _, args := range [][]string{{"g", "--max-turns", "-1"}, {"g", "--session", "../x"}} {
		err := execute(NewCmdSet(cmdtest.Factory(), func(*SetOptions) error { t.Errorf("%q ran", args); return nil }), args...)
		var fe *cmdutil.FlagError
		if !errors.As(err, &fe) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}

// TestNewCmdStatus: pause, resume and clear say which; --session given
// (even empty, the next session) is told from left out; only resume
// takes --max-turns.
func TestNewCmdStatus(t *testing.T) {
	for _, verb := range []string{"pause", "resume", "clear"} {
		var got *StatusOptions
		if err := execute(NewCmdStatus(cmdtest.Factory(), verb, func(o *StatusOptions) error { got = o; return nil }), "--session", ""); err != nil || got.Verb != verb || !got.HasSession || got.Session != "" {
			t.Errorf("%s --session '': err %v, options %+v", verb, err, got)
		}
		got = nil
		err := execute(NewCmdStatus(cmdtest.Factory(), verb, func(o *StatusOptions) error { got = o; return nil }), "--max-turns", "5")
		if verb == "resume" {
			if err != nil || got.MaxTurns != 5 || got.HasSession {
				t.Errorf("resume --max-turns 5: err %v, options %+v", err, got)
			}
		} else if err == nil || got != nil {
			t.Errorf("%s --max-turns: err %v, ran %v; want an unknown flag", verb, err, got != nil)
		}
	}
	var show *ShowOptions
	if err := execute(NewCmdShow(cmdtest.Factory(), func(o *ShowOptions) error { show = o; return nil }), "--session", "s-2"); err != nil || show.Session != "s-2" || !show.HasSession {
		t.Errorf("show --session s-2: err %v, options %+v", err, show)
	}
}
