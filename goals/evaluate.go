package goals

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// Turn is what an agent's Stop hook tells us about the turn that just
// ended.
type Turn struct {
	Session string
	// LastMessage is the agent's final text of the turn (the hook's
	// last_assistant_message; never read from the transcript, which may
	// lag behind).
	LastMessage string
	Background  []Task
	// StopHookActive is set when this turn was itself a continuation.
	StopHookActive bool
}

// Action is what the agent should do after a turn.
type Action int

// The actions.
const (
	// Allow lets the agent stop.
	Allow Action = iota
	// Block keeps the agent working, with Outcome.Prompt as its next
	// instruction.
	Block
)

// Outcome is the evaluator's answer for one turn.
type Outcome struct {
	Action Action
	// Prompt is the continuation prompt (Block only).
	Prompt string
	// Message is a line for the user (the agent's systemMessage); empty
	// when there is nothing to say (no goal).
	Message string
	// Judged is set when the judge was asked.
	Judged bool
	// State is the goal after the turn (nil: no goal).
	State *State
	// Err is a failure of ours that was swallowed: the agent was let stop.
	Err error
}

// Evaluator runs the goal loop after each turn. Its zero fields take
// sensible defaults; Store and Judge are required.
type Evaluator struct {
	Store Store
	Judge *Judge
	Now   func() time.Time
	// Alive reports whether a process runs (default: signal 0).
	Alive func(pid int) bool
	// OnDone, if set, is called once a goal is done (after it is saved),
	// e.g. to queue the session's transcript for review.
	OnDone func(State)
}

func (e *Evaluator) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

