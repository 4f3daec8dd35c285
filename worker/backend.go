package worker

import (
	"cmp"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/agentcli"
	"github.com/skillrepo/skillrepo/internal/endpoint"
	"github.com/skillrepo/skillrepo/internal/modelcall"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// A review runs as its session would: the variables the session's hook
// recorded in the entry (its model, endpoint, key, PATH, the agent's
// configuration folders) stand over the worker's own environment, which
// is only the environment of whichever session started the worker.

// sessionGetenv reads the entry's recorded environment first, then the
// worker's.
func sessionGetenv(e queue.Entry, getenv func(string) string) func(string) string {
	return func(k string) string {
		if v, ok := e.Env[k]; ok {
			return v
		}
		return getenv(k)
	}
}

// sessionEnviron is environ with the entry's recorded variables set.
func sessionEnviron(e queue.Entry, environ []string) []string {
	out := make([]string, 0, len(environ)+len(e.Env))
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := e.Env[k]; !ok {
			out = append(out, kv)
		}
	}
	for k, v := range e.Env {
		out = append(out, k+"="+v)
	}
	return out
}

// reviewPlan is how one review entry runs.
type reviewPlan struct {
	backend string
	// model names the model in the review's trailers and, for the agent
	// backend when set, is passed to the program.
	model string
	// endpoint backend.
	base   string
	getenv func(string) string
	// agent backend.
	program agentcli.Program
}

// plan chooses the entry's backend from the review settings and the
// session's environment (agentcli.Choose). transcriptModel and
// transcriptCwd are what the transcript says of the session, when known.
func (w *worker) plan(cfg config.Review, e queue.Entry, transcriptModel, provider, transcriptCwd string) (reviewPlan, error) {
	getenv := sessionGetenv(e, w.opts.Getenv)
	p := reviewPlan{getenv: getenv}
	model := cmp.Or(cfg.Model, getenv("SKILLREPO_MODEL"))
	p.base = cmp.Or(cfg.BaseURL, getenv("OPENAI_BASE_URL"))
	program := e.Program
	if program == "" || !executable(program) {
		program = agentcli.Find(e.Agent, getenv("PATH"))
	}
	backend, err := agentcli.Choose(agentcli.Want{Setting: cfg.Backend, Agent: e.Agent, Model: model, BaseURL: p.base,
		APIKey: getenv("OPENAI_API_KEY") != "", Program: program})
	if err != nil {
		return p, err
	}
	p.backend = backend
	if backend == agentcli.BackendEndpoint {
		if model == "" {
			return p, fmt.Errorf("no model: set review.model in .skillrepo/config.yaml or SKILLREPO_MODEL for the agent")
		}
		p.model = model
		return p, nil
	}
	// The session's model unless review.model names another.
	p.model = cmp.Or(cfg.Model, transcriptModel, e.Model)
	environ := os.Environ
	if w.opts.Environ != nil {
		environ = w.opts.Environ
	}
	p.program = agentcli.Program{
		Agent: e.Agent, Path: program, Env: sessionEnviron(e, environ()),
		Dir: cmp.Or(existingDir(transcriptCwd), existingDir(e.Cwd), w.root), Model: p.model, Provider: provider,
		Self: w.self(),
	}
	if p.model == "" {
		p.model = agentcli.ProgramName(e.Agent) + " default"
	}
	return p, nil
}

// resume is the session the agent's program continues for entry e (""
// for the endpoint backend).
func (p reviewPlan) resume(e queue.Entry) string {
	if p.backend != agentcli.BackendAgent {
		return ""
	}
	if e.Agent == agentcli.Gemini {
		// Gemini CLI continues a session from its file.
		return e.Transcript
	}
	return e.SessionID
}

// sessionProject is the project a review may read, read-only: the folder
// the transcript says the session ran in (review.SessionProject), else the
// hook's, where the agent's program runs (plan); "" when it is gone.
func sessionProject(tr *review.Transcript, e queue.Entry) string {
	return cmp.Or(review.SessionProject(tr), existingDir(e.Cwd))
}

