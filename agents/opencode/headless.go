package opencode

import (
	"path/filepath"
	"slices"

	"github.com/skillrepo/skillrepo/internal/procinfo"
)

// OpenCode's plugin events do not say whether a person is there, so a
// headless run is told by the OpenCode process the hook runs under (the
// plugin spawns the hook command from it): `opencode run`, its one-shot
// mode, is the reference's scheduled job, not reviewed by default
// (docs/reference-behaviour.md §1.5).

// Headless: the hook's parent, or the process above it, is `opencode run`.
func (Agent) Headless(_ func(string) string, _ string) (bool, string) {
	for _, p := range procinfo.Ancestors(2) {
		if args, ok := opencodeArgs(p.Args); ok {
			return runs(args), "opencode run"
		}
	}
	return false, ""
}

// RunsUnattended: a crontab command that runs `opencode run`.
func (Agent) RunsUnattended(words []string) bool {
	args, ok := opencodeArgs(words)
	return ok && runs(args)
}

// opencodeArgs finds OpenCode's program in a command's words (its
// launcher or its native binary, both named opencode) and returns the
// words after it.
func opencodeArgs(words []string) ([]string, bool) {
	for i, w := range words {
		if filepath.Base(w) == "opencode" {
			return words[i+1:], true
		}
	}
	return nil, false
}

// runs says whether OpenCode's arguments hold its run subcommand (an
// option's value may stand before it: `opencode --log-level INFO run`).
func runs(args []string) bool { return slices.Contains(args, "run") }
