package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/skillrepo/skillrepo/agentcli"
	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/endpoint"
	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// keepDone is how many finished entries stay in the queue folder for
// `queue list` and `status`.
const keepDone = 100

// Options configure a worker.
type Options struct {
	// Dir is the library (any folder inside it).
	Dir    string
	Getenv func(string) string // nil: os.Getenv
	Now    func() time.Time    // nil: time.Now
	// Once drains the queue (waiting for quiet and back-offs) and exits;
	// otherwise the worker exits after Settings.Idle with nothing queued.
	Once bool
	// Log hears progress and outcomes; nil: the library's worker.log.
	Log io.Writer
	// Echo, when set, hears every log line too (a person watching).
	Echo io.Writer
	// Poll bounds each wait (0: 1 s).
	Poll time.Duration
	// Environ is the environment an agent's program starts from, before
	// the session's recorded variables (nil: os.Environ).
	Environ func() []string
	// Self is the skillrepo executable an agent's program starts as its
	// MCP server ("": this process's executable).
	Self string
	// Serve serves a pass's tools to an agent's program (cmd/skillrepo
	// hands in mcpserver.ServeSession); nil: the agent backend cannot run.
	Serve agentcli.ServeFunc
	// Unattended are the agents a crontab line may run unattended, whose
	// skills a scheduled curator run keeps (cmd/skillrepo hands in the
	// registry's; none: the crontab is not read).
	Unattended []curator.Unattended
}

// Result counts what a worker did.
type Result struct {
	// AlreadyRunning: another worker holds the lock; this one did nothing.
	AlreadyRunning                   bool
	Done, Failed, Retried, Recovered int
}

type worker struct {
	opts     Options
	root     string // the library's folder (its config is read from it)
	stateDir string
	store    *queue.Store
	history  *usage.History
	log      io.Writer
	logMu    sync.Mutex
}

// Run runs a worker on the library until the queue is drained (Once) or
// has been empty for the idle time, or ctx ends. A worker started while
// another runs returns at once with AlreadyRunning.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Poll <= 0 {
		opts.Poll = time.Second
	}
	lib, err := skillrepo.Open(opts.Dir, skillrepo.OpenOptions{Getenv: opts.Getenv, Now: opts.Now})
	if err != nil {
		return nil, err
	}
	root, stateDir, history := lib.Root, lib.State().Worker(), lib.UsageHistory()
	lib.Close()
	unlock, ok, err := statefile.TryLock(filepath.Join(stateDir, LockFile))
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	if !ok {
		return &Result{AlreadyRunning: true}, nil
	}
	defer unlock()

	w := &worker{opts: opts, root: root, stateDir: stateDir, store: queue.New(stateDir), history: history, log: opts.Log}
	w.store.Now = opts.Now
	if w.log == nil {
		p, err := prepareLog(stateDir)
		if err != nil {
			return nil, err
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, fmt.Errorf("worker log: %w", err)
		}
		defer f.Close()
		w.log = f
	}
	res := &Result{}
	w.logf("", "worker started (pid %d)", os.Getpid())
	defer func() {
		w.logf("", "worker stopped: %d done, %d failed, %d retried, %d recovered", res.Done, res.Failed, res.Retried, res.Recovered)
	}()
	if err := w.recover(res); err != nil {
		return res, err
	}
	idleSince := w.now()
	var curatorChecked time.Time
	var last queue.Entry // the entry processed last, whose session a curator run it queues takes
	for {
		if ctx.Err() != nil {
			return res, nil
		}
		if w.now().Sub(curatorChecked) >= curatorCheckEvery {
			curatorChecked = w.now()
			w.curatorIfDue(last)
		}
		s, err := w.settings()
		if err != nil {
			// Queued work waits for the fix: a review would call the
			// model and then be refused its write.
			w.logf("", "queued work waits until the config is fixed:\n%v", err)
			return res, err
		}
		next, wait, pending, err := w.pick(s)
		if err != nil {
			return res, err
		}
		if next == nil {
			if pending == 0 {
				if opts.Once || w.now().Sub(idleSince) >= s.Idle {
					return res, nil
				}
				wait = min(opts.Poll, s.Idle-w.now().Sub(idleSince))
			}
			if !sleep(ctx, min(wait, opts.Poll)) {
				return res, nil
			}
			continue
		}
		w.process(ctx, *next, s, res)
		last, idleSince = *next, w.now()
	}
}

