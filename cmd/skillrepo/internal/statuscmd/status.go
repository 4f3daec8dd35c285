// Package statuscmd is `skillrepo status`, one screen of the library,
// its proposals, the review queue, the curator, the agents' hooks and the
// shared remote (remote.go): Options, NewCmdStatus that only parses flags
// into it (handed a runF, a test checks the parse without a library) and
// statusRun (docs/architecture.md §6).
package statuscmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/doctor"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/locate"
	"github.com/skillrepo/skillrepo/worker"
)

// statusJSON is what `status --json` prints. Paths are absolute.
type statusJSON struct {
	Library string `json:"library"`
	// ConfigProblems are the config's problems, one "file:line: key:
	// problem" each; while there are any, writes are refused.
	ConfigProblems []string `json:"config_problems"`
	// HeldSettings are the settings a remote changed that this clone
	// holds back until 'skillrepo config accept' (docs/config.md).
	HeldSettings []config.Held `json:"held_settings"`
	Branch       string        `json:"branch"`
	Head         string        `json:"head"`
	DirtySkills  []string      `json:"dirty_skills"`
	DirtyFiles   int           `json:"dirty_files"`
	// Unconverted are the dirty files skillrepo sync refuses to record:
	// their conversion runs a filter (git-lfs) we do not run, so git must
	// record them (docs/git-format.md, "Line endings and filters").
	Unconverted []skillrepo.UnconvertedChange `json:"unconverted_files"`
	// WorktreeError says why the work tree was not compared ("": it was).
	WorktreeError string         `json:"worktree_error"`
	OpenProposals []string       `json:"open_proposals"`
	Queue         map[string]int `json:"queue"`
	WorkerRunning bool           `json:"worker_running"`
	Failed        []queue.Entry  `json:"failed"`
	LastReview    *queue.Entry   `json:"last_review"`
	// NextReview is how far the session counted last is from its next
	// review; absent before any session was counted.
	NextReview *nextReview   `json:"next_review,omitempty"`
	Curator    curatorStatus `json:"curator"`
	Hooks      []hookStatus  `json:"hooks"`
	// HermesHooks are skillrepo's shell hooks in Hermes' config.yaml and
	// whether Hermes runs each (consent); HermesNote says it in a line.
	HermesHooks []hooks.HermesHook `json:"hermes_hooks,omitempty"`
	HermesNote  string             `json:"hermes_note,omitempty"`
	// Reviews is what keeps reviews from landing: no model backend for
	// an agent whose hooks are installed, parked and failing reviews.
	// Empty fields: nothing.
	Reviews worker.Health `json:"reviews"`
	// Setups are doctor's findings on every agent set up here (the
	// same checks as `skillrepo doctor`).
	Setups []doctor.Finding `json:"setups"`
	// Remote is the shared remote (remote.go); absent when the
	// library shares nothing.
	Remote *remoteStatusJSON `json:"remote,omitempty"`
}

type curatorStatus struct {
	// Owner is whose curator runs the library (curator.owner).
	Owner     string     `json:"owner"`
	Enabled   bool       `json:"enabled"`
	Paused    bool       `json:"paused"`
	LastRunAt *time.Time `json:"last_run_at"`
	NextRunAt *time.Time `json:"next_run_at"`
	Due       bool       `json:"due"`
}

type hookStatus struct {
	Agent     string `json:"agent"`
	Scope     string `json:"scope"`
	Settings  string `json:"settings"`
	Installed bool   `json:"installed"`
	// Plugin is the id of skillrepo's plugin or extension the agent's own
	// program runs the hooks from ("skillrepo@skillrepo"); Settings is
	// then the file that records it enabled.
	Plugin string `json:"plugin,omitempty"`
	// Library is the library the hooks serve: the --library their
	// commands name, or a plugin's ($SKILLREPO_LIBRARY, else the agent's
	// skills folder); "" when unknown.
	Library string `json:"library,omitempty"`
	// Command is the in-agent /refine command's file installed with the
	// hooks ("" none).
	Command string `json:"command,omitempty"`
}

// Options is what `status` was asked.
type Options struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
}

