package doctorcmd

import (
	"errors"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdtest"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

// TestNewCmdDoctor parses doctor's flags with a stub runF; an argument,
// an unknown agent or scope is refused without running.
func TestNewCmdDoctor(t *testing.T) {
	run := func(args ...string) (*Options, error) {
		var got *Options
		err := cmdtest.Parse(NewCmdDoctor(cmdtest.Factory(), func(o *Options) error { got = o; return nil }), args...)
		return got, err
	}
	got, err := run("--agent", "codex", "--scope", "project", "--project", "app", "--verbose", "--trust")
	if err != nil || got.Agent != agent.Codex || got.Scope != agent.ScopeProject || got.Project != "app" || !got.All || !got.Trust {
		t.Errorf("doctor flags: err %v, options %+v", err, got)
	}
	if got, err := run(); err != nil || got.Agent != "" || got.Scope != "" {
		t.Errorf("no flags: err %v, options %+v", err, got)
	}
	if got, err := run("codex"); err == nil || got != nil {
		t.Errorf("an argument: err %v, ran %v", err, got != nil)
	}
	for _, args := range [][]string{{"--agent", "emacs"}, {"--scope", "team"}} {
		got, err := run(args...)
		var fe *cmdutil.FlagError
		if !errors.As(err, &fe) || got != nil {
			t.Errorf("%q: err %v (%T), ran %v; want a usage error and no run", args, err, err, got != nil)
		}
	}
}