// curatorCheckEvery is how often a running worker checks the curator's
// schedule, as the reference's gateway re-checks it hourly (a session
// start checks it too): a worker that runs for days still curates.
const curatorCheckEvery = time.Hour

// curatorIfDue queues a curator run when one is due by the schedule (a
// library never seen is seeded by a session start, not here), for the
// session of last when there is one (its agent and model consolidate).
func (w *worker) curatorIfDue(last queue.Entry) {
	lib, err := skillrepo.Open(w.root, skillrepo.OpenOptions{Getenv: w.opts.Getenv, Now: w.opts.Now})
	if err != nil {
		w.logf("", "curator check: %v", err)
		return
	}
	defer lib.Close()
	if lib.Config.Curator.Owner == config.CuratorOwnerHermes {
		return // Hermes' own curator runs
	}
	st, err := curator.StoreOf(lib).Load()
	if err != nil {
		w.logf("", "curator check: %v", err)
		return
	}
	if !curator.Due(st, curator.ScheduleOf(lib.Config.Curator), w.now()).Due {
		return
	}
	e, merged, err := w.store.Enqueue(queue.Entry{Kind: queue.KindCurator, Agent: last.Agent, Model: last.Model, Cwd: last.Cwd, Program: last.Program, Env: last.Env,
		Due: queue.Due{Reason: "curator due (checked while the worker runs)"}})
	switch {
	case err != nil:
		w.logf("", "curator check: %v", err)
	case !merged:
		w.logf(e.ID, "queued curator run: due (checked while the worker runs)")
	}
}

func (w *worker) now() time.Time { return w.opts.Now().UTC() }

// settings reads the current settings (the config may change while a
// worker waits). Error: the config's problems (a *config.Error).
func (w *worker) settings() (Settings, error) {
	cfg, err := config.Read(w.root)
	return SettingsFrom(cfg.Review, w.opts.Getenv), err
}

