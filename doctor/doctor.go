// Package doctor checks that each agent skillrepo is installed into will
// really run it: for every installation it finds (an agent's hooks, its
// MCP server entry) it runs the installed commands as the agent would,
// with a synthetic event, and checks what silently breaks a set-up — the
// file the agent really reads (CODEX_HOME, CLAUDE_CONFIG_DIR, project or
// user scope), the agent's trust and permissions, the binary, the
// library, a model for the reviews. Each problem is one Finding with its
// fix; no set-up is reported as working when the agent will not run it.
//
// Each agent's own checks live in its folder (agents/<name>/doctor.go),
// as a [Checker]; the command hands in the registry's (Env.Checkers). This
// package holds what every agent's checks share: running an installed
// command as the agent runs it, the files it reads, the model check.
package doctor

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agentcli"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/internal/jsonedit"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// Level is how bad a finding is.
type Level string

// Levels: a problem means the agent will not run part of the loop; a
// warning, that it runs with a gap; ok is a check that passed, listed so
// a report says what was checked.
const (
	Problem Level = "problem"
	Warning Level = "warning"
	OK      Level = "ok"
)

// Finding is one check's verdict on one installation.
type Finding struct {
	Agent string `json:"agent"`
	// Scope is the installation's scope (user, project, local), "" for a
	// check of the agent as a whole.
	Scope string `json:"scope,omitempty"`
	// What is installed: "hooks" or "mcp".
	Part string `json:"part,omitempty"`
	// Check names the check: settings, location, run, library, trust,
	// permissions, folder-trust, enabled, model.
	Check   string `json:"check"`
	Level   Level  `json:"level"`
	Message string `json:"message"`
	// Fix is what to do, a command when there is one.
	Fix string `json:"fix,omitempty"`
	// Path is the file the finding is about.
	Path string `json:"path,omitempty"`
}

// Env is the world the checks look at: the agents' folders, the project
// of the current folder, the environment the agents run with.
type Env struct {
	Homes agent.Homes
	// Project is the folder whose project-scope settings are checked and
	// where a synthetic event's session runs.
	Project string
	Getenv  func(string) string
	// Agents narrows the check ("" or nil: every agent).
	Agents []agent.Name
	// Scope narrows it to one scope ("": every scope).
	Scope agent.Scope
	// HTTP probes a model endpoint (nil: a client with a short timeout).
	HTTP *http.Client
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Trust records the project's settings files, as they are now, as
	// trusted (doctor --trust) before their commands are run.
	Trust bool
	// Checkers are the agents to check, in the order they are reported:
	// the registry's (package agents), handed in by the command.
	Checkers []Checker
}

// mayRun reports whether the commands of a settings file may run: a
// user's own file, or a file of the project (it came with a clone) that
// the person trusted with its present content (hooks.ProjectFileTrusted;
// with Trust set, it is trusted now).
func (e *Env) mayRun(scope, path string) bool {
	if scope == string(agent.ScopeUser) || path == "" {
		return true
	}
	if rel, err := filepath.Rel(e.Project, path); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return true // not the project's (Claude Code's local MCP scope is in ~/.claude.json)
	}
	if hooks.ProjectFileTrusted(e.Homes, path) {
		return true
	}
	return e.Trust && hooks.TrustProjectFiles(e.Homes, path) == nil
}

// untrustedFinding says a project's commands were not run.
func untrustedFinding(a agent.Name, scope, part, path string) Finding {
	return Finding{Agent: string(a), Scope: scope, Part: part, Check: "trust", Level: Warning, Path: path,
		Message: fmt.Sprintf("not run: project not trusted — %s came with the project, and skillrepo runs its commands only once you trust them", path),
		Fix:     fmt.Sprintf("read %s; if you trust it, run: skillrepo doctor --trust (or %s's own trust step, then skillrepo doctor --trust)", path, a.Label())}
}

// Var is the environment variable k as the agents see it.
func (e *Env) Var(k string) string { return e.getenv(k) }

func (e *Env) getenv(k string) string {
	if e.Getenv == nil {
		return os.Getenv(k)
	}
	return e.Getenv(k)
}

// Checker checks one agent.
type Checker interface {
	Name() agent.Name
	// Check returns the agent's findings, none when nothing of ours is
	// installed for it.
	Check(ctx context.Context, env *Env) []Finding
}

// Report is every finding of a run.
type Report struct {
	Findings []Finding `json:"findings"`
	// Agents lists the agents found installed.
	Agents []string `json:"agents"`
}

// Problems counts the findings at Problem level.
func (r *Report) Problems() int { return r.count(Problem) }

// Warnings counts the findings at Warning level.
func (r *Report) Warnings() int { return r.count(Warning) }

func (r *Report) count(l Level) int {
	n := 0
	for _, f := range r.Findings {
		if f.Level == l {
			n++
		}
	}
	return n
}

