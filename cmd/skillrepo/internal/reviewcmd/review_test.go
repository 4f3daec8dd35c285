package reviewcmd

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// TestNewCmdReview parses review's arguments and flags with a stub runF:
// a transcript or --session names the conversation, not both with
// --session current (usage errors, no run).
func TestNewCmdReview(t *testing.T) {
	f := &cmdutil.Factory{IO: &cmdutil.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	tests := []struct {
		args  []string
		check func(*Options) bool
		usage bool
	}{
		{args: []string{"chat.json", "--model", "m", "--focus", "deploy", "--dry-run"}, check: func(o *Options) bool {
			return o.Transcript == "chat.json" && o.Model == "m" && o.Focus == "deploy" && o.DryRun && o.Format == "auto" && o.Timeout == 5*time.Minute
		}},
		{args: []string{"--session", "current"}, check: func(o *Options) bool { return o.Session == "current" && o.Transcript == "" }},
		{args: []string{"s.jsonl", "--session", "3f2a", "--if-due", "--max-calls", "3"}, check: func(o *Options) bool {
			return o.Transcript == "s.jsonl" && o.Session == "3f2a" && o.IfDue && o.MaxCalls == 3
		}},
		{args: []string{"chat.json", "--session", "current"}, usage: true},
		{args: nil, usage: true},
		// Checked when the flags are parsed, before the library opens.
		{args: []string{"chat.json", "--format", "irc"}, usage: true},
		{args: []string{"s.jsonl", "--session", "3f2a", "--if-due", "--focus", "deploy"}, usage: true},
	}
	for _, tt := range tests {
		var got *Options
		cmd := NewCmdReview(f, func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.Execute()
		var fe *cmdutil.FlagError
		switch {
		case tt.usage:
			if !errors.As(err, &fe) || got != nil {
				t.Errorf("%q: error %v, ran %v; want a usage error and no run", tt.args, err, got != nil)
			}
		case err != nil:
			t.Errorf("%q: %v", tt.args, err)
		case !tt.check(got):
			t.Errorf("%q: options %+v", tt.args, got)
		}
	}
}
