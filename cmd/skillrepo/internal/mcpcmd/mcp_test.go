package mcpcmd

import (
	"bytes"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
)

func execute(cmd *cobra.Command, args ...string) error {
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.Execute()
}

// TestNewCmdMCP parses the server's flags with a stub runF.
func TestNewCmdMCP(t *testing.T) {
	var got *ServeOptions
	err := execute(NewCmdMCP(cmdtest.Factory(), func(o *ServeOptions) error { got = o; return nil }),
		"--library", "lib", "--origin", "user", "--propose", "--allow-approve", "--session-id", "s-1", "--poll", "0")
	if err != nil || got.Library != "lib" || got.Origin != "user" || !got.Propose || !got.AllowApprove || got.SessionID != "s-1" || got.Poll != 0 {
		t.Fatalf("err %v, options %+v", err, got)
	}
	got = nil
	if err := execute(NewCmdMCP(cmdtest.Factory(), func(o *ServeOptions) error { got = o; return nil })); err != nil || got.Poll != time.Second || got.Origin != "foreground" {
		t.Fatalf("defaults: err %v, options %+v", err, got)
	}
}

// TestNewCmdInstall: one client exactly (cobra's flag groups), the rest
// parsed into InstallOptions; uninstall says so.
func TestNewCmdInstall(t *testing.T) {
	var got *InstallOptions
	err := execute(NewCmdInstall(cmdtest.Factory(), func(o *InstallOptions) error { got = o; return nil }),
		"--claude-code", "--scope", "project", "--project", "app", "--allow-tools", "--propose", "--dry-run")
	if err != nil || !got.ClaudeCode || got.Codex || got.Scope != "project" || got.Project != "app" || !got.AllowTools || !got.Propose || !got.DryRun || got.Uninstall {
		t.Fatalf("install: err %v, options %+v", err, got)
	}
	for _, args := range [][]string{nil, {"--codex", "--cursor"}} {
		got = nil
		if err := execute(NewCmdInstall(cmdtest.Factory(), func(o *InstallOptions) error { got = o; return nil }), args...); err == nil || got != nil {
			t.Errorf("install %q: err %v, ran %v; want an error and no run", args, err, got != nil)
		}
	}
	got = nil
	if err := execute(NewCmdUninstall(cmdtest.Factory(), func(o *InstallOptions) error { got = o; return nil }), "--codex"); err != nil || !got.Uninstall || !got.Codex {
		t.Fatalf("uninstall --codex: err %v, options %+v", err, got)
	}
}
