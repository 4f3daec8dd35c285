package hookscmd

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/agents/codex"
	"github.com/skillrepo/skillrepo/agentsession"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/locate"
	"github.com/skillrepo/skillrepo/worker"
)

// AgentOptions are the flags of an agent install or uninstall.
type AgentOptions struct {
	// Agents are the --<agent> flags, one per agent of the registry whose
	// hooks live in a settings file (hooks.Target).
	Agents map[agent.Name]*bool
	// Trust (Codex) records Codex's trust of the hooks installed.
	Trust   bool
	Scope   string
	Library string
	Project string
	DryRun  bool
}

// UninstallOptions is what `hooks uninstall` was asked: one agent's
// hooks or Hermes'.
type UninstallOptions struct {
	Factory *cmdutil.Factory
	AgentOptions
	Hermes HermesOptions
}

// NewCmdUninstall is `hooks uninstall`; runF, when not nil, runs instead
// of uninstallRun.
func NewCmdUninstall(f *cmdutil.Factory, runF func(*UninstallOptions) error) *cobra.Command {
	opts := &UninstallOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "uninstall {--claude-code | --codex | --gemini | --copilot | --opencode} [--scope {user|project|local}] [--dry-run]",
		Short: "Remove skillrepo's Claude Code, Codex, Gemini CLI, Copilot CLI or OpenCode hooks",
		Long: `Remove skillrepo's hook handlers (and only those) from the agent's settings
file of the scope; every other key and hook stays. --dry-run prints the
resulting file and writes nothing.`,
		Example: `  skillrepo hooks uninstall --claude-code
  skillrepo hooks uninstall --codex --scope project`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case opts.Hermes.Hermes && opts.agentCount() != 0:
				return cmdutil.UsageErrorf("choose one of %s", agentChoices("--hermes"))
			case opts.Hermes.Hermes:
			case opts.agentCount() != 1:
				return cmdutil.UsageErrorf("choose one of %s", agentChoices("--hermes"))
			default:
				if err := opts.checkScope(); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return uninstallRun(opts)
		},
	}
	opts.Hermes.flags(cmd, false)
	fl := cmd.Flags()
	opts.agentFlags(cmd, "remove")
	fl.StringVar(&opts.Scope, "scope", "user", "agent settings scope: user, project or local")
	fl.StringVar(&opts.Project, "project", "", "the project folder for --scope project|local (default the current folder)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the resulting file, write nothing")
	return cmd
}

func uninstallRun(opts *UninstallOptions) error {
	if opts.Hermes.Hermes {
		return runHermesHooks(opts.Factory, &opts.Hermes, "", opts.DryRun, false)
	}
	return runAgentHooks(opts.Factory, &opts.AgentOptions, false)
}

// agentFlags adds a --<agent> flag for each agent of the registry whose
// hooks live in a settings file.
func (o *AgentOptions) agentFlags(cmd *cobra.Command, verb string) {
	o.Agents = map[agent.Name]*bool{}
	for _, n := range hookAgents() {
		o.Agents[n] = cmd.Flags().Bool(string(n), false, verb+" "+n.Label()+" hooks")
	}
}

// hookAgents are the agents whose hooks install writes: in a settings
// file (hooks.Target) or as a plugin file of skillrepo's own
// (hooks.FileTarget), in the registry's order.
func hookAgents() []agent.Name {
	var out []agent.Name
	for _, a := range agents.All() {
		_, t := a.(hooks.Target)
		_, ft := a.(hooks.FileTarget)
		if t || ft {
			out = append(out, a.Name())
		}
	}
	return out
}

// agent is the agent whose flag was given.
func (o *AgentOptions) agent() agent.Name {
	for n, on := range o.Agents {
		if *on {
			return n
		}
	}
	return ""
}

// agentCount is how many agent flags were given.
func (o *AgentOptions) agentCount() int {
	n := 0
	for _, on := range o.Agents {
		if *on {
			n++
		}
	}
	return n
}