// ReviewPlan is how a review of one session runs: the model backend the
// worker chooses for it, the model its trailers name, and, for the
// agent's program, the program and the session it continues.
type ReviewPlan struct {
	Backend modelcall.Backend
	// Kind is agentcli.BackendAgent or agentcli.BackendEndpoint.
	Kind    string
	Model   string
	Program string
	Resume  string
	// Project is the session's project, which the review reads
	// (read-only); "" none.
	Project string
}

// PlanReview chooses the backend of a review run outside the queue
// (`skillrepo review --session`) exactly as the worker chooses it for a
// queued entry e (its Agent, SessionID, Transcript, Cwd, Env and Program):
// the same settings, environment and program (docs/agents.md, "The model
// backend"). opts.Dir is the library's root.
func PlanReview(opts Options, cfg config.Review, e queue.Entry, tr *review.Transcript) (ReviewPlan, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	w := &worker{opts: opts, root: opts.Dir}
	p, err := w.plan(cfg, e, tr.Model, tr.Provider, tr.Cwd)
	if err != nil {
		return ReviewPlan{}, err
	}
	project := sessionProject(tr, e)
	p.program.ReadProject = project != ""
	b, err := p.modelBackend(SettingsFrom(cfg, opts.Getenv), opts.Serve)
	if err != nil {
		return ReviewPlan{}, err
	}
	return ReviewPlan{Backend: b, Kind: p.backend, Model: p.model, Program: p.program.Path, Resume: p.resume(e), Project: project}, nil
}

// deferred reports whether the plan's review waits for the agent to be
// quiet (review.defer; auto: only when it would compete with the agent
// for a model on this machine).
func (p reviewPlan) deferred(mode string) bool {
	switch mode {
	case config.DeferAlways:
		return true
	case config.DeferNever:
		return false
	}
	if p.backend == agentcli.BackendEndpoint {
		return agentcli.Local(p.base)
	}
	return agentcli.Local(p.getenv("ANTHROPIC_BASE_URL")) && p.program.Agent == agentcli.ClaudeCode ||
		agentcli.LocalProvider(p.program.Provider)
}

// self is the skillrepo executable the agent's program starts as its MCP
// server.
func (w *worker) self() string {
	if w.opts.Self != "" {
		return w.opts.Self
	}
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return "skillrepo"
}

func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

func existingDir(p string) string {
	if p == "" {
		return ""
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return p
	}
	return ""
}

// endpointOf parses the plan's base URL ("" the provider's default).
func (p reviewPlan) endpointOf() (*endpoint.Endpoint, error) {
	if p.base == "" {
		return nil, nil
	}
	return endpoint.Parse(p.base)
}

// modelBackend is the plan's backend: the agent's program, or the loop
// here against the endpoint with the worker's retry back-off.
func (p reviewPlan) modelBackend(s Settings, serve agentcli.ServeFunc) (modelcall.Backend, error) {
	if p.backend == agentcli.BackendAgent {
		return agentcli.Backend{Program: p.program, Serve: serve}, nil
	}
	ep, err := p.endpointOf()
	if err != nil {
		return nil, err
	}
	cfg := openai.DefaultConfig(p.getenv("OPENAI_API_KEY"))
	cfg.HTTPClient = &http.Client{}
	if ep != nil {
		// Paths join before the base's query; its query and credentials
		// go on each request (see internal/endpoint).
		cfg.BaseURL, cfg.HTTPClient = ep.BaseURL(), ep.Doer(&http.Client{})
	}
	return modelcall.Endpoint{Caller: modelcall.Caller{Client: openai.NewClientWithConfig(cfg), Backoff: min(s.RetryBackoff, time.Second), Timeout: 10 * time.Minute}}, nil
}