func (w *worker) logf(id, format string, args ...any) {
	w.logMu.Lock()
	defer w.logMu.Unlock()
	prefix := w.now().Format(time.RFC3339)
	if id != "" {
		prefix += " " + id
	}
	// The one redaction: no URL in a log line shows credentials or query
	// values.
	line := fmt.Sprintf("%s %s\n", prefix, endpoint.RedactText(fmt.Sprintf(format, args...)))
	io.WriteString(w.log, line)
	if w.opts.Echo != nil {
		io.WriteString(w.opts.Echo, line)
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		d = time.Millisecond
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// pick returns the oldest entry that may run now, or how long to wait
// for the first that will, and how many entries are queued at all.
func (w *worker) pick(s Settings) (*queue.Entry, time.Duration, int, error) {
	entries, err := w.store.List()
	if err != nil {
		return nil, 0, 0, err
	}
	now := w.now()
	wait := w.opts.Poll
	pending := 0
	for _, e := range entries {
		if e.State != queue.Queued {
			continue
		}
		pending++
		if e.NextAttemptAt != nil && now.Before(*e.NextAttemptAt) {
			wait = min(wait, e.NextAttemptAt.Sub(now))
			continue
		}
		if e.Kind == queue.KindReview && w.defers(e, s) {
			if at := w.readyAt(e, s); now.Before(at) {
				wait = min(wait, at.Sub(now))
				continue
			}
		}
		return &e, 0, pending, nil
	}
	return nil, wait, pending, nil
}

// defers reports whether a review entry waits for the agent to be quiet
// (review.defer): one that cannot be planned does not wait, so its error
// is reported at once.
func (w *worker) defers(e queue.Entry, s Settings) bool {
	p, err := w.plan(s.Review, e, e.Model, "", e.Cwd)
	return err == nil && p.deferred(s.Review.Defer)
}

// readyAt is when a review may call the model: once the agent (every
// hook, and the transcript) has been quiet for DeferQuiet, and at the
// latest DeferMax after the entry was first enqueued.
func (w *worker) readyAt(e queue.Entry, s Settings) time.Time {
	last := queue.LastActivity(w.stateDir)
	if e.Transcript != "" {
		if fi, err := os.Stat(e.Transcript); err == nil && fi.ModTime().After(last) {
			last = fi.ModTime()
		}
	}
	at := last.Add(s.DeferQuiet)
	if latest := e.EnqueuedAt.Add(s.DeferMax); latest.Before(at) {
		at = latest
	}
	return at
}

// recover resolves entries a killed worker left running.
func (w *worker) recover(res *Result) error {
	entries, err := w.store.List()
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.State != queue.Running {
			continue
		}
		if err := w.resolve(e, res); err != nil {
			// The entry stays running: a later worker tries again, and
			// the rest of the queue goes on meanwhile.
			w.logf(e.ID, "could not resolve an interrupted attempt: %v", err)
		}
	}
	return nil
}

func (w *worker) resolve(e queue.Entry, res *Result) error {
	requeue := func(why string) error {
		w.logf(e.ID, "attempt %d was interrupted (%s); queued again", e.Attempts, why)
		_, err := w.store.Update(e.ID, func(x *queue.Entry) error {
			x.State, x.Attempts = queue.Queued, max(0, x.Attempts-1)
			return nil
		})
		return err
	}
	if e.Kind != queue.KindReview || e.ReviewID == "" {
		// A curator run is crash-safe on its own (its lock, the engine's
		// intent record, the schedule it updates last); running it again
		// with --if-due does nothing when it had finished.
		return requeue("no review to look for")
	}
	lib, err := skillrepo.Open(w.opts.Dir, skillrepo.OpenOptions{Getenv: w.opts.Getenv, Now: w.opts.Now})
	if err != nil {
		return err
	}
	defer lib.Close()
	landed, err := reviewLanded(context.Background(), lib, e.ReviewID)
	if err != nil {
		return err
	}
	if landed != "" {
		res.Recovered++
		w.logf(e.ID, "review %s had landed before the worker stopped (%s); done", e.ReviewID, landed)
		_, err := w.store.Update(e.ID, func(x *queue.Entry) error {
			now := w.now()
			x.State, x.FinishedAt = queue.Done, &now
			x.Outcome = &queue.Outcome{Status: review.StatusCompleted, Proposal: e.ReviewID, Merged: true, MergeCommit: landed, Recovered: true,
				Summary: "landed; the worker was stopped before it recorded so"}
			return nil
		})
		return err
	}
	if err := rejectAttempt(context.Background(), lib, e.ReviewID, "the worker was stopped during this attempt; the queue runs the review again"); err != nil {
		// The partial proposal stays open for a person to see; the next
		// attempt has a review id of its own, so it cannot land twice.
		w.logf(e.ID, "left the interrupted attempt's proposal open: %v", err)
	}
	return requeue("nothing landed")
}

// reviewLanded returns the merge commit of review id's proposal when it
// is in main: its branch's tip is reachable from main (the branch is then
// deleted, as approval does), or main's first-parent history has the
// merge commit with Proposal-Id: id. "" when it did not land.
func reviewLanded(ctx context.Context, lib *skillrepo.Library, id string) (string, error) {
	p, err := lib.Proposals().Get(id)
	switch {
	case err == nil && p.State == skillrepo.ProposalApproved:
		res, err := reviewWriter(lib, id).ApproveProposal(ctx, id, skillrepo.ApproveOptions{By: "auto (queue worker recovery)"})
		if err != nil {
			return "", err
		}
		if res.Commit.IsZero() {
			return res.Tip.String(), nil
		}
		return res.Commit.String(), nil
	case err == nil && p.State == skillrepo.ProposalOpen:
		return "", nil
	case err != nil && !errors.Is(err, skillrepo.ErrNotFound):
		return "", err
	}
	merge, err := lib.Proposals().Merge(id)
	if err != nil {
		return "", fmt.Errorf("look for the merge of proposal %s: %w", id, err)
	}
	if merge.IsZero() {
		return "", nil
	}
	return merge.String(), nil
}

// reviewWriter is the write policy of the worker's settling of review id:
// the review's own origin (a writer that names no branch builds without
// error, so there is no error to pass on).
func reviewWriter(lib *skillrepo.Library, id string) *skillrepo.Policy {
	pol, _ := lib.Policy(skillrepo.Writer{Provenance: skillrepo.Provenance{Origin: skillrepo.OriginBackgroundReview, ReviewID: id}})
	return pol
}

// rejectAttempt rejects the open proposals an unfinished attempt left
// (its own and its staged ones), keeping their tips under
// refs/skillrepo/rejected/.
func rejectAttempt(ctx context.Context, lib *skillrepo.Library, id, reason string) error {
	for _, pid := range append([]string{id}, review.WaitingProposals(id)...) {
		p, err := lib.Proposals().Get(pid)
		if errors.Is(err, skillrepo.ErrNotFound) || (err == nil && p.State != skillrepo.ProposalOpen) {
			continue
		}
		if err != nil {
			return err
		}
		if _, err := reviewWriter(lib, id).RejectProposal(ctx, pid, skillrepo.RejectOptions{By: "skillrepo worker", Reason: reason}); err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
			return fmt.Errorf("reject interrupted proposal %s: %w", pid, err)
		}
	}
	return nil
}