func (e *Evaluator) alive(pid int) bool {
	if e.Alive != nil {
		return e.Alive(pid)
	}
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// HasGoal is the cheap check a hook makes first: one stat, no lock, so a
// session without a goal costs next to nothing.
func (s Store) HasGoal(session string) bool {
	if ValidSession(session) != nil {
		return false
	}
	_, err := os.Stat(s.path(session))
	return err == nil
}

// AfterTurn decides what the agent does after a turn. It never returns an
// error: every failure of ours lets the agent stop, and is reported in
// Outcome.Err and Outcome.Message.
func (e *Evaluator) AfterTurn(ctx context.Context, t Turn) Outcome {
	if !e.Store.HasGoal(t.Session) {
		return Outcome{}
	}
	now := e.now()
	var early *Outcome
	st, err := e.Store.Update(t.Session, func(st *State) error {
		o := e.beforeJudge(st, t, now)
		if o != nil {
			early = o
			return nil
		}
		st.TurnsUsed++
		st.LastTurnAt = now.UTC()
		st.ContinuationPending = false
		return nil
	})
	if errors.Is(err, ErrNoGoal) {
		return Outcome{} // cleared between the stat and the lock
	}
	if err != nil {
		return failOpen(err, nil)
	}
	if early != nil {
		early.State = &st
		return *early
	}

	text, askErr := e.Judge.Ask(ctx, st, t.LastMessage, t.Background, now)
	var verdict Verdict
	var parseErr error
	if askErr == nil {
		verdict, parseErr = ParseVerdict(text)
	}
	verdict.At, verdict.Turn = now.UTC(), st.TurnsUsed

	var out Outcome
	st, err = e.Store.Update(t.Session, func(cur *State) error {
		if cur.Status != Active || cur.ID != st.ID {
			// Cleared, paused or replaced while the judge thought.
			out = Outcome{Message: fmt.Sprintf("Goal is %s; the agent may stop.", cur.Status)}
			return nil
		}
		out = e.apply(cur, verdict, askErr, parseErr, now)
		return nil
	})
	if err != nil {
		return failOpen(err, &st)
	}
	out.Judged, out.State = true, &st
	if st.Status == Done && e.OnDone != nil {
		e.OnDone(st)
	}
	return out
}

func failOpen(err error, st *State) Outcome {
	return Outcome{Message: "Goal check failed; the agent may stop: " + err.Error(), Err: err, State: st}
}

// beforeJudge handles the turns that are never judged: a goal not active,
// parked behind a barrier, a reply with no text, or a spent budget.
func (e *Evaluator) beforeJudge(st *State, t Turn, now time.Time) *Outcome {
	if st.Status != Active {
		return &Outcome{}
	}
	if w := st.Waiting; w != nil {
		if (w.PID > 0 && e.alive(w.PID)) || (!w.Until.IsZero() && now.Before(w.Until)) {
			return &Outcome{Message: "⏳ Goal parked: " + describeBarrier(w, now)}
		}
		st.Waiting = nil
	}
	if t.LastMessage == "" {
		return &Outcome{}
	}
	if st.TurnsUsed >= st.MaxTurns {
		st.Status, st.PausedReason = Paused, budgetReason(st)
		return &Outcome{Message: "⏸ " + st.PausedReason}
	}
	return nil
}

func budgetReason(st *State) string {
	return fmt.Sprintf("Goal paused: %d/%d turns used. Run `skillrepo goal resume` to give it another %d turns, or `skillrepo goal clear`.",
		st.TurnsUsed, st.MaxTurns, st.MaxTurns)
}

func describeBarrier(w *Barrier, now time.Time) string {
	switch {
	case w.PID > 0 && !w.Until.IsZero():
		return fmt.Sprintf("waiting for process %d or until %s (%s)", w.PID, w.Until.Format(time.RFC3339), w.Reason)
	case w.PID > 0:
		return fmt.Sprintf("waiting for process %d to end (%s)", w.PID, w.Reason)
	default:
		return fmt.Sprintf("waiting %s more (%s)", w.Until.Sub(now).Round(time.Second), w.Reason)
	}
}

// apply records the judge's answer on the goal and decides the outcome.
// The judge fails open, as the reference's does
// (docs/reference-behaviour.md §9): an error or an unreachable judge
// means continue (a broken judge must not stall the work; the turn budget
// bounds it) and is not a parse failure; a reply with no verdict means
// continue too, and three of them in a row pause the goal with advice.
func (e *Evaluator) apply(st *State, v Verdict, askErr, parseErr error, now time.Time) Outcome {
	switch {
	case askErr != nil:
		st.JudgeFailures++
		st.LastVerdict, st.LastReason = "error", askErr.Error()
		return e.proceed(st, "", "Goal judge unavailable ("+askErr.Error()+"), so the agent goes on", askErr)
	case parseErr != nil:
		st.ConsecutiveParseFailures++
		st.LastVerdict, st.LastReason = "parse_failed", parseErr.Error()
		if st.ConsecutiveParseFailures >= MaxParseFailures {
			st.Status = Paused
			st.PausedReason = fmt.Sprintf("Goal paused: the judge's last %d replies held no verdict. Choose a stricter judge model (goals.model in .skillrepo/config.yaml), then `skillrepo goal resume`.", st.ConsecutiveParseFailures)
			return Outcome{Message: "⏸ " + st.PausedReason, Err: parseErr}
		}
		return e.proceed(st, "", "Goal judge's reply held no verdict, so the agent goes on", parseErr)
	}
	st.ConsecutiveParseFailures = 0
	st.LastVerdict, st.LastReason = v.Verdict, v.Reason
	st.Verdicts = append(st.Verdicts, v)
	switch v.Verdict {
	case VerdictDone:
		st.Status = Done
		return Outcome{Message: "✓ Goal achieved: " + nonEmpty(v.Reason, "the judge says it is done")}
	case VerdictWait:
		w := &Barrier{PID: v.WaitPID, Reason: nonEmpty(v.Reason, "the judge asked to wait"), Since: now.UTC()}
		if v.WaitFor > 0 {
			w.Until = now.Add(time.Duration(v.WaitFor * float64(time.Second))).UTC()
		}
		st.Waiting = w
		return Outcome{Message: "⏳ Goal parked: " + describeBarrier(w, now)}
	}
	return e.proceed(st, v.Reason, "↻ Continuing toward the goal", nil)
}

// proceed continues toward the goal, unless its turn budget is spent
// (then it pauses): the continuation prompt, with the judge's reason
// when there is one, and a line for the person.
func (e *Evaluator) proceed(st *State, reason, say string, err error) Outcome {
	if st.TurnsUsed >= st.MaxTurns {
		st.Status, st.PausedReason = Paused, budgetReason(st)
		return Outcome{Message: "⏸ " + st.PausedReason, Err: err}
	}
	st.ContinuationPending = true
	return Outcome{
		Action:  Block,
		Prompt:  ContinuationPrompt(*st, reason),
		Message: fmt.Sprintf("%s (%d/%d): %s", say, st.TurnsUsed, st.MaxTurns, nonEmpty(reason, "not done yet")),
		Err:     err,
	}
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// UserPrompt handles a prompt the user typed. A prompt while a
// continuation we asked for was pending means that turn ended without
// reaching our Stop hook (the user interrupted it, or the agent's own cap
// overrode us): the goal is paused, and the user's message takes
// precedence. It reports whether the goal was paused.
func (e *Evaluator) UserPrompt(session string) (bool, error) {
	if !e.Store.HasGoal(session) {
		return false, nil
	}
	paused := false
	_, err := e.Store.Update(session, func(st *State) error {
		if st.Status == Active && st.ContinuationPending {
			st.Status, st.ContinuationPending = Paused, false
			st.PausedReason = "Goal paused: the user interrupted a continuation turn. Run `skillrepo goal resume` to pick it up again."
			paused = true
		}
		return nil
	})
	return paused, err
}

// Wake clears a barrier that has passed, at the start of a session, so a
// parked goal is judged again at the next turn's end. It reports whether
// the goal is active.
func (e *Evaluator) Wake(session string) (bool, error) {
	if !e.Store.HasGoal(session) {
		return false, nil
	}
	now := e.now()
	st, err := e.Store.Update(session, func(st *State) error {
		if w := st.Waiting; w != nil && !(w.PID > 0 && e.alive(w.PID)) && !(!w.Until.IsZero() && now.Before(w.Until)) {
			st.Waiting = nil
		}
		return nil
	})
	return err == nil && st.Status == Active, err
}
