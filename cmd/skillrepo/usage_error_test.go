package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// TestUsageErrorsAreTyped: every misuse cobra finds arrives as a
// *cmdutil.FlagError (exit 2) from where it arose, whatever its message says; a
// command's own failure does not, even when its message reads like one
// ("invalid argument" is also EINVAL's text).
func TestUsageErrorsAreTyped(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-library")
	tests := []struct {
		name  string
		args  []string
		usage bool
	}{
		{"unknown flag", []string{"skill", "list", "--nope"}, true},
		{"unknown shorthand", []string{"skill", "list", "-Z"}, true},
		{"flag needs an argument", []string{"skill", "list", "-C"}, true},
		{"invalid flag value", []string{"skill", "list", "--json=maybe"}, true},
		{"too few arguments", []string{"skill", "view"}, true},
		{"too many arguments", []string{"skill", "archive", "a", "b"}, true},
		{"no arguments taken", []string{"mcp", "install", "--claude-code", "extra"}, true},
		{"flags that exclude each other", []string{"init", "--example", "--dry-run"}, true},
		{"one of a group required", []string{"mcp", "install"}, true},
		{"unknown command", []string{"frobnicate"}, true},
		{"unknown subcommand", []string{"skill", "frobnicate"}, true},
		{"unknown help topic", []string{"help", "frobnicate"}, true},
		{"a command's own failure", []string{"-C", missing, "skill", "list"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			f := &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &out, ErrOut: &errOut}, Getenv: func(string) string { return "" }, Now: time.Now}
			defer f.Close()
			root := newRootCmd(f)
			finishCommandTree(f, root, tt.args)
			root.SetArgs(tt.args)
			root.SetOut(&out)
			root.SetErr(&errOut)
			err := root.ExecuteContext(context.Background())
			if err == nil {
				t.Fatal("no error")
			}
			var fe *cmdutil.FlagError
			if errors.As(err, &fe) != tt.usage {
				t.Errorf("%v: a usage error (*cmdutil.FlagError) is %v, want %v", err, !tt.usage, tt.usage)
			}
			if code := cmdutil.ExitCodeFor(err); (code == cmdutil.ExitUsage) != tt.usage {
				t.Errorf("%v: exit %d", err, code)
			}
		})
	}
}