// attemptError is how an attempt failed.
type attemptError struct {
	msg       string
	transient bool
	// interrupted: the worker is stopping, or (turn) a new user turn
	// interrupted the review; the attempt does not count.
	interrupted, turn bool
}

// errTurn is why a review's context ends when a new user turn
// interrupted it (queue.Store.RequestInterrupt).
var errTurn = errors.New("a new user turn interrupted the review")

// watchInterrupt polls entry id for an interrupt request while its
// attempt runs, and cancels the attempt with errTurn when one comes. The
// returned function stops the watch.
func (w *worker) watchInterrupt(ctx context.Context, id string, cancel context.CancelCauseFunc) func() {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(w.opts.Poll)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if e, err := w.store.Get(id); err == nil && e.InterruptRequested != nil {
				cancel(errTurn)
				return
			}
		}
	}()
	return func() { close(done); <-stopped }
}

func (e *attemptError) Error() string { return e.msg }

func (w *worker) process(ctx context.Context, e queue.Entry, s Settings, res *Result) {
	if e.Kind == queue.KindReview && !s.Review.Enabled {
		// Switched off since it was queued: the setting is read again
		// here, as the reference's is when its idle queue runs.
		now := w.now()
		if _, err := w.store.Update(e.ID, func(x *queue.Entry) error {
			x.State, x.FinishedAt, x.Outcome = queue.Done, &now, &queue.Outcome{Status: review.StatusSkipped, Summary: "review.enabled is false"}
			return nil
		}); err != nil {
			w.logf(e.ID, "record outcome: %v", err)
			return
		}
		res.Done++
		w.logf(e.ID, "skipped: review.enabled is false")
		return
	}
	reviewID := ""
	if e.Kind == queue.KindReview {
		reviewID = review.NewReviewID(w.now())
	}
	e, err := w.store.Claim(e.ID, reviewID)
	if err != nil {
		w.logf(e.ID, "claim: %v", err)
		return
	}
	w.logf(e.ID, "attempt %d: %s", e.Attempts, describe(e))
	var out *queue.Outcome
	switch e.Kind {
	case queue.KindReview:
		rctx, cancel := context.WithCancelCause(ctx)
		stop := w.watchInterrupt(rctx, e.ID, cancel)
		out, err = w.runReview(rctx, e, s)
		stop()
		cancel(nil)
	case queue.KindCurator:
		out, err = w.runCurator(ctx, e, s)
	default:
		err = &attemptError{msg: fmt.Sprintf("unknown kind %q", e.Kind)}
	}
	now := w.now()
	var ae *attemptError
	if err != nil && !errors.As(err, &ae) {
		ae = &attemptError{msg: err.Error(), transient: errors.Is(err, skillrepo.ErrLocked)}
	}
	if ae != nil {
		ae.msg = endpoint.RedactText(ae.msg) // kept in the queue entry, shown by queue list
	}
	x, uerr := w.store.Update(e.ID, func(x *queue.Entry) error {
		x.InterruptRequested = nil // answered, or too late to matter
		switch {
		case ae == nil:
			x.State, x.FinishedAt, x.Outcome, x.NextAttemptAt = queue.Done, &now, out, nil
		case ae.turn && x.Interruptions >= queue.MaxInterruptions:
			x.Interruptions++
			x.State, x.FinishedAt = queue.Done, &now
			x.Outcome = &queue.Outcome{Status: review.StatusSkipped, Summary: fmt.Sprintf("dropped: a new user turn interrupted it %d times (it competes with the agent for a local model; review.defer: auto)", x.Interruptions)}
		case ae.turn:
			x.Interruptions++
			x.State, x.Attempts = queue.Queued, max(0, x.Attempts-1)
		case ae.interrupted:
			x.State, x.Attempts = queue.Queued, max(0, x.Attempts-1)
		case ae.transient && x.Attempts < s.MaxAttempts:
			next := now.Add(s.Backoff(x.Attempts))
			x.State, x.NextAttemptAt, x.LastError = queue.Queued, &next, ae.msg
		default:
			reason := ae.msg
			if ae.transient {
				reason = fmt.Sprintf("gave up after %d attempts: %s", x.Attempts, ae.msg)
			}
			x.State, x.FinishedAt, x.LastError, x.Outcome = queue.Failed, &now, reason, out
		}
		return nil
	})
	if uerr != nil {
		w.logf(e.ID, "record outcome: %v", uerr)
		return
	}
	if e.Kind == queue.KindReview && (ae == nil || x.State == queue.Failed || x.State == queue.Done) {
		status, detail := review.StatusFailed, x.LastError
		if x.Outcome != nil && (ae == nil || x.State == queue.Done) {
			status, detail = x.Outcome.Status, x.Outcome.Summary
		}
		w.history.AppendReview(e.SessionID, e.ReviewID, status, detail)
	}
	switch {
	case ae == nil:
		res.Done++
		w.logf(e.ID, "done: %s", out.Summary)
		w.shareRemote(ctx, e, out)
		if err := w.store.Prune(keepDone); err != nil {
			w.logf("", "prune: %v", err)
		}
	case ae.turn && x.State == queue.Done:
		res.Done++
		w.logf(e.ID, "%s", x.Outcome.Summary)
	case ae.turn:
		w.logf(e.ID, "interrupted by a new user turn (%d of %d); queued again", x.Interruptions, queue.MaxInterruptions)
	case ae.interrupted:
		w.logf(e.ID, "interrupted: %s; queued again", ae.msg)
	case ae.transient && e.Attempts < s.MaxAttempts:
		res.Retried++
		w.logf(e.ID, "attempt %d failed: %s; next attempt in %s", e.Attempts, ae.msg, s.Backoff(e.Attempts))
	default:
		res.Failed++
		w.logf(e.ID, "failed, parked: %s", ae.msg)
	}
}

