package queuecmd

import (
	"bytes"
	"testing"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

func parse(cmd *cobra.Command, args ...string) error {
	var out bytes.Buffer
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.Execute()
}

func testFactory() *cmdutil.Factory {
	return &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
}

// TestNewCmds: each verb parses its arguments and flags into its options
// (a stub runF records them), and refuses the wrong number of arguments
// without running.
func TestNewCmds(t *testing.T) {
	var list *ListOptions
	if err := parse(NewCmdList(testFactory(), func(o *ListOptions) error { list = o; return nil }), "--state", "failed"); err != nil || list.State != "failed" {
		t.Errorf("list --state failed: err %v, options %+v", err, list)
	}
	var show *ShowOptions
	if err := parse(NewCmdShow(testFactory(), func(o *ShowOptions) error { show = o; return nil }), "q-1"); err != nil || show.ID != "q-1" {
		t.Errorf("show q-1: err %v, options %+v", err, show)
	}
	var retry *RetryOptions
	if err := parse(NewCmdRetry(testFactory(), func(o *RetryOptions) error { retry = o; return nil }), "q-2"); err != nil || retry.ID != "q-2" {
		t.Errorf("retry q-2: err %v, options %+v", err, retry)
	}
	var drop *DropOptions
	if err := parse(NewCmdDrop(testFactory(), func(o *DropOptions) error { drop = o; return nil }), "q-3", "--force"); err != nil || drop.ID != "q-3" || !drop.Force {
		t.Errorf("drop q-3 --force: err %v, options %+v", err, drop)
	}
	for name, cmd := range map[string]*cobra.Command{
		"list x": NewCmdList(testFactory(), func(*ListOptions) error { t.Error("list ran"); return nil }),
		"show":   NewCmdShow(testFactory(), func(*ShowOptions) error { t.Error("show ran"); return nil }),
		"retry":  NewCmdRetry(testFactory(), func(*RetryOptions) error { t.Error("retry ran"); return nil }),
		"drop":   NewCmdDrop(testFactory(), func(*DropOptions) error { t.Error("drop ran"); return nil }),
	} {
		args := []string{}
		if name == "list x" {
			args = []string{"x"}
		}
		if err := parse(cmd, args...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
