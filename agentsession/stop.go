package agentsession

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/skillrepo/skillrepo/agentcli"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo/memory"
)

// stop asks the Stop judge first, then advances the session's nudge
// counters over the transcript and queues a review when one is due. It
// prints only a judge's decision.
func (h *hookRun) stop(ctx context.Context) error {
	var decision *StopDecision
	if h.opts.StopJudge != nil {
		d, err := h.opts.StopJudge(ctx, h.opts.Agent.Name(), h.in, h.lib)
		if err != nil {
			h.rep.notef("stop judge failed, letting the agent stop: %v", err)
		} else {
			decision = d
		}
	}
	h.touch()
	err := h.nudge()
	if decision != nil {
		if perr := h.printDecision(decision); perr != nil {
			return perr
		}
		if decision.ReviewGoal != "" {
			if qerr := h.goalReview(decision.ReviewGoal); qerr != nil && err == nil {
				err = qerr
			}
		}
	}
	return err
}

// goalReview queues the review of a session whose goal was reached, and
// sets the session's counters to 0: that review covers every turn so far,
// so no nudge reviews the same turns again.
func (h *hookRun) goalReview(goalID string) error {
	if why := h.reviewGate(); why != "" {
		h.rep.notef("goal %s reached; %s", goalID, why)
		return nil
	}
	due := queue.Due{Memory: true, Skills: true, Reason: "goal " + goalID + " achieved"}
	if err := h.enqueueReview(due, goalID); err != nil {
		return err
	}
	return h.updateCounters(func(c *review.Counters) { c.TurnsSinceMemory, c.IterationsSinceSkill = 0, 0 })
}

// userPrompt tells the goal loop a person typed a prompt, and tells the
// person what a review of this session (or another) learned since they
// were last told. The lines go to the user; stdout of UserPromptSubmit
// is context for the model, so they are sent as a systemMessage.
func (h *hookRun) userPrompt() error {
	h.touch()
	h.interruptReviews()
	var msg string
	var err error
	if h.opts.Goals != nil && h.in.SessionID != "" {
		msg, err = h.opts.Goals.UserPrompt(h.lib, h.in.SessionID)
	}
	lines := nonEmpty(msg, h.newsLines())
	if len(lines) == 0 {
		return err
	}
	if rerr := h.reply(map[string]any{"systemMessage": strings.Join(lines, "\n")}); rerr != nil {
		return rerr
	}
	return err
}

// nonEmpty are the lines that say something.
func nonEmpty(lines ...string) []string {
	var out []string
	for _, l := range lines {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func (h *hookRun) printDecision(d *StopDecision) error {
	if out := h.opts.Agent.StopReply(d.Block && d.Reason != "", d.Reason, d.Message, d.Context); len(out) > 0 {
		return h.reply(out)
	}
	return nil
}

func (h *hookRun) intervals() (review.Intervals, bool) {
	_, memErr := h.lib.Memory().Path(memory.Memory)
	iv := review.Intervals{Memory: h.lib.Config.Review.MemoryInterval, Skill: h.lib.Config.Review.SkillInterval}
	if memErr != nil {
		iv.Memory = 0
	}
	return iv, memErr == nil
}

func (h *hookRun) counters() review.CounterStore {
	return review.CounterStore{Dir: h.state().ReviewSessions()}
}

// nudge advances the counters and queues a review when a nudge fired
// (docs/reference-behaviour.md §1.2–§1.5): never for an interrupted turn
// or one without a final answer, never when reviews are off or the
// session is a batch one.
func (h *hookRun) nudge() error {
	if h.in.SessionID == "" {
		return errors.New("the Stop event has no session_id")
	}
	if why := h.reviewGate(); why != "" {
		h.rep.notef("%s", why)
		return nil
	}
	d, memoryOK, err := h.advance()
	if err != nil {
		return err
	}
	if !d.Due() {
		if d.Skip != "" && (d.Memory || d.Skills) {
			h.rep.notef("a nudge fired, but %s: no review queued", d.Skip)
		}
		return nil
	}
	reason := fmt.Sprintf("due at Stop: %d new turns, %d new model iterations", d.NewTurns, d.NewIterations)
	return h.enqueueReview(queue.Due{Memory: d.Memory && memoryOK, Skills: d.Skills, Reason: reason}, "")
}

// advance moves the session's nudge counters over what the transcript
// gained (the part after the mark for Claude Code, else the whole file,
// of which the counters skip what they saw) and saves them.
func (h *hookRun) advance() (review.Decision, bool, error) {
	iv, memoryOK := h.intervals()
	if h.opts.Agent.TranscriptFormat() == review.FormatClaudeCode {
		d, handled, err := h.checkIncremental(h.transcriptAbs(), iv)
		if err != nil || handled {
			return d, memoryOK, err
		}
	}
	tr, err := h.readTranscript()
	if err != nil || tr == nil {
		return review.Decision{}, memoryOK, err
	}
	d, err := h.counters().Check(h.in.SessionID, tr, iv, h.now, true)
	if err != nil {
		return d, memoryOK, err
	}
	if h.opts.Agent.TranscriptFormat() == review.FormatClaudeCode {
		h.markWhole(h.in.TranscriptPath)
	}
	return d, memoryOK, nil
}

func (h *hookRun) enqueueReview(due queue.Due, goalID string) error {
	format := string(h.opts.Agent.TranscriptFormat())
	// How the session runs, so the review runs as it would whichever
	// session's worker takes it: its model, folder, program and the
	// environment that reaches its model.
	getenv := h.opts.Getenv
	program := h.agentProgram()
	e, merged, err := queue.New(h.state().Queue()).Enqueue(queue.Entry{Kind: queue.KindReview, Agent: string(h.opts.Agent.Name()), SessionID: h.in.SessionID,
		Transcript: h.in.TranscriptPath, Format: format, Due: due, GoalID: goalID,
		Model: h.in.Model, Cwd: h.in.Cwd, Program: program, Env: queue.SessionEnv(getenv)})
	if err != nil {
		return err
	}
	if merged {
		h.rep.notef("merged into queued review %s (%s)", e.ID, due.Reason)
	} else {
		h.rep.notef("queued review %s (%s)", e.ID, due.Reason)
	}
	if err := h.reviewedTurns(e.ID); err != nil {
		h.rep.notef("review counters: %v", err)
	}
	h.ensureWorker()
	return nil
}

// reviewedTurns records that review id takes every user turn the
// session's counters have seen, so the final review at SessionEnd covers
// only turns after them (one review per turn).
func (h *hookRun) reviewedTurns(id string) error {
	return h.updateCounters(func(c *review.Counters) { c.ReviewedTurns, c.LastReviewID = c.TurnsSeen, id })
}

// updateCounters changes the session's counters under their lock.
func (h *hookRun) updateCounters(change func(*review.Counters)) error {
	store := h.counters()
	unlock, err := store.Lock(h.in.SessionID)
	if err != nil {
		return err
	}
	defer unlock()
	c, err := store.Load(h.in.SessionID)
	if err != nil {
		return err
	}
	change(&c)
	c.UpdatedAt = h.now
	return store.Save(c)
}

// agentProgram is the session's agent program: the one running this hook
// (among its parent processes), else the one on the session's PATH.
func (h *hookRun) agentProgram() string {
	if p := agentcli.Running(string(h.opts.Agent.Name())); p != "" {
		return p
	}
	return agentcli.Find(string(h.opts.Agent.Name()), h.opts.Getenv("PATH"))
}