func describe(e queue.Entry) string {
	if e.Kind == queue.KindCurator {
		return "scheduled curator run"
	}
	what := []string{}
	if e.Due.Memory {
		what = append(what, "memory")
	}
	if e.Due.Skills {
		what = append(what, "skills")
	}
	if len(what) == 0 {
		what = append(what, "skills")
	}
	kind := "review"
	if e.Due.Final {
		kind = "final review"
	}
	return fmt.Sprintf("%s of %s (session %s, %s) as %s", kind, strings.Join(what, " and "), e.SessionID, e.Transcript, e.ReviewID)
}

func (w *worker) runReview(ctx context.Context, e queue.Entry, s Settings) (*queue.Outcome, error) {
	lib, err := skillrepo.Open(w.opts.Dir, skillrepo.OpenOptions{Getenv: w.opts.Getenv, Now: w.opts.Now})
	if err != nil {
		return nil, err
	}
	defer lib.Close()
	format, err := review.ParseFormat(cmp.Or(e.Format, "auto"))
	if err != nil {
		return nil, &attemptError{msg: err.Error()}
	}
	f, err := boundedread.OpenNoFollow(e.Transcript) // a FIFO must not hang the worker, nor a link send another file
	if err != nil {
		return nil, &attemptError{msg: fmt.Sprintf("read transcript: %v", err)}
	}
	tr, err := review.Read(f, e.Transcript, format)
	f.Close()
	if err != nil {
		return nil, &attemptError{msg: err.Error()}
	}
	p, err := w.plan(lib.Config.Review, e, tr.Model, tr.Provider, tr.Cwd)
	if err != nil {
		return nil, &attemptError{msg: err.Error() + "; then 'skillrepo queue retry " + e.ID + "'"}
	}
	// A review that competes with the agent for a model on this machine
	// gives way to a new user turn (docs/reference-behaviour.md §2.7).
	interruptible := s.Review.Defer == config.DeferAuto && p.deferred(s.Review.Defer)
	if _, err := w.store.Update(e.ID, func(x *queue.Entry) error {
		x.Backend, x.Interruptible = p.backend, interruptible
		return nil
	}); err != nil {
		w.logf(e.ID, "record the backend: %v", err)
	}
	project := sessionProject(tr, e)
	p.program.ReadProject = project != ""
	backend, err := p.modelBackend(s, w.opts.Serve)
	if err != nil {
		return nil, &attemptError{msg: err.Error() + "; fix review.base_url or OPENAI_BASE_URL, then 'skillrepo queue retry " + e.ID + "'"}
	}
	if p.backend == agentcli.BackendAgent {
		w.logf(e.ID, "backend: %s (%s), model %s", p.program.Path, e.Agent, p.model)
	}
	resume := p.resume(e)
	ropts := review.OptionsFor(lib, tr, e.Due.Memory, e.Due.Skills)
	ropts.SessionID, ropts.ReviewID, ropts.GoalID, ropts.Now = e.SessionID, e.ReviewID, e.GoalID, w.opts.Now
	ropts.Model, ropts.Backend, ropts.Resume, ropts.Project = p.model, backend, resume, project
	sum, err := review.Run(ctx, review.Open(lib), ropts)
	if err != nil {
		return nil, err
	}
	out := &queue.Outcome{
		Status: sum.Status, Summary: sum.Brief(), Proposal: sum.Proposal, Merged: sum.Merged,
		MergeCommit: sum.MergeCommit, MergeError: sum.MergeError, Applied: len(sum.Applied), Staged: len(sum.Staged),
		Backend: p.backend, Model: p.model,
	}
	if sum.Status != review.StatusFailed {
		return out, nil
	}
	switch {
	case errors.Is(context.Cause(ctx), errTurn):
		_ = rejectAttempt(context.WithoutCancel(ctx), lib, e.ReviewID, "a new user turn interrupted this attempt; the queue runs the review again")
		return out, &attemptError{msg: sum.Reason, interrupted: true, turn: true}
	case ctx.Err() != nil:
		_ = rejectAttempt(context.WithoutCancel(ctx), lib, e.ReviewID, "the worker was stopped during this attempt")
		return out, &attemptError{msg: sum.Reason, interrupted: true}
	case sum.RetryLater:
		// The attempt's partial writes go aside, so the next attempt
		// starts from main as it will be then.
		if err := rejectAttempt(context.WithoutCancel(ctx), lib, e.ReviewID, "attempt failed ("+sum.Reason+"); the queue retries the review"); err != nil {
			w.logf(e.ID, "%v", err)
		}
		return out, &attemptError{msg: sum.Reason, transient: true}
	}
	return out, &attemptError{msg: sum.Reason}
}