// NewCmdStatus is `status`; runF, when not nil, runs instead of statusRun.
func NewCmdStatus(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	return &cobra.Command{
		Use:   "status",
		Short: "One screen: the library, proposals, the review queue, the curator, agent hooks",
		Long: `Show the library and its branch, skills with edits not yet recorded, open
proposals, the review queue (queued, running, failed with their reasons) and
whether a worker runs, the last review and how it ended, when the curator runs
next, which agents' hooks are installed (user scope, and project scopes
of the current folder), and the shared remote: the last fetch, how far main
is ahead of and behind the remote's, the published proposals waiting, and
the failures with their fix (credentials, the host unreachable, a protected
branch).`,
		Example: "  skillrepo status\n  skillrepo -C ~/.claude/skills status --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return statusRun(opts)
		},
	}
}

func statusRun(opts *Options) error {
	f := opts.Factory
	homes, _ := cmdutil.AgentHomes(f)
	cwd, _ := os.Getwd()
	setups := hookStatuses(f, homes, cwd)
	lib, err := openStatusLibrary(f, setups)
	if err != nil {
		return err
	}
	defer lib.Close()
	now := f.Now().UTC()
	st := statusJSON{Library: lib.Root, ConfigProblems: []string{}, DirtySkills: []string{}, Unconverted: []skillrepo.UnconvertedChange{}, OpenProposals: []string{}, Queue: map[string]int{}, Failed: []queue.Entry{}, Hooks: []hookStatus{}, Setups: []doctor.Finding{}}
	if err := lib.ConfigProblem(); err != nil {
		st.ConfigProblems = strings.Split(err.Error(), "\n")
	}
	if st.HeldSettings = lib.HeldSettings(); st.HeldSettings == nil {
		st.HeldSettings = []config.Held{}
	}
	if st.Branch, err = lib.CurrentBranch(); err != nil {
		return err
	}
	if tip, err := lib.BranchTip(cmp.Or(st.Branch, lib.MainBranch())); err == nil {
		st.Head = tip.String()
	}
	if st.Branch != "" {
		// A dry run that failed (a merge in progress, the lock held) must
		// not read as a clean work tree: say so, and show the rest.
		if res, err := lib.Sync(opts.Ctx, skillrepo.SyncOptions{DryRun: true, ReportUnconverted: true}); err != nil {
			st.WorktreeError = err.Error()
		} else {
			st.DirtySkills = append(st.DirtySkills, res.Skills...)
			st.DirtyFiles = len(res.Changes)
			st.Unconverted = append(st.Unconverted, res.Unconverted...)
		}
	}
	props, err := lib.Proposals().List(skillrepo.ProposalQuery{})
	if err != nil {
		return err
	}
	for _, p := range props {
		if p.State == skillrepo.ProposalOpen {
			st.OpenProposals = append(st.OpenProposals, p.ID)
		}
	}
	entries, err := queue.New(lib.State().Queue()).List()
	if err != nil {
		return err
	}
	for state, n := range queue.Counts(entries) {
		st.Queue[string(state)] = n
	}
	for _, s := range []queue.State{queue.Queued, queue.Running, queue.Done, queue.Failed} {
		st.Queue[string(s)] += 0
	}
	var reviews []queue.Entry
	for _, e := range entries {
		if e.State == queue.Failed || e.State == queue.Corrupt {
			st.Failed = append(st.Failed, e)
		}
		if e.Kind == queue.KindReview && e.FinishedAt != nil {
			reviews = append(reviews, e)
		}
	}
	// A review run outside the queue (skillrepo review) leaves its own
	// record, failed ones included.
	if e, err := cmdutil.LastReviewFile(lib).Read(); err == nil && e.FinishedAt != nil {
		reviews = append(reviews, e)
	}
	sort.Slice(reviews, func(i, j int) bool { return reviews[i].FinishedAt.Before(*reviews[j].FinishedAt) })
	if len(reviews) > 0 {
		st.LastReview = &reviews[len(reviews)-1]
	}
	if c, ok, err := (review.CounterStore{Dir: lib.State().ReviewSessions()}).Latest(); err == nil && ok {
		cfg := lib.Config.Review
		st.NextReview = &nextReview{Session: c.SessionID, Updated: c.UpdatedAt, Turns: c.TurnsSinceMemory, MemoryInterval: cfg.MemoryInterval,
			Steps: c.IterationsSinceSkill, SkillInterval: cfg.SkillInterval}
	}
	st.WorkerRunning = worker.Running(lib.State().Worker())
	if st.Remote, err = remoteStatus(lib); err != nil {
		return err
	}
	if cs, err := curator.StoreOf(lib).Load(); err == nil {
		sched := curator.ScheduleOf(lib.Config.Curator)
		d := curator.Due(cs, sched, now)
		st.Curator = curatorStatus{Owner: lib.Config.Curator.Owner, Enabled: sched.Enabled, Paused: cs.Paused, LastRunAt: cs.LastRunAt, Due: d.Due}
		if lib.Config.Curator.Owner == config.CuratorOwnerHermes {
			d = curator.Decision{} // Hermes' own curator runs; skillrepo's stands aside
			st.Curator.Due = false
		}
		if !d.Next.IsZero() && !d.Seed {
			next := d.Next
			st.Curator.NextRunAt = &next
		}
	}
	st.Hooks = append(st.Hooks, setups...)
	st.HermesNote, st.HermesHooks = cmdutil.HermesStatusLine(f)
	// Reviews of the agents whose hooks serve this library: can a model
	// backend run them, from this environment? (An agent set up for
	// another library says nothing of this one's.)
	st.Reviews = worker.CheckHealth(entries, lib.Config.Review, "", f.Getenv)
	for _, h := range st.Hooks {
		if h.Installed && st.Reviews.NoModel == "" && samePath(h.Library, lib.Root) {
			st.Reviews.NoModel = worker.CheckHealth(nil, lib.Config.Review, h.Agent, f.Getenv).NoModel
		}
	}
	if env, err := cmdutil.DoctorEnv(f, "", "", cwd); err == nil {
		// Cached: the checks run every installed command (seconds with
		// four agents); they run again when what they read changes.
		st.Setups = doctor.Cached(opts.Ctx, env, lib.State().SetupChecks(), filepath.Join(lib.Root, filepath.FromSlash(config.Path))).Findings
	}
	if f.JSON {
		return cmdutil.PrintJSON(f.IO.Out, st)
	}
	return printStatus(f, st, now)
}

