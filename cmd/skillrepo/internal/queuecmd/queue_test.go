package queuecmd

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
)

// TestNewCmds: each verb parses its arguments and flags into its options
// (a stub runF records them), and refuses the wrong number of arguments
// without running.
func TestNewCmds(t *testing.T) {
	var list *ListOptions
	if err := cmdtest.Parse(NewCmdList(cmdtest.Factory(), func(o *ListOptions) error { list = o; return nil }), "--state", "failed"); err != nil || list.State != "failed" {
		t.Errorf("list --state failed: err %v, options %+v", err, list)
	}
	var show *ShowOptions
	if err := cmdtest.Parse(NewCmdShow(cmdtest.Factory(), func(o *ShowOptions) error { show = o; return nil }), "q-1"); err != nil || show.ID != "q-1" {
		t.Errorf("show q-1: err %v, options %+v", err, show)
	}
	var retry *RetryOptions
	if err := cmdtest.Parse(NewCmdRetry(cmdtest.Factory(), func(o *RetryOptions) error { retry = o; return nil }), "q-2"); err != nil || retry.ID != "q-2" {
		t.Errorf("retry q-2: err %v, options %+v", err, retry)
	}
	var drop *DropOptions
	if err := cmdtest.Parse(NewCmdDrop(cmdtest.Factory(), func(o *DropOptions) error { drop = o; return nil }), "q-3", "--force"); err != nil || drop.ID != "q-3" || !drop.Force {
		t.Errorf("drop q-3 --force: err %v, options %+v", err, drop)
	}
	for name, cmd := range map[string]*cobra.Command{
		"list x": NewCmdList(cmdtest.Factory(), func(*ListOptions) error { t.Error("list ran"); return nil }),
		"show":   NewCmdShow(cmdtest.Factory(), func(*ShowOptions) error { t.Error("show ran"); return nil }),
		"retry":  NewCmdRetry(cmdtest.Factory(), func(*RetryOptions) error { t.Error("retry ran"); return nil }),
		"drop":   NewCmdDrop(cmdtest.Factory(), func(*DropOptions) error { t.Error("drop ran"); return nil }),
	} {
		args := []string{}
		if name == "list x" {
			args = []string{"x"}
		}
		if err := cmdtest.Parse(cmd, args...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
