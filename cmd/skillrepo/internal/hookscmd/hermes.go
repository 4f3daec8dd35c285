package hookscmd

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agentsession"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/locate"
)

// Hermes Agent's shell hooks (docs/hermes.md §6): `hooks install --hermes`
// writes them into ~/.hermes/config.yaml; `hooks run hermes <event>` is
// what Hermes runs.

// HermesOptions are the Hermes flags of hooks install / uninstall.
type HermesOptions struct {
	Hermes bool
	Home   string
	Accept bool
}

func (o *HermesOptions) flags(cmd *cobra.Command, install bool) {
	fl := cmd.Flags()
	if install {
		fl.BoolVar(&o.Hermes, string(agent.Hermes), false, "install Hermes Agent's shell hooks (~/.hermes/config.yaml)")
		fl.BoolVar(&o.Accept, "accept", false, "with --hermes: record your consent in Hermes' allowlist (else Hermes asks at its next interactive start)")
	} else {
		fl.BoolVar(&o.Hermes, string(agent.Hermes), false, "remove Hermes Agent's shell hooks")
	}
	fl.StringVar(&o.Home, "hermes-home", "", "with --hermes: the Hermes home (default $HERMES_HOME, else ~/.hermes)")
}

type hermesHooksJSON struct {
	Config    string             `json:"config"`
	Library   string             `json:"library"`
	Unchanged bool               `json:"unchanged"`
	Accepted  bool               `json:"accepted"`
	Hooks     []hooks.HermesHook `json:"hooks"`
	DryRun    bool               `json:"dry_run"`
	// Checks and WillRun: doctor's findings on an install and their
	// verdict (false exits 5), as for the other agents.
	Checks  []doctor.Finding `json:"checks,omitempty"`
	WillRun *bool            `json:"will_run,omitempty"`
}

func runHermesHooks(f *cmdutil.Factory, o *HermesOptions, library string, dryRun, install bool) error {
	home, err := cmdutil.HermesHome(f, o.Home)
	if err != nil {
		return err
	}
	if library == "" {
		library = filepath.Join(home, hermes.SkillsDir)
	}
	if library, err = filepath.Abs(library); err != nil {
		return err
	}
	if install {
		if !locate.IsLibrary(library) {
			return skillrepo.WithHint(fmt.Errorf("%s is not a skillrepo library", library), "run 'skillrepo init "+home+"' first: one repository then versions Hermes' skills and memory")
		}
	}
	opts := hooks.HermesOptions{Home: home, Executable: cmdutil.SelfExecutable(), Library: library, Accept: o.Accept, Now: f.Now, DryRun: dryRun}
	var res *hooks.HermesResult
	if install {
		res, err = hooks.InstallHermes(opts)
	} else {
		res, err = hooks.UninstallHermes(opts)
	}
	if err != nil {
		return err
	}
	st, _ := hooks.HermesStatus(home, f.Getenv)
	if dryRun && !res.Unchanged {
		// The status reads the file on disk: say what the new one holds.
		st = nil
	}
	var findings []doctor.Finding
	var verdict error
	if install && !dryRun {
		findings = hermesDoctor(f, home)
		verdict = cmdutil.InstallVerdict(findings, agent.Hermes.Label()+" hooks")
	}
	if f.JSON {
		if st == nil {
			st = []hooks.HermesHook{}
		}
		out := hermesHooksJSON{Config: res.Path, Library: library, Unchanged: res.Unchanged, Accepted: res.Accepted, Hooks: st, DryRun: dryRun, Checks: findings}
		if install && !dryRun {
			out.WillRun = new(verdict == nil)
		}
		if err := cmdutil.PrintJSON(f.IO.Out, out); err != nil {
			return err
		}
		return verdict
	}
	w := f.IO.ErrOut
	verb := map[bool]string{true: "installed", false: "removed"}[install]
	switch {
	case dryRun && !res.Unchanged:
		_, err := f.IO.Out.Write(res.Content)
		return err
	case res.Unchanged:
		fmt.Fprintf(w, "Hermes hooks already %s in %s; nothing to do\n", verb, res.Path)
	default:
		fmt.Fprintf(w, "%s %s Hermes' shell hooks in %s (library %s)\n", f.IO.Green("✓"), verb, res.Path, library)
	}
	if install {
		if res.Accepted {
			fmt.Fprintf(w, "  your consent is recorded in %s\n", filepath.Join(home, hermes.AllowlistFile))
		}
		if !dryRun {
			return cmdutil.ReportAfterInstall(f, findings, agent.Hermes.Label()+" hooks")
		}
	}
	return nil
}

// hermesDoctor is doctor's verdict on the Hermes home's hooks: the same
// checks 'skillrepo doctor' and status make.
func hermesDoctor(f *cmdutil.Factory, home string) []doctor.Finding {
	env, err := cmdutil.DoctorEnv(f, agent.Hermes, "", "")
	if err != nil {
		return nil
	}
	getenv := env.Getenv
	env.Getenv = func(k string) string {
		if k == "HERMES_HOME" {
			return home
		}
		return getenv(k)
	}
	return doctor.Run(context.Background(), env).Findings
}

// runHermesHookEvent runs a Hermes hook event: always exit 0, what went
// wrong in .git/skillrepo/logs/hooks.log and on stderr (Hermes logs it).
func runHermesHookEvent(opts *RunOptions) error {
	f := opts.Factory
	library := cmp.Or(opts.Library, f.Dir)
	rep, err := agentsession.RunHermes(opts.Ctx, agentsession.HermesOptions{
		Event: opts.Event, Library: library, In: f.IO.In, Out: f.IO.Out, Getenv: f.Getenv, Now: f.Now,
	})
	var lines []string
	if rep != nil {
		lines = rep.Notes
		if rep.Library != "" {
			library = rep.Library
		}
	}
	if err != nil {
		lines = append(lines, "error: "+err.Error())
		fmt.Fprintf(f.IO.ErrOut, "skillrepo hermes %s hook: %v\n", opts.Event, err)
	}
	if len(lines) > 0 {
		agentsession.Log(library, f.Now(), agent.Hermes, opts.Event, lines...)
	}
	return nil
}