// hookStatuses are the agents' hook installs seen from cwd: each agent's
// settings files (user scope, and the project scopes of cwd) and its
// enabled plugins, with the library each serves.
func hookStatuses(f *cmdutil.Factory, homes agent.Homes, cwd string) []hookStatus {
	var out []hookStatus
	seen := map[string]bool{}
	for _, t := range agents.Implementing[hooks.Target]() {
		a := t.Name()
		for _, s := range []agent.Scope{agent.ScopeUser, agent.ScopeProject, agent.ScopeLocal} {
			in := hooks.Inspect(t, s, homes, cwd)
			path := in.Settings
			if path == "" || seen[path] {
				continue
			}
			seen[path] = true
			if _, err := os.Stat(path); err != nil && !in.Installed() {
				continue // no such settings file: not worth a line
			}
			h := hookStatus{Agent: string(a), Scope: string(s), Settings: path, Installed: in.Installed(), Command: hooks.CommandInstalled(t, s, homes, cwd)}
			for _, ih := range in.Handlers {
				if h.Library = ih.Library(t.Format().ProjectDir, cwd); h.Library != "" {
					break
				}
			}
			out = append(out, h)
		}
		if pf, ok := t.(hooks.PluginFinder); ok {
			for _, p := range pf.Plugins(homes, cwd) {
				lib := cmp.Or(f.Getenv("SKILLREPO_LIBRARY"), t.DefaultLibrary(cmp.Or(p.Scope, agent.ScopeUser), homes, cwd))
				out = append(out, hookStatus{Agent: string(a), Scope: string(p.Scope), Settings: p.Record, Installed: true, Plugin: p.ID, Library: lib})
			}
		}
	}
	// Agents whose hooks are a plugin file of skillrepo's own (OpenCode).
	for _, t := range agents.Implementing[hooks.FileTarget]() {
		for _, s := range []agent.Scope{agent.ScopeUser, agent.ScopeProject} {
			path, data, err := hooks.ReadFileTarget(t, s, homes, cwd)
			if err != nil || data == nil || seen[path] {
				continue
			}
			seen[path] = true
			lib, _ := t.PluginLibrary(data, cwd)
			out = append(out, hookStatus{Agent: string(t.Name()), Scope: string(s), Settings: path, Installed: true, Library: lib})
		}
	}
	return out
}