// agentChoices are the agent flags, for a message: "--claude-code,
// --codex, --gemini" with extra choices after them.
func agentChoices(extra ...string) string {
	var out []string
	for _, n := range hookAgents() {
		out = append(out, "--"+string(n))
	}
	out = append(out, extra...)
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

// checkScope is the agent hooks' --scope check, made when the flags are
// parsed.
func (o *AgentOptions) checkScope() error {
	switch agent.Scope(o.Scope) {
	case agent.ScopeUser, agent.ScopeProject, agent.ScopeLocal:
		return nil
	}
	return cmdutil.UsageErrorf("--scope: want user, project or local, not %q", o.Scope)
}

func runAgentHooks(f *cmdutil.Factory, o *AgentOptions, install bool) error {
	scope := agent.Scope(o.Scope)
	homes, err := cmdutil.AgentHomes(f)
	if err != nil {
		return err
	}
	project := o.Project
	if project == "" {
		project = "."
	}
	project, err = filepath.Abs(project)
	if err != nil {
		return err
	}
	library := o.Library
	if library != "" {
		if library, err = filepath.Abs(library); err != nil {
			return err
		}
	}
	if ft, ok := agents.Find[hooks.FileTarget](o.agent()); ok {
		return runFileHooks(f, o, ft, scope, homes, project, library, install)
	}
	target, ok := agents.Find[hooks.Target](o.agent())
	if !ok {
		return fmt.Errorf("%s has no hooks in a settings file", o.agent().Label())
	}
	opts := hooks.AgentOptions{Agent: target, Scope: scope, Homes: homes, Project: project, Library: library, DryRun: o.DryRun}
	if scope != agent.ScopeProject {
		// A personal settings file names this binary, wherever it is; a
		// project's shared file names `skillrepo`, found on each
		// person's PATH.
		opts.Executable = cmdutil.SelfExecutable()
	}
	var res *hooks.AgentResult
	if install {
		res, err = hooks.InstallAgent(opts)
	} else {
		res, err = hooks.UninstallAgent(opts)
	}
	if err != nil {
		if pe := (*hooks.PluginError)(nil); errors.As(err, &pe) {
			if install && o.Trust && pe.Plugin.Agent == agent.Codex {
				return trustCodexPlugin(f, pe.Plugin, homes, project, o.DryRun)
			}
			hint := fmt.Sprintf("nothing was written; the plugin's hooks already serve %s. To use settings-file hooks instead, remove the plugin first: %s", pe.Plugin.Agent.Label(), pe.Plugin.Remove)
			if pe.Plugin.Agent == agent.Codex {
				hint += "\nto trust the plugin's hooks (Codex skips them until then): " + doctor.InstallCommand(agent.Codex, agent.ScopeUser) + " --trust"
			}
			return skillrepo.WithHint(err, hint)
		}
		if errors.Is(err, hooks.ErrMalformed) {
			return skillrepo.WithHint(err, "fix the file (or move it aside), then run the command again; nothing was written")
		}
		return err
	}
	// Codex runs a hook only once it is trusted; --trust records the
	// trust of exactly the hooks just written, as Codex's /hooks would.
	var trusted *codex.TrustResult
	if install && o.Trust && target.Name() == agent.Codex {
		in := hooks.Inspect(target, scope, homes, project)
		if o.DryRun {
			in = &hooks.Installation{Agent: agent.Codex, Scope: scope, Settings: res.Settings, Handlers: hooks.HandlersIn(target, res.Content)}
		}
		trust, err := codex.Trust(in, homes)
		if err == nil {
			trusted, err = codex.TrustHooks(homes, trust, o.DryRun)
		}
		if err != nil {
			return fmt.Errorf("the hooks are installed, but their trust was not recorded: %w", err)
		}
	}
	var findings []doctor.Finding
	var verdict error
	label := target.Name().Label()
	if install && !o.DryRun {
		findings = cmdutil.CheckAfterInstall(f, target.Name(), scope, project, "hooks", res.Settings)
		verdict = cmdutil.InstallVerdict(findings, label+" hooks")
	}
	if f.JSON {
		out := agentHooksJSON{Agent: string(target.Name()), Scope: string(scope), Settings: res.Settings, Library: res.Library,
			Changed: res.Changed, Added: res.Added, Removed: res.Removed, DryRun: o.DryRun, Checks: findings,
			Command: res.Command, CommandChanged: res.CommandChanged, CommandNote: res.CommandNote}
		if install && !o.DryRun {
			out.WillRun = new(verdict == nil)
		}
		if trusted != nil {
			out.Trusted, out.TrustConfig = trusted.Trusted, trusted.Config
		}
		if err := cmdutil.PrintJSON(f.IO.Out, out); err != nil {
			return err
		}
		return verdict
	}
	if o.DryRun {
		if _, err := f.IO.Out.Write(res.Content); err != nil {
			return err
		}
	}
	w := f.IO.ErrOut
	switch {
	case !res.Changed && install && trusted != nil && trusted.Trusted > 0:
		fmt.Fprintf(w, "%s hooks already installed in %s\n", label, res.Settings)
	case !res.Changed && install:
		fmt.Fprintf(w, "%s hooks already installed in %s; nothing to do\n", label, res.Settings)
	case !res.Changed:
		fmt.Fprintf(w, "no skillrepo hooks in %s; nothing to do\n", res.Settings)
	case o.DryRun && install:
		fmt.Fprintf(w, "would install %d %s hooks in %s (dry run: nothing written)\n", res.Added, label, res.Settings)
	case o.DryRun:
		fmt.Fprintf(w, "would remove %d %s hooks from %s (dry run: nothing written)\n", res.Removed, label, res.Settings)
	case install:
		fmt.Fprintf(w, "wrote %d %s hooks in %s\n", res.Added, label, res.Settings)
		fmt.Fprintf(w, "  library: %s\n", res.Library)
	default:
		fmt.Fprintf(w, "%s removed %d %s hooks from %s\n", f.IO.Green("✓"), res.Removed, label, res.Settings)
	}
	switch {
	case res.CommandNote != "":
		fmt.Fprintf(w, "the in-agent /refine command %s: %s\n", res.Command, res.CommandNote)
	case !res.CommandChanged:
	case install && o.DryRun:
		fmt.Fprintf(w, "would write the in-agent /refine command in %s\n", res.Command)
	case install:
		fmt.Fprintf(w, "wrote the in-agent /refine command in %s: '/refine [focus]' reviews the session now\n", res.Command)
	case o.DryRun:
		fmt.Fprintf(w, "would remove the in-agent /refine command %s\n", res.Command)
	default:
		fmt.Fprintf(w, "%s removed the in-agent /refine command %s\n", f.IO.Green("✓"), res.Command)
	}
	if trusted != nil && trusted.Trusted > 0 {
		verb := "recorded"
		if o.DryRun {
			verb = "would record"
		}
		fmt.Fprintf(w, "%s Codex's trust of %d hooks in %s (as accepting them in /hooks does)\n", verb, trusted.Trusted, trusted.Config)
	}
	if install && !o.DryRun {
		lib := library
		if lib == "" {
			lib = target.DefaultLibrary(scope, homes, project)
		}
		if !locate.IsLibrary(lib) {
			fmt.Fprintf(w, "warning: %s is not a skillrepo library yet; the hooks do nothing until you run 'skillrepo init %s'\n", lib, lib)
		}
		return cmdutil.ReportAfterInstall(f, findings, label+" hooks")
	}
	return nil
}

// runFileHooks installs or removes an agent's plugin file (OpenCode's
// module): written whole, removed whole, and never a file that is not
// skillrepo's.
func runFileHooks(f *cmdutil.Factory, o *AgentOptions, t hooks.FileTarget, scope agent.Scope, homes agent.Homes, project, library string, install bool) error {
	opts := hooks.FileOptions{Agent: t, Scope: scope, Homes: homes, Project: project, Library: library, DryRun: o.DryRun}
	if scope != agent.ScopeProject {
		opts.Executable = cmdutil.SelfExecutable()
	}
	var res *hooks.FileResult
	var err error
	if install {
		res, err = hooks.InstallFile(opts)
	} else {
		res, err = hooks.UninstallFile(opts)
	}
	if errors.Is(err, hooks.ErrNotOurs) {
		return skillrepo.WithHint(err, "move the file aside (it is another plugin of the same name), then run the command again")
	}
	if err != nil {
		return err
	}
	label := t.Name().Label()
	var findings []doctor.Finding
	var verdict error
	if install && !o.DryRun {
		findings = cmdutil.CheckAfterInstall(f, t.Name(), scope, project, "hooks", res.Path)
		verdict = cmdutil.InstallVerdict(findings, label+" hooks")
	}
	if f.JSON {
		out := agentHooksJSON{Agent: string(t.Name()), Scope: string(scope), Settings: res.Path, Library: res.Library, Changed: res.Changed, DryRun: o.DryRun, Checks: findings}
		if res.Changed && install {
			out.Added = 1
		} else if res.Changed {
			out.Removed = 1
		}
		if install && !o.DryRun {
			out.WillRun = new(verdict == nil)
		}
		if err := cmdutil.PrintJSON(f.IO.Out, out); err != nil {
			return err
		}
		return verdict
	}
	if o.DryRun && install {
		if _, err := f.IO.Out.Write(res.Content); err != nil {
			return err
		}
	}
	w := f.IO.ErrOut
	switch {
	case !res.Changed && install:
		fmt.Fprintf(w, "%s plugin already installed in %s; nothing to do\n", label, res.Path)
	case !res.Changed:
		fmt.Fprintf(w, "no skillrepo plugin at %s; nothing to do\n", res.Path)
	case o.DryRun && install:
		fmt.Fprintf(w, "would write %s's plugin %s (dry run: nothing written)\n", label, res.Path)
	case o.DryRun:
		fmt.Fprintf(w, "would remove %s's plugin %s (dry run: nothing written)\n", label, res.Path)
	case install:
		fmt.Fprintf(w, "wrote %s's plugin %s\n", label, res.Path)
		fmt.Fprintf(w, "  library: %s (restart %s to load it)\n", res.Library, label)
	default:
		fmt.Fprintf(w, "%s removed %s's plugin %s\n", f.IO.Green("✓"), label, res.Path)
	}
	if !install || o.DryRun {
		return nil
	}
	lib := library
	if lib == "" {
		lib = t.DefaultLibrary(scope, homes, project)
	}
	if !locate.IsLibrary(lib) {
		fmt.Fprintf(w, "warning: %s is not a skillrepo library yet; the hooks do nothing until you run 'skillrepo init %s'\n", lib, lib)
	}
	return cmdutil.ReportAfterInstall(f, findings, label+" hooks")
}

// trustCodexPlugin is --trust beside skillrepo's Codex plugin: its
// hooks run instead of the settings file's (which are not installed), but
// Codex skips them, as it does hooks.json's, until they are trusted. So
// their trust is recorded in config.toml exactly as for hooks.json's
// (keys "<plugin id>:hooks/hooks.json:…", the same hashes; docs/install.md
// §4), and doctor checks the plugin.
func trustCodexPlugin(f *cmdutil.Factory, p hooks.Plugin, homes agent.Homes, project string, dryRun bool) error {
	trust, err := codex.PluginTrust(p, homes)
	var res *codex.TrustResult
	if err == nil {
		res, err = codex.TrustHooks(homes, trust, dryRun)
	}
	if err != nil {
		return fmt.Errorf("record Codex's trust of the plugin %s's hooks: %w", p.ID, err)
	}
	label := "the Codex plugin " + p.ID
	var findings []doctor.Finding
	var verdict error
	if !dryRun {
		findings = cmdutil.CheckAfterInstall(f, agent.Codex, agent.ScopeUser, project, "plugin", "")
		verdict = cmdutil.InstallVerdict(findings, label)
	}
	if f.JSON {
		out := agentHooksJSON{Agent: string(agent.Codex), Scope: string(agent.ScopeUser), Settings: filepath.Join(p.Dir, "hooks", "hooks.json"),
			Plugin: p.ID, Changed: res.Changed, DryRun: dryRun, Checks: findings, Trusted: res.Trusted, TrustConfig: res.Config}
		if !dryRun {
			out.WillRun = new(verdict == nil)
		}
		if err := cmdutil.PrintJSON(f.IO.Out, out); err != nil {
			return err
		}
		return verdict
	}
	w := f.IO.ErrOut
	if dryRun && res.Changed {
		if _, err := f.IO.Out.Write(res.Content); err != nil {
			return err
		}
	}
	switch {
	case res.Trusted == 0:
		fmt.Fprintf(w, "Codex already trusts the %d hooks of the plugin %s; nothing to do\n", len(trust), p.ID)
	case dryRun:
		fmt.Fprintf(w, "would record Codex's trust of %d hooks of the plugin %s in %s (dry run: nothing written)\n", res.Trusted, p.ID, res.Config)
	default:
		fmt.Fprintf(w, "recorded Codex's trust of %d hooks of the plugin %s in %s (as accepting them in /hooks does)\n", res.Trusted, p.ID, res.Config)
	}
	fmt.Fprintf(w, "  the plugin's hooks serve Codex: no hooks were written in a settings file\n")
	if dryRun {
		return nil
	}
	return cmdutil.ReportAfterInstall(f, findings, label)
}

// runAgentHookEvent runs an agent hook. It always succeeds (exit 0): what
// went wrong is logged to .git/skillrepo/logs/hooks.log and stderr, which
// the agent keeps in its debug log.
func runAgentHookEvent(opts *RunOptions) error {
	f := opts.Factory
	library := cmp.Or(opts.Library, f.Dir)
	name, err := agents.Parse(opts.Agent)
	sa, ok := agents.Find[agentsession.Agent](name)
	if err == nil && !ok {
		err = fmt.Errorf("%s has no hook events of this kind", name.Label())
	}
	var rep *agentsession.Report
	if err == nil {
		ropts := agentsession.Options{
			Agent: sa, Event: opts.Event, Library: library,
			In: f.IO.In, Out: f.IO.Out, Getenv: f.Getenv, Now: f.Now,
			StopJudge: stopJudge(f),
			Goals:     goalHooks{f: f},
		}
		// SKILLREPO_WORKER=off: hooks start no background process. The
		// queue waits for a worker you run yourself (cron: skillrepo
		// worker --once) and the session-start sync runs in the hook.
		if f.Getenv("SKILLREPO_WORKER") != "off" {
			ropts.StartWorker = func(lib *skillrepo.Library) error {
				return worker.Start(cmdutil.SelfExecutable(), lib.Root, lib.State().Worker(), nil)
			}
			ropts.StartSync = func(lib *skillrepo.Library) error {
				env := append(os.Environ(), queue.EnvInReview+"=1")
				// One sync at a time is enough: sessions starting together
				// do not queue scans on the library lock. What the person
				// staged with git is theirs to commit, not the agent's.
				_, err := worker.StartDetachedOnce(lib.State().SyncLock(), cmdutil.SelfExecutable(),
					[]string{"-C", lib.Root, "sync", "--leave-staged", "--hook-log", string(name)}, lib.Root, agentsession.LogPath(lib.State().Hooks()), env)
				return err
			}
			ropts.StartRemote = cmdutil.StartRemoteSync
		}
		rep, err = agentsession.Run(opts.Ctx, ropts)
	}
	var lines []string
	if rep != nil {
		lines = rep.Notes
	}
	if err != nil {
		lines = append(lines, "error: "+err.Error())
		fmt.Fprintf(f.IO.ErrOut, "skillrepo %s %s hook: %v\n", opts.Agent, opts.Event, err)
	}
	if rep != nil && rep.Library != "" {
		library = rep.Library
	}
	if len(lines) > 0 {
		agentsession.Log(library, f.Now(), name, opts.Event, lines...)
	}
	return nil
}
