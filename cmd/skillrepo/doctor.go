package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/hooks"
)

type doctorOptions struct {
	f       *cmdutil.Factory
	Agent   string
	Scope   string
	Project string
	All     bool
	Trust   bool
}

func newDoctorCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &doctorOptions{f: f}
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
			env, err := doctorEnv(opts.f, opts.Agent, opts.Scope, opts.Project)
			if err != nil {
				return err
			}
			env.Trust = opts.Trust
			rep := doctor.Run(cmd.Context(), env)
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
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Agent, "agent", "", "check one agent: claude-code, codex, gemini or hermes")
	fl.StringVar(&opts.Scope, "scope", "", "check one scope: user, project or local")
	fl.StringVar(&opts.Project, "project", "", "the project `folder` whose settings are checked and where the synthetic sessions run (default: the current folder)")
	fl.BoolVar(&opts.All, "verbose", false, "list the checks that passed too")
	fl.BoolVar(&opts.Trust, "trust", false, "trust the project's agent settings files as they are now, so their hook commands and MCP server run (read them first: they came with the project)")
	return cmd
}

type doctorJSON struct {
	*doctor.Report
	Problems int `json:"problems"`
	Warnings int `json:"warnings"`
}

// doctorEnv is the world doctor looks at from this process.
func doctorEnv(f *cmdutil.Factory, name, scope, project string) (*doctor.Env, error) {
	homes, err := cmdutil.AgentHomes(f)
	if err != nil {
		return nil, err
	}
	if project == "" {
		project = "."
	}
	if project, err = filepath.Abs(project); err != nil {
		return nil, err
	}
	env := &doctor.Env{Homes: homes, Project: project, Getenv: f.Getenv, Now: f.Now, Checkers: agents.Implementing[doctor.Checker]()}
	if name != "" {
		a, err := agents.Parse(name)
		if err != nil {
			return nil, cmdutil.UsageErrorf("--agent: %v", err)
		}
		env.Agents = []agent.Name{a}
	}
	switch agent.Scope(scope) {
	case "", agent.ScopeUser, agent.ScopeProject, agent.ScopeLocal:
		env.Scope = agent.Scope(scope)
	default:
		return nil, cmdutil.UsageErrorf("--scope: want user, project or local, not %q", scope)
	}
	return env, nil
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
		printFindings(f, w, fs, verbose, "  ")
	}
}

// printFindings writes findings one a line with the fix under each.
func printFindings(f *cmdutil.Factory, w io.Writer, fs []doctor.Finding, verbose bool, indent string) {
	for _, fd := range fs {
		mark := ""
		switch fd.Level {
		case doctor.Problem:
			mark = f.IO.Red("✗")
		case doctor.Warning:
			mark = f.IO.Yellow("!")
		default:
			if !verbose {
				continue
			}
			mark = f.IO.Green("✓")
		}
		where := fd.Scope
		if fd.Part != "" {
			where = strings.TrimSpace(fd.Part + " " + fd.Scope)
		}
		if where != "" {
			where = "[" + where + "] "
		}
		fmt.Fprintf(w, "%s%s %s%s\n", indent, mark, where, fd.Message)
		if fd.Fix != "" {
			fmt.Fprintf(w, "%s  fix: %s\n", indent, fd.Fix)
		}
	}
}

// checkAfterInstall runs doctor on what an install just wrote (one agent,
// one scope, the hooks or the MCP server) and says whether the agent will
// run it: problems and warnings with their fixes, or one line that the
// commands were run as the agent runs them.
//
// written is the settings file the install just wrote: in a project, its
// content is the person's doing now, so it is recorded as trusted (the
// doctor runs a project's commands only once they are; other project
// files stay as trusted as they were).
func checkAfterInstall(f *cmdutil.Factory, name agent.Name, scope agent.Scope, project, part, written string) []doctor.Finding {
	env, err := doctorEnv(f, string(name), string(scope), project)
	if err != nil {
		return nil
	}
	if scope != agent.ScopeUser && written != "" {
		if err := hooks.TrustProjectFiles(env.Homes, written); err != nil {
			return []doctor.Finding{{Agent: string(name), Scope: string(scope), Part: part, Check: "trust", Level: doctor.Warning, Path: written,
				Message: "the trust of " + written + " was not recorded: " + err.Error(), Fix: "skillrepo doctor --trust"}}
		}
	}
	rep := doctor.Run(context.Background(), env)
	var fs []doctor.Finding
	for _, fd := range rep.Findings {
		if fd.Part == "" || fd.Part == part {
			fs = append(fs, fd)
		}
	}
	return fs
}

// installVerdict is an install's outcome from checkAfterInstall's
// findings: nil when the agent will run what was written, else a
// notRunningError (exit 5) whose hint is each problem's fix.
func installVerdict(fs []doctor.Finding, label string) error {
	var fixes []string
	problems := 0
	for _, fd := range fs {
		if fd.Level != doctor.Problem {
			continue
		}
		problems++
		if fd.Fix != "" && !slices.Contains(fixes, fd.Fix) {
			fixes = append(fixes, fd.Fix)
		}
	}
	if problems == 0 {
		return nil
	}
	return &cmdutil.NotRunningError{What: label, Fixes: fixes}
}

// reportAfterInstall prints checkAfterInstall's findings and returns
// installVerdict's.
func reportAfterInstall(f *cmdutil.Factory, fs []doctor.Finding, label string) error {
	w := f.IO.ErrOut
	verdict := installVerdict(fs, label)
	if verdict == nil {
		fmt.Fprintf(w, "%s checked: %s will run it (skillrepo doctor)\n", f.IO.Green("✓"), label)
	} else {
		fmt.Fprintf(w, "%s %s will not run all of it yet:\n", f.IO.Red("✗"), label)
	}
	printFindings(f, w, fs, false, "  ")
	return verdict
}