// openStatusLibrary opens the library status reports on: the one -C,
// $SKILLREPO_LIBRARY or the current folder names; run from a folder that
// is in no library (a project the agent works in), the library the
// agents' hooks serve, when they serve exactly one.
func openStatusLibrary(f *cmdutil.Factory, setups []hookStatus) (*skillrepo.Library, error) {
	open := func(dir string) (*skillrepo.Library, error) {
		// The config's problems are part of the status, not a warning.
		return skillrepo.Open(dir, skillrepo.OpenOptions{Getenv: f.Getenv, Now: f.Now, ReadOnly: true, Warn: func(string) {}})
	}
	lib, err := open(f.Dir)
	if err == nil || !errors.Is(err, skillrepo.ErrNotLibrary) || !f.DirDefault {
		return lib, err
	}
	var libs []string
	for _, h := range setups {
		if h.Installed && h.Library != "" && locate.IsLibrary(h.Library) && !slices.ContainsFunc(libs, func(l string) bool { return samePath(l, h.Library) }) {
			libs = append(libs, h.Library)
		}
	}
	switch len(libs) {
	case 1:
		lib, err := open(libs[0])
		if err == nil {
			fmt.Fprintf(f.IO.ErrOut, "skillrepo: using the library in %s (the one your agents' hooks serve)\n", lib.Root)
		}
		return lib, err
	case 0:
		// Advising to make this folder a library would be a false lead
		// when it is a project the agent works in.
		var h cmdutil.Hinter
		if errors.As(err, &h) && (strings.Contains(h.Hint(), "skillrepo init' in") || strings.Contains(h.Hint(), "to turn this folder into a library")) {
			return nil, skillrepo.WithHint(err, "no agent's hooks here serve a library: pass -C <library> or set SKILLREPO_LIBRARY, or set one up with 'skillrepo init <skills folder>' and 'skillrepo hooks install'")
		}
		return nil, err
	}
	return nil, skillrepo.WithHint(fmt.Errorf("%w: your agents' hooks serve several libraries: %s", err, strings.Join(libs, ", ")),
		"pass -C <library> or set SKILLREPO_LIBRARY, e.g. skillrepo -C '"+libs[0]+"' status")
}

// samePath reports whether two paths name the same folder (symbolic
// links followed); "" is no folder.
func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	fa, err := os.Stat(a)
	if err != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

