// Package doctorcmd is `skillrepo doctor`, which checks that each agent
// set up for skillrepo will run it: Options, NewCmdDoctor that only
// parses flags into it (handed a runF, a test checks the parse without an
// agent) and doctorRun (docs/architecture.md §6). The checks an install
// runs after writing are cmdutil's (CheckAfterInstall), shared with the
// hooks and mcp installs.
package doctorcmd

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/doctor"
)

// Options is what `doctor` was asked.
type Options struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	// Agent and Scope narrow the checks to one agent, one scope ("":
	// every one), checked when the flags are parsed.
	Agent   agent.Name
	Scope   agent.Scope
	Project string
	All     bool
	Trust   bool
}

// NewCmdDoctor is `doctor`; runF, when not nil, runs instead of doctorRun.
func NewCmdDoctor(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	var name, scope string
	cmd := &cobra.Command{
		Use:   "doctor [--agent claude-code|codex|gemini|hermes] [--scope user|project|local] [--json]",
		Short: "Check that every agent set up for skillrepo will really run it",
		Long: `For each agent whose hooks or MCP server skillrepo installed (Claude Code,
Codex, Gemini CLI; the user's settings and the project of the current folder),
run every installed command exactly as the agent would, with a synthetic
event, and check what silently breaks a set-up: the file the agent really
reads (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, project or user
scope), Codex's hook trust and project trust, Claude Code's tool
permissions, Gemini CLI's folder trust and disabled hooks, Hermes Agent's
consent to its shell hooks (~/.hermes/config.yaml), that the binary a
command names exists, that the library opens, and that reviews have a model
(an endpoint that answers, or the agent's own program).

A project's own settings files (.claude/settings.json, .codex/hooks.json,
.gemini/settings.json, .mcp.json) came with its files: their commands are
not run until you trust them — with --trust, which records each file's
present content in ~/.config/skillrepo/trusted-projects.json (a file that
changes is untrusted again); 'hooks install' and 'mcp install' trust the
file they write.

Each problem is one line, with its fix. The exit status is 1 when there is
a problem, 0 otherwise (warnings and ok lines are there to read). With
--json, one document: docs/json.md.`,
		Example: `  skillrepo doctor
  skillrepo doctor --agent codex --json
  skillrepo doctor --trust`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if name != "" {
				a, err := agents.Parse(name)
				if err != nil {
					return cmdutil.UsageErrorf("--agent: %v", err)
				}
				opts.Agent = a
			}
			switch opts.Scope = agent.Scope(scope); opts.Scope {
			case "", agent.ScopeUser, agent.ScopeProject, agent.ScopeLocal:
			default:
				return cmdutil.UsageErrorf("--scope: want user, project or local, not %q", scope)
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return doctorRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&name, "agent", "", "check one agent: claude-code, codex, gemini or hermes")
	fl.StringVar(&scope, "scope", "", "check one scope: user, project or local")
	fl.StringVar(&opts.Project, "project", "", "the project `folder` whose settings are checked and where the synthetic sessions run (default: the current folder)")
	fl.BoolVar(&opts.All, "verbose", false, "list the checks that passed too")
	fl.BoolVar(&opts.Trust, "trust", false, "trust the project's agent settings files as they are now, so their hook commands and MCP server run (read them first: they came with the project)")
	return cmd
}

func doctorRun(opts *Options) error {
	f := opts.Factory
	env, err := cmdutil.DoctorEnv(f, opts.Agent, opts.Scope, opts.Project)
	if err != nil {
		return err
	}
	env.Trust = opts.Trust
	rep := doctor.Run(opts.Ctx, env)
	if f.JSON {
		if err := cmdutil.PrintJSON(f.IO.Out, doctorJSON{Report: rep, Problems: rep.Problems(), Warnings: rep.Warnings()}); err != nil {
			return err
		}
	} else {
		printDoctor(f, f.IO.Out, rep, opts.All)
	}
	if rep.Problems() > 0 {
		return &cmdutil.SilentError{Code: cmdutil.ExitFailure}
	}
	return nil
}

type doctorJSON struct {
	*doctor.Report
	Problems int `json:"problems"`
	Warnings int `json:"warnings"`
}

// printDoctor writes a report: per agent, a line per problem and warning
// (✗, !) with its fix under it; passed checks with verbose.
func printDoctor(f *cmdutil.Factory, w io.Writer, rep *doctor.Report, verbose bool) {
	if len(rep.Agents) == 0 {
		fmt.Fprintln(w, "no agent is set up for skillrepo here: skillrepo hooks install --claude-code (or --codex, --gemini)")
		return
	}
	for _, a := range rep.Agents {
		ag, _ := agents.Parse(a)
		fs := rep.For(ag, "")
		problems, warnings := 0, 0
		for _, fd := range fs {
			switch fd.Level {
			case doctor.Problem:
				problems++
			case doctor.Warning:
				warnings++
			}
		}
		verdict := f.IO.Green("ok")
		switch {
		case problems > 0:
			verdict = f.IO.Red(fmt.Sprintf("%d %s", problems, cmdutil.Plural(problems, "problem", "problems")))
		case warnings > 0:
			verdict = f.IO.Yellow(fmt.Sprintf("ok, %d %s", warnings, cmdutil.Plural(warnings, "warning", "warnings")))
		}
		fmt.Fprintf(w, "%s: %s\n", ag.Label(), verdict)
		cmdutil.PrintFindings(f, w, fs, verbose, "  ")
	}
}