// For returns the findings of one agent (and scope, unless "").
func (r *Report) For(name agent.Name, scope agent.Scope) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Agent == string(name) && (scope == "" || f.Scope == "" || f.Scope == string(scope)) {
			out = append(out, f)
		}
	}
	return out
}

// Run checks every agent of env.
func Run(ctx context.Context, env *Env) *Report {
	rep := &Report{Findings: []Finding{}, Agents: []string{}}
	for _, c := range env.Checkers {
		if len(env.Agents) > 0 && !slices.Contains(env.Agents, c.Name()) {
			continue
		}
		fs := c.Check(ctx, env)
		if len(fs) > 0 {
			rep.Agents = append(rep.Agents, string(c.Name()))
		}
		rep.Findings = append(rep.Findings, fs...)
	}
	return rep
}

// scopesOf are the scopes of an agent (of all) that env asks about.
func scopesOf(env *Env, all []agent.Scope) []agent.Scope {
	if env.Scope != "" {
		if slices.Contains(all, env.Scope) {
			return []agent.Scope{env.Scope}
		}
		return nil
	}
	return all
}

// Installations are an agent's hook installations in the files it reads
// at its scopes.
func Installations(env *Env, t hooks.Target, scopes ...agent.Scope) []*hooks.Installation {
	var out []*hooks.Installation
	seen := map[string]bool{}
	for _, s := range scopesOf(env, scopes) {
		in := hooks.Inspect(t, s, env.Homes, env.Project)
		if in.Settings == "" || seen[in.Settings] {
			continue
		}
		seen[in.Settings] = true
		if in.Installed() || in.Err != nil {
			out = append(out, in)
		}
	}
	return out
}

// HookChecks are the checks every agent's hook installation gets: the
// file parses, the agent reads this file, each installed command runs as
// the agent runs it and reaches a library, a model is there for reviews.
func HookChecks(ctx context.Context, env *Env, in *hooks.Installation, sh Shell) []Finding {
	f := func(check string, level Level, msg, fix string) Finding {
		return Finding{Agent: string(in.Agent), Scope: string(in.Scope), Part: "hooks", Check: check, Level: level, Message: msg, Fix: fix, Path: in.Settings}
	}
	reinstall := InstallCommand(in.Agent, in.Scope)
	if in.Err != nil {
		if errors.Is(in.Err, hooks.ErrMalformed) {
			return []Finding{f("settings", Problem, fmt.Sprintf("%s cannot be read: %v; %s reads no hooks from it", in.Settings, in.Err, in.Agent.Label()), "fix the file, then run: "+reinstall)}
		}
		return []Finding{f("settings", Problem, fmt.Sprintf("%s cannot be read: %v", in.Settings, in.Err), "check the file's permissions")}
	}
	if !env.mayRun(string(in.Scope), in.Settings) {
		return []Finding{untrustedFinding(in.Agent, string(in.Scope), "hooks", in.Settings)}
	}
	var out []Finding
	runs := newHookRuns()
	for _, h := range in.Handlers {
		reply, err := sh.run(ctx, env, in, h)
		runs.add(h.Event, reply, err)
	}
	for _, msg := range runs.order {
		fix := fixFor(msg, reinstall)
		if bare := bareProgram(in.Handlers); bare != "" && strings.Contains(msg, bare+": not found") {
			msg = fmt.Sprintf("%s (%s is not on the PATH %s gives its hooks: %s)", msg, bare, in.Agent.Label(), sh.Path)
			fix = fmt.Sprintf("put %s in a folder of that PATH (e.g. /usr/local/bin), or install with --scope user, which names this binary's path", bare)
		}
		out = append(out, f("run", Problem, fmt.Sprintf("%s hook command (%s) fails as %s runs it: %s", in.Agent.Label(), strings.Join(runs.failed[msg0(runs.failed, msg)], ", "), in.Agent.Label(), msg), fix))
	}
	if len(runs.libs) > 1 {
		out = append(out, f("library", Problem, fmt.Sprintf("the hooks in %s act on different libraries: %s", in.Settings, strings.Join(sortedKeys(runs.libs), ", ")), reinstall))
	}
	if len(runs.order) == 0 {
		var lib string
		for l := range runs.libs {
			lib = l
		}
		out = append(out, f("run", OK, fmt.Sprintf("%d hook commands run as %s runs them and reach the library %s", len(in.Handlers), in.Agent.Label(), lib), ""))
		out = append(out, modelCheck(ctx, env, in.Agent, string(in.Scope), lib)...)
	}
	return out
}

// hookRuns gathers what an installation's hook commands answered: the
// libraries they reached, and each distinct failure with its events in
// the order first seen.
type hookRuns struct {
	libs   map[string]bool
	failed map[string][]string // message → events
	order  []string
}

