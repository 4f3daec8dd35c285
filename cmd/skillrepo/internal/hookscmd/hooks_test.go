package hookscmd

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// parse runs cmd on args with its run function stubbed, so flag parsing
// is tested without a library or an agent's settings.
func parse(cmd *cobra.Command, args string) error {
	var out bytes.Buffer
	cmd.SetArgs(strings.Fields(args))
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.Execute()
}

func isUsage(err error) bool {
	var fe *cmdutil.FlagError
	return errors.As(err, &fe)
}

func TestNewCmdInstall(t *testing.T) {
	tests := []struct {
		args  string
		check func(*InstallOptions) bool
		usage bool // a usage error, and runF not called
	}{
		{args: "", check: func(o *InstallOptions) bool { return !o.Git && o.agentCount() == 0 && o.Scope == "user" }},
		{args: "--git --dry-run", check: func(o *InstallOptions) bool { return o.Git && o.DryRun }},
		{args: "--claude-code --scope project --project app --library lib", check: func(o *InstallOptions) bool {
			return o.agent() == agent.ClaudeCode && o.Scope == "project" && o.Project == "app" && o.Library == "lib"
		}},
		{args: "--codex --trust", check: func(o *InstallOptions) bool { return o.agent() == agent.Codex && o.Trust }},
		{args: "--hermes --accept --hermes-home h", check: func(o *InstallOptions) bool {
			return o.Hermes.Hermes && o.Hermes.Accept && o.Hermes.Home == "h"
		}},
		// Hermes has no scope: a bad one is not its error.
		{args: "--hermes --scope nowhere", check: func(o *InstallOptions) bool { return o.Hermes.Hermes }},
		{args: "--claude-code --scope nowhere", usage: true},
		{args: "--opencode --trust", usage: true},
		{args: "--git --codex", usage: true},
		{args: "--codex --gemini", usage: true},
		{args: "--hermes --git", usage: true},
		{args: "extra", usage: true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var got *InstallOptions
			err := parse(NewCmdInstall(cmdtest.Factory(), func(o *InstallOptions) error { got = o; return nil }), tt.args)
			if tt.usage {
				if err == nil || got != nil {
					t.Fatalf("err %v, ran %v: want a usage error and no run", err, got != nil)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(got) {
				t.Errorf("options %+v", got)
			}
		})
	}
}

func TestNewCmdUninstall(t *testing.T) {
	tests := []struct {
		args  string
		check func(*UninstallOptions) bool
		usage bool
	}{
		{args: "--gemini --scope local --dry-run", check: func(o *UninstallOptions) bool {
			return o.agent() == agent.Gemini && o.Scope == "local" && o.DryRun
		}},
		{args: "--hermes", check: func(o *UninstallOptions) bool { return o.Hermes.Hermes && o.agentCount() == 0 }},
		{args: "", usage: true},
		{args: "--codex --claude-code", usage: true},
		{args: "--hermes --codex", usage: true},
		{args: "--codex --scope team", usage: true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var got *UninstallOptions
			err := parse(NewCmdUninstall(cmdtest.Factory(), func(o *UninstallOptions) error { got = o; return nil }), tt.args)
			if tt.usage {
				if !isUsage(err) || got != nil {
					t.Fatalf("err %v, ran %v: want a usage error and no run", err, got != nil)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(got) {
				t.Errorf("options %+v", got)
			}
		})
	}
}

func TestNewCmdRun(t *testing.T) {
	tests := []struct {
		args  string
		want  RunOptions
		usage bool
	}{
		{args: "pre-commit", want: RunOptions{Event: "pre-commit", Format: "text"}},
		{args: "pre-commit --profile hermes --strict --format json", want: RunOptions{Event: "pre-commit", Profile: "hermes", Strict: true, Format: "json"}},
		// An agent's event is never a usage error: the hook exits 0.
		{args: "claude-code SessionStart --library lib", want: RunOptions{Agent: "claude-code", Event: "SessionStart", Library: "lib", Format: "text"}},
		{args: "nobody Nothing", want: RunOptions{Agent: "nobody", Event: "Nothing", Format: "text"}},
		{args: "post-commit", usage: true},
		{args: "pre-commit --format xml", usage: true},
		{args: "pre-commit --profile nobody", usage: true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var got *RunOptions
			err := parse(NewCmdRun(cmdtest.Factory(), func(o *RunOptions) error { got = o; return nil }), tt.args)
			if tt.usage {
				if !isUsage(err) || got != nil {
					t.Fatalf("err %v, ran %v: want a usage error and no run", err, got != nil)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.Factory, got.Ctx, got.format = nil, nil, ""
			if *got != tt.want {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}
