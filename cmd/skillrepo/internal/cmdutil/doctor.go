package cmdutil

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/hooks"
)

// DoctorEnv is the world doctor looks at from this process.
func DoctorEnv(f *Factory, name agent.Name, scope agent.Scope, project string) (*doctor.Env, error) {
	homes, err := AgentHomes(f)
	if err != nil {
		return nil, err
	}
	if project == "" {
		project = "."
	}
	if project, err = filepath.Abs(project); err != nil {
		return nil, err
	}
	env := &doctor.Env{Homes: homes, Project: project, Getenv: f.Getenv, Now: f.Now, Checkers: agents.Implementing[doctor.Checker](), Scope: scope}
	if name != "" {
		env.Agents = []agent.Name{name}
	}
	return env, nil
}

// PrintFindings writes findings one a line with the fix under each.
func PrintFindings(f *Factory, w io.Writer, fs []doctor.Finding, verbose bool, indent string) {
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

// CheckAfterInstall runs doctor on what an install just wrote (one agent,
// one scope, the hooks or the MCP server) and says whether the agent will
// run it: problems and warnings with their fixes, or one line that the
// commands were run as the agent runs them.
//
// written is the settings file the install just wrote: in a project, its
// content is the person's doing now, so it is recorded as trusted (the
// doctor runs a project's commands only once they are; other project
// files stay as trusted as they were).
func CheckAfterInstall(f *Factory, name agent.Name, scope agent.Scope, project, part, written string) []doctor.Finding {
	env, err := DoctorEnv(f, name, scope, project)
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

// InstallVerdict is an install's outcome from CheckAfterInstall's
// findings: nil when the agent will run what was written, else a
// NotRunningError (exit 5) whose hint is each problem's fix.
func InstallVerdict(fs []doctor.Finding, label string) error {
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
	return &NotRunningError{What: label, Fixes: fixes}
}

// ReportAfterInstall prints CheckAfterInstall's findings and returns
// InstallVerdict's.
func ReportAfterInstall(f *Factory, fs []doctor.Finding, label string) error {
	w := f.IO.ErrOut
	verdict := InstallVerdict(fs, label)
	if verdict == nil {
		fmt.Fprintf(w, "%s checked: %s will run it (skillrepo doctor)\n", f.IO.Green("✓"), label)
	} else {
		fmt.Fprintf(w, "%s %s will not run all of it yet:\n", f.IO.Red("✗"), label)
	}
	PrintFindings(f, w, fs, false, "  ")
	return verdict
}
