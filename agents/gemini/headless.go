package gemini

import (
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/internal/procinfo"
)

// Gemini CLI puts no mark of a headless run in its hooks' payload or in
// the environment it gives them (docs/agents.md, "Stop"), so Headless
// applies Gemini CLI's own rule (isHeadlessMode, Gemini CLI 0.61) to
// what a hook can read: the environment of a CI job, else the command
// line and terminals of the Gemini CLI process the hook runs under.

// Headless: a CI job (CI=true or GITHUB_ACTIONS=true, unless
// GEMINI_CLI_INTEGRATION_TEST=true; under GitHub Actions Gemini CLI
// passes a hook only a few variables, GITHUB_ENV among them), or the
// Gemini CLI process above the hook was started with -p/--prompt or with
// a standard input or output that is no terminal (a pipe, cron's
// /dev/null), and not with -i/--prompt-interactive or --acp.
func (Agent) Headless(getenv func(string) string, _ string) (bool, string) {
	if getenv("GEMINI_CLI_INTEGRATION_TEST") != "true" {
		for _, v := range []string{"CI", "GITHUB_ACTIONS"} {
			if getenv(v) == "true" {
				return true, v + "=true"
			}
		}
		if getenv("GITHUB_ENV") != "" {
			return true, "GITHUB_ENV is set (GitHub Actions)"
		}
	}
	// The hook's parent is Gemini CLI (its command runs through bash -c,
	// which execs a single command), or the shell between; a relaunched
	// Gemini CLI is a child of its first process, with the same
	// arguments and terminals.
	for _, p := range procinfo.Ancestors(2) {
		args, ok := geminiArgs(p.Args)
		if !ok {
			continue
		}
		if how := headlessArgs(args); how != "" {
			return how != "interactive", how
		}
		if p.TerminalKnown && (!p.StdinTerminal || !p.StdoutTerminal) {
			return true, "gemini without a terminal"
		}
		return false, ""
	}
	return false, ""
}

// geminiArgs finds Gemini CLI's program in a command's words (its
// `gemini` launcher, or node running the script of its package) and
// returns the words after it.
func geminiArgs(words []string) ([]string, bool) {
	for i, w := range words {
		if filepath.Base(w) == "gemini" || strings.Contains(filepath.ToSlash(w), "/gemini-cli/") {
			return words[i+1:], true
		}
		// Only an interpreter or its options may come before the program.
		if i > 0 && !strings.HasPrefix(w, "-") {
			return nil, false
		}
	}
	return nil, false
}

// headlessArgs reads Gemini CLI's arguments: "gemini -p" for a prompt
// flag, "interactive" for a flag that keeps it interactive (which wins,
// as in Gemini CLI), "" for neither.
func headlessArgs(args []string) string {
	how := ""
	for _, a := range args {
		switch {
		case a == "-i" || a == "--prompt-interactive" || strings.HasPrefix(a, "--prompt-interactive=") || a == "--acp" || a == "--experimental-acp":
			return "interactive"
		case a == "-p" || a == "--prompt" || strings.HasPrefix(a, "--prompt="):
			how = "gemini " + strings.SplitN(a, "=", 2)[0]
		}
	}
	return how
}

// RunsUnattended: a crontab command that runs Gemini CLI headless, by
// its own rule: with -p/--prompt, or with anything but -i or --acp, since
// cron gives it no terminal.
func (Agent) RunsUnattended(words []string) bool {
	for i, w := range words {
		if filepath.Base(w) == "gemini" || strings.Contains(filepath.ToSlash(w), "/gemini-cli/") {
			return headlessArgs(words[i+1:]) != "interactive"
		}
	}
	return false
}