func (w *worker) runCurator(ctx context.Context, e queue.Entry, s Settings) (*queue.Outcome, error) {
	lib, err := skillrepo.Open(w.opts.Dir, skillrepo.OpenOptions{Getenv: w.opts.Getenv, Now: w.opts.Now})
	if err != nil {
		return nil, err
	}
	defer lib.Close()
	c := &curator.Curator{Lib: lib, Now: w.opts.Now, Agents: w.opts.Unattended}
	var cons *curator.ConsolidateOptions
	if cc := lib.Config.Curator; cc.Consolidate {
		// The scheduled run consolidates too, through the backend a
		// review of the session that queued it would use, with
		// curator.model and curator.base_url first.
		rc := lib.Config.Review
		rc.Model, rc.BaseURL = cmp.Or(cc.Model, rc.Model), cmp.Or(cc.BaseURL, rc.BaseURL)
		p, err := w.plan(rc, e, e.Model, "", e.Cwd)
		if err != nil {
			return nil, &attemptError{msg: "curator.consolidate is on, but " + err.Error()}
		}
		backend, err := p.modelBackend(s, w.opts.Serve)
		if err != nil {
			return nil, &attemptError{msg: "curator.consolidate is on, but " + err.Error()}
		}
		w.logf(e.ID, "consolidation through the %s backend, model %s", p.backend, p.model)
		cons = &curator.ConsolidateOptions{Model: p.model, Backend: backend, WriteApproval: cc.WriteApproval}
	}
	out, err := c.Run(ctx, curator.RunOptions{IfDue: true, Consolidate: cons})
	switch {
	case errors.Is(err, curator.ErrDisabled):
		return &queue.Outcome{Status: "skipped", Summary: err.Error()}, nil
	case errors.Is(err, skillrepo.ErrConflict):
		return nil, &attemptError{msg: err.Error(), transient: true}
	case err != nil:
		return nil, err
	}
	if out.Run == nil {
		return &queue.Outcome{Status: "skipped", Summary: out.Skipped}, nil
	}
	return &queue.Outcome{Status: "ran", Summary: curator.Summary(out.Run.Counts, false), Merged: out.Run.MergeCommit != "", MergeCommit: out.Run.MergeCommit}, nil
}