func newHookRuns() *hookRuns {
	return &hookRuns{libs: map[string]bool{}, failed: map[string][]string{}}
}

func (r *hookRuns) add(event string, reply *replyBody, err error) {
	if err != nil {
		msg := err.Error()
		if _, ok := r.failed[msg]; !ok {
			r.order = append(r.order, msg)
		}
		r.failed[msg] = append(r.failed[msg], event)
		return
	}
	r.libs[reply.Library] = true
}

// msg0 finds the key of failed that msg (maybe extended) starts with.
func msg0(failed map[string][]string, msg string) string {
	for k := range failed {
		if strings.HasPrefix(msg, k) {
			return k
		}
	}
	return msg
}

// bareProgram is the program the handlers' commands name without a path
// (a project's shared settings name `skillrepo`, found on PATH), or "".
func bareProgram(hs []hooks.InstalledHandler) string {
	for _, h := range hs {
		first, _, _ := strings.Cut(strings.TrimSpace(h.Command), " ")
		first = strings.Trim(first, `'"`)
		if first != "" && !strings.Contains(first, "/") {
			return first
		}
	}
	return ""
}

// InstallCommand is the command that (re)installs an agent's hooks at a
// scope.
func InstallCommand(a agent.Name, s agent.Scope) string {
	cmd := "skillrepo hooks install --" + string(a)
	if s != agent.ScopeUser && s != "" {
		cmd += " --scope " + string(s)
	}
	return cmd
}

// fixFor suggests a fix for a hook run's failure.
func fixFor(msg, reinstall string) string {
	switch {
	case strings.Contains(msg, "not found") || strings.Contains(msg, "No such file") || strings.Contains(msg, "exit status 127"):
		return "install skillrepo where the hooks point, or reinstall them with the skillrepo you use now: " + reinstall
	case strings.Contains(msg, "no skillrepo library") || strings.Contains(msg, "not a skillrepo library") || strings.Contains(msg, "no git repository"):
		return "create the library (skillrepo init <folder>) or reinstall the hooks with --library <folder>: " + reinstall
	}
	return "see the message; then run: " + reinstall
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Shell is how an agent runs a hook command.
type Shell struct {
	// Path says where the PATH of the hooks comes from, for messages.
	Path string
	// Argv is the shell and its arguments before the command.
	Argv []string
	// Env adds variables the agent sets for its hooks (given the
	// project folder and a session id).
	Env func(project, session string) []string
	// Expand rewrites the command as the agent does before running it
	// (Gemini CLI substitutes its variables in the text).
	Expand func(cmd, project, session string) string
}

// doctorSession is the session id of the synthetic events.
const doctorSession = "skillrepo-doctor"

// errNoReply is a hook that exited 0 without answering the doctor: a
// command that is not ours, or a skillrepo too old to answer.
var errNoReply = errors.New("it exited without answering (a skillrepo older than this doctor?)")

// run runs one installed handler with a synthetic event, exactly as the
// agent would: through its shell, in the session's folder, with the event
// JSON on standard input and the agent's variables set; it must exit 0
// within the handler's time budget and answer the doctor.
func (sh Shell) run(ctx context.Context, env *Env, in *hooks.Installation, h hooks.InstalledHandler) (*replyBody, error) {
	budget := 10 * time.Second
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	cwd := env.Project
	cmdText := h.Command
	if sh.Expand != nil {
		cmdText = sh.Expand(cmdText, cwd, doctorSession)
	}
	args := append(slices.Clone(sh.Argv[1:]), cmdText)
	cmd := exec.CommandContext(ctx, sh.Argv[0], args...)
	cmd.Dir = cwd
	cmd.Env = agentEnviron()
	if sh.Env != nil {
		cmd.Env = append(cmd.Env, sh.Env(cwd, doctorSession)...)
	}
	event, _ := json.Marshal(map[string]any{"session_id": doctorSession, "hook_event_name": h.Event, "cwd": cwd,
		"transcript_path": "", "skillrepo_doctor": true})
	return askHook(ctx, cmd, event, budget)
}

// askHook runs a hook command with a doctor's event on standard input:
// it must exit 0 within budget (ctx's deadline) and answer the doctor.
func askHook(ctx context.Context, cmd *exec.Cmd, event []byte, budget time.Duration) (*replyBody, error) {
	cmd.Stdin = bytes.NewReader(event)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("it did not return within %s", budget)
	}
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, firstLine(stderr.String()))
	}
	var reply struct {
		Doctor *replyBody `json:"skillrepo_doctor"`
	}
	if json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &reply) != nil || reply.Doctor == nil {
		if s := firstLine(stderr.String()); s != "" {
			return nil, errors.New(strings.TrimPrefix(s, "skillrepo "))
		}
		return nil, errNoReply
	}
	return reply.Doctor, nil
}

