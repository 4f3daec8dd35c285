// Package reviewcmd is `skillrepo review`, a finished conversation
// reviewed as the background review does: Options, NewCmdReview that only
// parses flags and arguments into it (handed a runF, a test checks the
// parse without a library) and reviewRun (docs/architecture.md §6).
package reviewcmd

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillrepo/skillrepo/agentcli"
	"github.com/skillrepo/skillrepo/agents"
	"github.com/skillrepo/skillrepo/agentsession"
	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/endpoint"
	"github.com/skillrepo/skillrepo/mcpserver"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/worker"
)

// Options is what `review` was asked.
type Options struct {
	Factory    *cmdutil.Factory
	Ctx        context.Context
	Transcript string
	Format     string
	// format is Format parsed, when the flags are.
	format  review.Format
	Focus   string
	Session string
	IfDue   bool
	Model   string
	BaseURL string
	Timeout time.Duration
	DryRun  bool

	// hidden, for tests
	ReviewID     string
	MaxCalls     int
	RetryBackoff time.Duration
}

// NewCmdReview is `review`; runF, when not nil, runs instead of reviewRun.
func NewCmdReview(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "review {<transcript> | --session <id>|current} [--format {auto|openai|claude-code|codex|gemini}] [--focus <text>] [--if-due]",
		Short: "Learn from a finished conversation: skill and memory writes on a proposal branch",
		Long: `Review a finished conversation the way the agent's background review does: the
conversation is replayed to a model with review instructions, and the model
may only read the library and call skill_manage and memory. Every write it
makes is a commit on proposals/<review-id> with Skill-Origin:
background-review; the proposal is merged into the main branch at the end,
unless review.write_approval is true (then it waits for 'skillrepo proposal
approve'). Memory replace and remove from an automatic review always wait
on proposals/<review-id>-memory. Guards run in code: only curator-managed,
unpinned skills are written, a file must be viewed before it is changed,
delete archives and needs absorbed_into, secrets are refused.

TRANSCRIPT is OpenAI chat-messages JSON (a list, or an object with
"messages"), a Claude Code session file (JSONL) or a Codex rollout
(~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl); - reads standard input.

With --session ID and no TRANSCRIPT, the session's file is found in the
agents' folders (Claude Code's projects, Codex's sessions, Gemini CLI's
chats); --session current is the session the command runs in (the id its
agent exports to its commands, else the newest session of the current
folder) — what the in-agent /refine command runs. The model backend is
then chosen as for background reviews: the endpoint when one is
configured, else the agent's own program (docs/agents.md, "The model
backend").

With --session ID --if-due, the review runs only when the session's
counters say it is due: review.memory_interval user turns since the last
memory review, or review.skill_interval model iterations since the last
skill review (0 disables either), counting only the part of the transcript
not seen before. No review runs when the last turn was interrupted or has
no final answer. --focus TEXT always runs, with TEXT as the user's priority.

The model: --model, else review.model, else $SKILLREPO_MODEL; the endpoint
(any OpenAI-compatible server): --base-url, else review.base_url, else
$OPENAI_BASE_URL; the key: $OPENAI_API_KEY.`,
		Example: `  skillrepo review ~/.claude/projects/app/3f2a….jsonl --model qwen3-32b
  skillrepo review --session current --focus "deployment steps"
  skillrepo review --session 3f2a8c1e-…
  skillrepo review chat.json --focus "remember how we deploy"
  skillrepo review session.jsonl --session 3f2a… --if-due
  skillrepo review chat.json --dry-run --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 1 && opts.Session == agentsession.Current:
				return cmdutil.UsageErrorf("--session current finds the transcript itself: pass no TRANSCRIPT")
			case len(args) == 1:
				opts.Transcript = args[0]
			case opts.Session == "":
				return cmdutil.UsageErrorf("name the conversation: a TRANSCRIPT file, or --session ID (current: the session this command runs in)")
			}
			var err error
			if opts.format, err = review.ParseFormat(opts.Format); err != nil {
				return cmdutil.UsageErrorf("--format: %v", err)
			}
			if opts.IfDue && opts.Focus != "" {
				return cmdutil.UsageErrorf("--focus always runs; it cannot be combined with --if-due")
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return reviewRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Format, "format", "auto", "transcript format: auto, openai, claude-code, codex, gemini, opencode or copilot")
	fl.StringVar(&opts.Focus, "focus", "", "review now, giving this text priority (the manual /refine)")
	fl.StringVar(&opts.Session, "session", "", "session `id` to review, found in the agents' folders (current: this command's session); with a TRANSCRIPT, the id its counters use")
	fl.BoolVar(&opts.IfDue, "if-due", false, "review only when the session's counters say a review is due")
	fl.StringVar(&opts.Model, "model", "", "model name (default review.model, then $SKILLREPO_MODEL)")
	fl.StringVar(&opts.BaseURL, "base-url", "", "OpenAI-compatible endpoint (default review.base_url, then $OPENAI_BASE_URL)")
	fl.DurationVar(&opts.Timeout, "timeout", 5*time.Minute, "time limit of one model call")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "read the transcript and decide, but call no model and write nothing")
	fl.StringVar(&opts.ReviewID, "review-id", "", "review id (default r-<date>-<random>)")
	fl.IntVar(&opts.MaxCalls, "max-calls", 0, "cap on model calls (default 16)")
	fl.DurationVar(&opts.RetryBackoff, "retry-backoff", 0, "first back-off before retrying a failed model call")
	for _, h := range []string{"review-id", "max-calls", "retry-backoff"} {
		_ = fl.MarkHidden(h)
	}
	return cmd
}

// jsonLine is one line of --json output (design: long-running commands
// write JSON Lines with a message_type).
func jsonLine(w io.Writer, messageType string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	m["message_type"] = messageType
	b, err = json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}

func reviewRun(opts *Options) error {
	f, format := opts.Factory, opts.format
	lib, err := f.Library()
	if err != nil {
		return err
	}
	var found *agentsession.Session
	if opts.Transcript == "" {
		s, err := findSession(f, opts.Session)
		if err != nil {
			return err
		}
		found, opts.Transcript, opts.Session = &s, s.Path, s.ID
		if opts.Format == "auto" {
			format = s.Format
		}
	}
	tr, err := readTranscript(f, opts.Transcript, format)
	if err != nil {
		return err
	}
	session := opts.Session
	if session == "" {
		session = tr.SessionID
	}
	if opts.IfDue && session == "" {
		return cmdutil.UsageErrorf("--if-due needs --session: the transcript names no session")
	}

	// The model is settled before the counters move: a review found due
	// must not be lost to a missing setting.
	model := cmp.Or(opts.Model, lib.Config.Review.Model, f.Getenv("SKILLREPO_MODEL"))
	baseURL := cmp.Or(opts.BaseURL, lib.Config.Review.BaseURL, f.Getenv("OPENAI_BASE_URL"))
	var plan *worker.ReviewPlan
	if found != nil {
		// An agent's session: the backend a background review of it
		// would have, the agent's own program when no endpoint is set.
		cfg := lib.Config.Review
		cfg.Model, cfg.BaseURL = cmp.Or(opts.Model, cfg.Model), cmp.Or(opts.BaseURL, cfg.BaseURL)
		cwd, _ := os.Getwd()
		p, err := worker.PlanReview(worker.Options{Dir: lib.Root, Getenv: f.Getenv, Serve: mcpserver.ServeSession, Self: cmdutil.SelfExecutable()},
			// The program this command runs under, as a hook records it:
			// an agent's shell may not have it on PATH (Codex's login
			// shell).
			cfg, queue.Entry{Agent: string(found.Agent), SessionID: found.ID, Transcript: found.Path, Cwd: cwd, Program: agentcli.Running(string(found.Agent))}, tr)
		switch {
		case err == nil:
			plan, model = &p, p.Model
			if p.Kind == agentcli.BackendAgent {
				baseURL = ""
			}
		case !opts.DryRun:
			return cmdutil.UsageErrorf("%v", err)
		}
	}
	if model == "" && !opts.DryRun {
		return cmdutil.UsageErrorf("no model: pass --model, set review.model in .skillrepo/config.yaml, or set SKILLREPO_MODEL")
	}
	var ep *endpoint.Endpoint
	if baseURL != "" {
		var err error
		if ep, err = endpoint.Parse(baseURL); err != nil {
			return cmdutil.UsageErrorf("%v", err)
		}
	}

	// Memory is reviewed when the library can version it.
	_, memErr := lib.Memory().Path("memory")
	memoryOK := memErr == nil
	iv := review.Intervals{Memory: lib.Config.Review.MemoryInterval, Skill: lib.Config.Review.SkillInterval}
	if !memoryOK {
		iv.Memory = 0
	}
	counters := review.CounterStore{Dir: lib.State().ReviewSessions()}
	reviewMemory, reviewSkills := memoryOK, true
	var due *review.DueReport
	if opts.IfDue {
		d, err := counters.Check(session, tr, iv, f.Now(), !opts.DryRun)
		if err != nil {
			return err
		}
		due = &review.DueReport{Memory: d.Memory, Skills: d.Skills, NewTurns: d.NewTurns, NewIterations: d.NewIterations, Skip: d.Skip}
		if !d.Due() {
			return printReview(f, review.Skipped(session, d))
		}
		reviewMemory, reviewSkills = d.Memory && memoryOK, d.Skills
	}

	if opts.DryRun {
		shown := ""
		if ep != nil {
			shown = ep.String()
		}
		return printReviewPlan(f, tr, session, model, shown, reviewMemory, reviewSkills, due)
	}
	ropts := review.OptionsFor(lib, tr, reviewMemory, reviewSkills)
	ropts.Focus, ropts.SessionID, ropts.ReviewID, ropts.Now = opts.Focus, session, opts.ReviewID, f.Now
	ropts.Model, ropts.Client, ropts.MaxCalls = model, cmdutil.ModelClient(f, ep), opts.MaxCalls
	ropts.RetryBackoff, ropts.RequestTimeout = opts.RetryBackoff, opts.Timeout
	if plan != nil && plan.Kind == agentcli.BackendAgent {
		ropts.Backend, ropts.Resume, ropts.Project = plan.Backend, plan.Resume, plan.Project
		fmt.Fprintf(f.IO.ErrOut, "reviewing %s session %s through %s, model %s\n", found.Agent.Label(), found.ID, plan.Program, plan.Model)
	}
	if f.JSON {
		ropts.Progress = func(c review.Change) { _ = jsonLine(f.IO.Out, "change", c) }
	} else {
		ropts.Progress = func(c review.Change) {
			fmt.Fprintf(f.IO.ErrOut, "%s %s (%s)\n", f.IO.Green("✓"), c.Summary, c.Commit[:min(7, len(c.Commit))])
		}
	}
	started := f.Now()
	sum, err := review.Run(opts.Ctx, review.Open(lib), ropts)
	recordLastReview(f, lib, session, ropts.ReviewID, started, sum, err)
	if err != nil {
		return err
	}
	sum.Due = due
	if session != "" && !opts.IfDue {
		if err := counters.Reviewed(session, tr, iv, reviewMemory, reviewSkills, sum.ReviewID, f.Now()); err != nil {
			fmt.Fprintf(f.IO.ErrOut, "warning: review counters not updated: %v\n", err)
		}
	}
	if err := printReview(f, sum); err != nil {
		return err
	}
	switch {
	case sum.Status == review.StatusFailed && opts.Ctx.Err() != nil:
		return &cmdutil.SilentError{Code: cmdutil.ExitInterrupted}
	case sum.Status == review.StatusFailed:
		return &cmdutil.SilentError{Code: cmdutil.ExitFailure}
	case sum.MergeError != "":
		return &cmdutil.SilentError{Code: cmdutil.ExitConflict}
	}
	return nil
}

// findSession finds an agent's session by id, or the one this command
// runs in (agentsession.Current), in the agents' folders.
func findSession(f *cmdutil.Factory, id string) (agentsession.Session, error) {
	homes, err := cmdutil.AgentHomes(f)
	if err != nil {
		return agentsession.Session{}, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return agentsession.Session{}, err
	}
	s, err := agentsession.FindSession(agents.Implementing[agentsession.SessionFinder](), homes, f.Getenv, id, cwd)
	if errors.Is(err, agentsession.ErrNoSession) {
		return s, skillrepo.WithHint(err, "run it from the agent's session (its /refine command runs 'skillrepo review --session current'), pass the id the agent shows for the session, or pass the transcript file: skillrepo review FILE")
	}
	return s, err
}

func readTranscript(f *cmdutil.Factory, path string, format review.Format) (*review.Transcript, error) {
	var r io.Reader
	name := path
	if path == "-" {
		r, name = f.IO.In, "standard input"
	} else {
		// A transcript must be a file: a FIFO would hang the review, a
		// device never end.
		fh, err := boundedread.Open(path)
		if err != nil {
			return nil, cmdutil.InputError("transcript", err)
		}
		defer fh.Close()
		r = fh
	}
	tr, err := review.Read(r, name, format)
	var big *boundedread.TooLargeError
	if errors.As(err, &big) {
		return nil, skillrepo.WithHint(err, "review the recent part: tail -n 5000 of a JSON Lines transcript is a valid transcript")
	}
	return tr, err
}

func printReview(f *cmdutil.Factory, sum *review.Summary) error {
	// A model error quotes the request URL: never its credentials.
	sum.Reason, sum.MergeError = endpoint.RedactText(sum.Reason), endpoint.RedactText(sum.MergeError)
	if f.JSON {
		return jsonLine(f.IO.Out, "summary", sum)
	}
	sum.WriteText(f.IO.Out)
	if h := sum.Headline(); h != "" {
		fmt.Fprintln(f.IO.ErrOut, h)
	}
	return nil
}

// reviewPlan is what --dry-run reports.
type reviewPlan struct {
	Format           string            `json:"format"`
	SessionID        string            `json:"session_id,omitempty"`
	TranscriptSHA256 string            `json:"transcript_sha256"`
	Messages         int               `json:"messages"`
	UserTurns        int               `json:"user_turns"`
	Iterations       int               `json:"model_iterations"`
	FinalAnswer      bool              `json:"final_answer"`
	Interrupted      bool              `json:"interrupted"`
	Memory           bool              `json:"memory"`
	Skills           bool              `json:"skills"`
	Model            string            `json:"model"`
	BaseURL          string            `json:"base_url"`
	Due              *review.DueReport `json:"due,omitempty"`
}

func printReviewPlan(f *cmdutil.Factory, tr *review.Transcript, session, model, baseURL string, mem, skills bool, due *review.DueReport) error {
	p := reviewPlan{
		Format: string(tr.Format), SessionID: session, TranscriptSHA256: tr.SHA256, Messages: len(tr.Messages),
		UserTurns: tr.UserTurns(), Iterations: tr.Iterations(), FinalAnswer: tr.Final, Interrupted: tr.Interrupted,
		Memory: mem, Skills: skills, Model: model, BaseURL: baseURL, Due: due,
	}
	if f.JSON {
		return jsonLine(f.IO.Out, "status", p)
	}
	w := f.IO.Out
	fmt.Fprintf(w, "transcript: %s, %s, %s, %s\n", p.Format, cmdutil.NounCount(p.Messages, "message"), cmdutil.NounCount(p.UserTurns, "user turn"), cmdutil.NounCount(p.Iterations, "model iteration"))
	last := "ended with a final answer"
	switch {
	case p.Interrupted:
		last = "was interrupted"
	case !p.FinalAnswer:
		last = "has no final answer"
	}
	fmt.Fprintf(w, "last turn: %s\n", last)
	kind := "skills"
	if mem {
		kind = "memory and skills"
	}
	fmt.Fprintf(w, "dry run: would review %s with model %q; nothing called, nothing written\n", kind, model)
	return nil
}

// recordLastReview keeps the outcome of a review run outside the queue,
// failed ones included, so status tells the last review whichever way it
// ran. It is a note: failing to write it changes nothing.
func recordLastReview(f *cmdutil.Factory, lib *skillrepo.Library, session, reviewID string, started time.Time, sum *review.Summary, err error) {
	now := f.Now()
	e := queue.Entry{Version: 1, Kind: queue.KindReview, State: queue.Done, SessionID: session,
		EnqueuedAt: started, UpdatedAt: now, StartedAt: &started, FinishedAt: &now, Attempts: 1, ReviewID: reviewID}
	switch {
	case err != nil || sum == nil:
		e.State, e.LastError = queue.Failed, "the review ended without an outcome"
		if err != nil {
			e.LastError = err.Error()
		}
	default:
		e.ReviewID = sum.ReviewID
		e.Outcome = &queue.Outcome{Status: sum.Status, Summary: sum.Brief(), Proposal: sum.Proposal, Merged: sum.Merged,
			MergeCommit: sum.MergeCommit, MergeError: sum.MergeError, Applied: len(sum.Applied), Staged: len(sum.Staged), Model: sum.Model}
		if sum.Status == review.StatusFailed {
			e.State, e.LastError = queue.Failed, sum.Reason
			if sum.Reason != "" {
				e.Outcome.Summary = sum.Reason // why it failed says more than "wrote nothing"
			}
		}
	}
	if e.Outcome != nil {
		lib.UsageHistory().AppendReview(session, e.ReviewID, e.Outcome.Status, e.Outcome.Summary)
	} else {
		lib.UsageHistory().AppendReview(session, e.ReviewID, review.StatusFailed, e.LastError)
	}
	_ = cmdutil.LastReviewFile(lib).Write(e)
}