func printStatus(f *cmdutil.Factory, st statusJSON, now time.Time) error {
	w := f.IO.Out
	// What keeps reviews from landing comes first: it is why a person
	// runs status.
	if r := st.Reviews; !r.OK() {
		if r.NoModel != "" {
			fmt.Fprintf(w, "%s: reviews cannot run: %s\n  fix: set review.model and review.base_url (docs/config.md), or install the agent's program where its hooks find it; then skillrepo queue retry ID\n", f.IO.Red("reviews"), r.NoModel)
		}
		if n := len(r.Failed); n > 0 {
			e := r.Failed[len(r.Failed)-1]
			fmt.Fprintf(w, "%s: %d review%s failed, the last: %s\n  fix it, then: skillrepo queue retry %s (skillrepo queue show %s for more)\n", f.IO.Red("reviews"), n, cmdutil.Plural(n, "", "s"), cmdutil.OneLine(e.LastError), e.ID, e.ID)
		}
		if n := len(r.Retrying); n > 0 {
			e := r.Retrying[len(r.Retrying)-1]
			fmt.Fprintf(w, "%s: %d review%s failing, retried later: %s\n", f.IO.Red("reviews"), n, cmdutil.Plural(n, "", "s"), cmdutil.OneLine(e.LastError))
		}
	}
	branch := st.Branch
	if branch == "" {
		branch = "(detached HEAD)"
	}
	fmt.Fprintf(w, "library: %s\nbranch:  %s at %.12s\n", st.Library, branch, st.Head)
	if len(st.ConfigProblems) > 0 {
		fmt.Fprintf(w, "%s: the defaults stand in for the keys below, and writes are refused until they are fixed (docs/config.md):\n", f.IO.Red("config"))
		for _, p := range st.ConfigProblems {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	if len(st.HeldSettings) > 0 {
		fmt.Fprintf(w, "%s: the remote changed settings this clone holds back (it uses the values it had); read the change (git log -p %s), then: skillrepo config accept\n", f.IO.Red("held"), config.Path)
		for _, h := range st.HeldSettings {
			fmt.Fprintf(w, "  %s: %s (in use: %s)\n", h.Key, h.Incoming, h.Confirmed)
		}
	}
	if n := st.DirtyFiles - len(st.Unconverted); n > 0 || (len(st.DirtySkills) > 0 && len(st.Unconverted) == 0) {
		// sync refuses the whole change while a filtered file is in it.
		how := "record them: skillrepo sync"
		if len(st.Unconverted) > 0 {
			how = "skillrepo sync records them once git has recorded the files below"
		}
		where := "outside any skill" // the config, a top-level file
		if len(st.DirtySkills) > 0 {
			where = "in " + strings.Join(st.DirtySkills, ", ")
		}
		fmt.Fprintf(w, "edited outside skillrepo: %s %s (%s)\n", cmdutil.NounCount(n, "file"), where, how)
	}
	for _, u := range st.Unconverted {
		fmt.Fprintf(w, "edited outside skillrepo, for git to record: %s (%s): %s\n  hint: %s\n", u.Path, u.Status, u.Reason, u.Hint)
	}
	if st.WorktreeError != "" {
		fmt.Fprintf(w, "work tree: not compared: %s\n", cmdutil.OneLine(st.WorktreeError))
	} else if len(st.DirtySkills) == 0 && st.DirtyFiles == 0 {
		fmt.Fprintln(w, "work tree: clean")
	}
	fmt.Fprintf(w, "open proposals: %d%s\n", len(st.OpenProposals), listSuffix(st.OpenProposals))
	worker := "no worker running"
	if st.WorkerRunning {
		worker = "a worker is running"
	}
	fmt.Fprintf(w, "review queue: %d queued, %d running, %d failed, %d done (%s)\n", st.Queue["queued"], st.Queue["running"], st.Queue["failed"]+st.Queue["corrupt"], st.Queue["done"], worker)
	for _, e := range st.Failed {
		fmt.Fprintf(w, "  %s %s: %s\n", f.IO.Red("failed"), e.ID, cmdutil.OneLine(e.LastError))
	}
	if e := st.LastReview; e != nil {
		outcome := string(e.State)
		if e.Outcome != nil {
			outcome = e.Outcome.Status
			// Older entries began their summary with the status word.
			summary := strings.TrimPrefix(e.Outcome.Summary, e.Outcome.Status+": ")
			switch {
			case e.Outcome.Merged:
				outcome += fmt.Sprintf(", merged as %.12s", e.Outcome.MergeCommit)
			case e.Outcome.Proposal != "":
				outcome += ", proposal " + e.Outcome.Proposal + " waits"
			}
			if summary != "" && summary != e.Outcome.Status {
				outcome += ": " + cmdutil.OneLine(summary)
			}
		} else if e.LastError != "" {
			outcome += ": " + cmdutil.OneLine(e.LastError)
		}
		fmt.Fprintf(w, "last review: %s (%s, session %s): %s\n", cmdutil.OrDash(e.ReviewID), cmdutil.RFC3339(*e.FinishedAt), cmdutil.OrDash(e.SessionID), outcome)
	} else {
		fmt.Fprintln(w, "last review: none yet")
	}
	if n := st.NextReview; n != nil {
		fmt.Fprintf(w, "next review: %s (session %s)\n", n.line(), n.Session)
	}
	printRemoteStatus(f, st.Remote, now)
	c := st.Curator
	switch {
	case c.Owner == config.CuratorOwnerHermes:
		fmt.Fprintln(w, "curator: Hermes' own runs this library (curator.owner: hermes); sync records its runs (skillrepo curator status for its schedule)")
	case !c.Enabled:
		fmt.Fprintln(w, "curator: disabled")
	case c.Paused:
		fmt.Fprintln(w, "curator: paused (skillrepo curator resume)")
	case c.Due:
		fmt.Fprintln(w, "curator: due now (the next session start queues it)")
	case c.NextRunAt != nil:
		fmt.Fprintf(w, "curator: next run due %s\n", cmdutil.RFC3339(*c.NextRunAt))
	default:
		fmt.Fprintln(w, "curator: not seeded yet (the first session start starts its clock)")
	}
	var installed []string
	for _, h := range st.Hooks {
		switch {
		case h.Installed && h.Plugin != "":
			installed = append(installed, fmt.Sprintf("%s (plugin %s)", h.Agent, h.Plugin))
		case h.Installed && h.Command != "":
			installed = append(installed, fmt.Sprintf("%s (%s, %s, /refine)", h.Agent, h.Scope, filepath.Base(h.Settings)))
		case h.Installed:
			installed = append(installed, fmt.Sprintf("%s (%s, %s)", h.Agent, h.Scope, filepath.Base(h.Settings)))
		}
	}
	if len(installed) == 0 && st.HermesNote == "" {
		fmt.Fprintln(w, "agent hooks: none installed (skillrepo hooks install --claude-code | --codex | --gemini | --hermes)")
	} else if len(installed) > 0 {
		fmt.Fprintf(w, "agent hooks: %s\n", joinOr(installed, ""))
	}
	if st.HermesNote != "" {
		fmt.Fprintln(w, st.HermesNote)
	}
	printSetups(f, w, st.Setups)
	return nil
}

func joinOr(list []string, none string) string {
	if len(list) == 0 {
		return none
	}
	out := list[0]
	for _, s := range list[1:] {
		out += ", " + s
	}
	return out
}

func listSuffix(list []string) string {
	if len(list) == 0 {
		return ""
	}
	if len(list) > 5 {
		return fmt.Sprintf(" (%s, …)", joinOr(list[:5], ""))
	}
	return " (" + joinOr(list, "") + ")"
}

// printSetups is doctor's verdict per agent set up here: "ok", or its
// problems and warnings with their fixes.
func printSetups(f *cmdutil.Factory, w io.Writer, fs []doctor.Finding) {
	var names []string
	by := map[string][]doctor.Finding{}
	for _, fd := range fs {
		if _, ok := by[fd.Agent]; !ok {
			names = append(names, fd.Agent)
		}
		by[fd.Agent] = append(by[fd.Agent], fd)
	}
	for _, a := range names {
		label := a
		if ag, err := agents.Parse(a); err == nil {
			label = ag.Label()
		}
		problems, warnings := 0, 0
		for _, fd := range by[a] {
			switch fd.Level {
			case doctor.Problem:
				problems++
			case doctor.Warning:
				warnings++
			}
		}
		switch {
		case problems > 0:
			fmt.Fprintf(w, "%s set-up: %s (skillrepo doctor)\n", label, f.IO.Red(cmdutil.NounCount(problems, "problem")))
		case warnings > 0:
			fmt.Fprintf(w, "%s set-up: ok, %s\n", label, f.IO.Yellow(cmdutil.NounCount(warnings, "warning")))
		default:
			fmt.Fprintf(w, "%s set-up: %s\n", label, f.IO.Green("ok"))
		}
		cmdutil.PrintFindings(f, w, by[a], false, "  ")
	}
}

// nextReview is the counters of the session counted last beside the
// intervals that trigger a review (docs/reference-behaviour.md §1).
type nextReview struct {
	Session        string    `json:"session_id"`
	Updated        time.Time `json:"updated_at"`
	Turns          int       `json:"turns_since_memory_review"`
	MemoryInterval int       `json:"memory_interval"`
	Steps          int       `json:"steps_since_skill_review"`
	SkillInterval  int       `json:"skill_interval"`
}

// line says it as a person reads it: "4 of 10 turns to a memory review,
// 7 of 10 steps to a skill review".
func (n *nextReview) line() string {
	part := func(done, every int, unit, kind string) string {
		if every <= 0 {
			return kind + " reviews off"
		}
		return fmt.Sprintf("%d of %d %s to a %s review", min(done, every), every, unit, kind)
	}
	return part(n.Turns, n.MemoryInterval, "turns", "memory") + ", " + part(n.Steps, n.SkillInterval, "steps", "skill")
}