// replyBody is what a hook answers a doctor's event with.
type replyBody struct {
	Agent   string `json:"agent"`
	Event   string `json:"event"`
	Library string `json:"library"`
}

// agentEnviron is the environment an agent gives its hooks: the
// person's, without our recursion guard (a doctor run inside a review is
// no agent's).
func agentEnviron() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, agentcli.EnvInReview+"=") })
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// modelCheck says whether reviews of the library have a model: an
// endpoint that answers, or the agent's own program.
func modelCheck(ctx context.Context, env *Env, a agent.Name, scope, library string) []Finding {
	f := func(level Level, msg, fix string) []Finding {
		return []Finding{{Agent: string(a), Scope: scope, Part: "hooks", Check: "model", Level: level, Message: msg, Fix: fix}}
	}
	lib, err := skillrepo.Open(library, skillrepo.OpenOptions{Getenv: env.getenv})
	if err != nil {
		return f(Problem, fmt.Sprintf("the library %s does not open: %v", library, err), "skillrepo -C "+library+" status")
	}
	cfg := lib.Config.Review
	lib.Close()
	model := cmp.Or(cfg.Model, env.getenv("SKILLREPO_MODEL"))
	base := cmp.Or(cfg.BaseURL, env.getenv("OPENAI_BASE_URL"))
	program := agentcli.Find(string(a), env.getenv("PATH"))
	backend, err := agentcli.Choose(agentcli.Want{Setting: cfg.Backend, Agent: string(a), Model: model, BaseURL: base, APIKey: env.getenv("OPENAI_API_KEY") != "", Program: program})
	if err != nil {
		return f(Problem, "reviews have no model: "+strings.TrimPrefix(err.Error(), "no model: "), "set review.model and review.base_url in "+filepath.Join(library, ".skillrepo", "config.yaml")+", or install the agent's program where its hooks find it")
	}
	if backend == agentcli.BackendAgent {
		return f(OK, fmt.Sprintf("reviews run through %s with the session's model", program), "")
	}
	if base == "" {
		return f(OK, fmt.Sprintf("reviews use %s at the provider's default address", model), "")
	}
	if err := probe(ctx, env, base); err != nil {
		return f(Problem, fmt.Sprintf("the review endpoint %s does not answer: %v", base, err), "start the model server, or correct review.base_url / OPENAI_BASE_URL")
	}
	return f(OK, fmt.Sprintf("reviews use %s at %s, which answers", cmp.Or(model, "the configured model"), base), "")
}

// probe asks an OpenAI-compatible endpoint for its models: any HTTP
// answer means it is there.
func probe(ctx context.Context, env *Env, base string) error {
	client := env.HTTP
	if client == nil {
		client = &http.Client{Timeout: 3 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/models", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// maxSettingsFile bounds what doctor reads of an agent's settings file.
const maxSettingsFile = 16 << 20

// ReadJSONFile reads a small JSON settings file (comments allowed, as
// Gemini CLI allows them); a missing file is nil. The read is bounded and
// takes regular files only: a FIFO in a settings file's place must not
// hang doctor.
func ReadJSONFile(path string) (map[string]any, error) {
	data, err := boundedread.ReadFile(path, maxSettingsFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// Gemini CLI's settings may hold comments.
	std, err := jsonedit.Standard(data)
	if err != nil {
		return nil, err
	}
	var v map[string]any
	if err := json.Unmarshal(std, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// Lookup follows keys through nested JSON (or TOML) objects.
func Lookup(v map[string]any, keys ...string) any {
	var cur any = v
	for _, k := range keys {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

// LocationCheck finds our hooks in a user settings file the agent does
// not read because an environment variable moved its folder.
func LocationCheck(env *Env, t hooks.Target, variable string) []Finding {
	a := t.Name()
	if env.getenv(variable) == "" || env.Scope == agent.ScopeProject || env.Scope == agent.ScopeLocal {
		return nil
	}
	plain := agent.HomesFrom(env.Homes.Home, nil)
	stale := hooks.Inspect(t, agent.ScopeUser, plain, env.Project)
	live := hooks.Inspect(t, agent.ScopeUser, env.Homes, env.Project)
	if stale.Settings == live.Settings || !stale.Installed() || live.Installed() {
		return nil
	}
	return []Finding{{Agent: string(a), Scope: string(agent.ScopeUser), Part: "hooks", Check: "location", Level: Problem, Path: stale.Settings,
		Message: fmt.Sprintf("skillrepo's hooks are in %s, but %s reads %s (%s=%s)", stale.Settings, a.Label(), live.Settings, variable, env.getenv(variable)),
		Fix:     fmt.Sprintf("with %s set as the agent has it, run: %s (and skillrepo hooks uninstall --%s with it unset, to tidy the old file)", variable, InstallCommand(a, agent.ScopeUser), a)}}
}
