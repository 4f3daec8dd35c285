package agentsession

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/worker"
)

// sessionEnd queues a final review of what the counters had not yet sent
// to a review, and makes sure a worker runs.
func (h *hookRun) sessionEnd() error {
	h.touch()
	if tip, err := h.lib.MainTip(); err == nil {
		if _, err := seeTip(h.state().Hooks(), h.in.SessionID, tip.String(), h.now); err != nil {
			h.rep.notef("skills seen: %v", err)
		}
	}
	pruneMarkers(h.state().Hooks(), h.now)
	err := h.finalReview()
	h.ensureWorker()
	return err
}

// finalReview, at the end of a session, queues a review only when a
// nudge is pending (the reference flushes a deferred review, it does not
// start one): a nudge that fired with the session's last turn, or a
// review of the session still waiting in the queue, which takes the
// final transcript. Nothing for an interrupted last turn, for turns no
// nudge asked for, for a batch session or with reviews off; the hooks log
// says which. A nudge counts only for turns no review has taken: the
// last text block Claude Code writes after the Stop hook ran is one more
// model iteration of a turn Stop's review already took, not a turn of its
// own, so it queues no second review whether that review waits (it reads
// the final transcript), runs or is done.
func (h *hookRun) finalReview() error {
	if h.in.SessionID == "" {
		return errors.New("SessionEnd event without session_id")
	}
	if !h.lib.Config.Review.FinalReview {
		return nil
	}
	if why := h.reviewGate(); why != "" {
		h.rep.notef("%s", why)
		return nil
	}
	d, memoryOK, err := h.advance()
	if err != nil {
		return err
	}
	reason := fmt.Sprintf("final review at SessionEnd (%s)", cmp.Or(h.in.Reason, "end"))
	if d.Due() {
		if c, err := h.counters().Load(h.in.SessionID); err == nil && c.ReviewedTurns > 0 && c.TurnsSeen <= c.ReviewedTurns {
			if waiting, err := h.waitingReview(); err != nil || waiting != nil {
				if err != nil {
					return err
				}
				return h.enqueueReview(queue.Due{Memory: waiting.Due.Memory, Skills: waiting.Due.Skills, Final: true, Reason: reason + ": the pending review takes the final transcript"}, "")
			}
			h.rep.notef("no final review: review %s took every turn of the session (%d); %d new model iterations belong to them", c.LastReviewID, c.ReviewedTurns, d.NewIterations)
			return nil
		}
	}
	switch {
	case d.Due():
		return h.enqueueReview(queue.Due{Memory: d.Memory && memoryOK, Skills: d.Skills, Final: true, Reason: reason + ": a nudge fired with the last turn"}, "")
	case d.Skip != "" && (d.Memory || d.Skills):
		h.rep.notef("a nudge fired, but %s: no final review", d.Skip)
		return nil
	}
	waiting, err := h.waitingReview()
	if err != nil || waiting == nil {
		if err == nil {
			h.rep.notef("no final review: no nudge is pending (%d new turns, %d new model iterations)", d.NewTurns, d.NewIterations)
		}
		return err
	}
	// The waiting review takes the final transcript.
	return h.enqueueReview(queue.Due{Memory: waiting.Due.Memory, Skills: waiting.Due.Skills, Final: true, Reason: reason + ": the pending review takes the final transcript"}, "")
}

// waitingReview is this session's review still waiting in the queue
// (nil: none).
func (h *hookRun) waitingReview() (*queue.Entry, error) {
	entries, err := queue.New(h.state().Queue()).List()
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Kind == queue.KindReview && e.State == queue.Queued && e.SessionID == h.in.SessionID && e.Attempts == 0 {
			return &e, nil
		}
	}
	return nil, nil
}

// ensureWorker starts a worker when work is queued and none runs, at
// most once per hook: a worker just started takes its lock only a moment
// later, so asking again would start a second one (which exits at once).
func (h *hookRun) ensureWorker() {
	if h.opts.StartWorker == nil || h.workerStarted || worker.Running(h.state().Worker()) {
		return
	}
	entries, err := queue.New(h.state().Queue()).List()
	if err != nil {
		h.rep.notef("queue: %v", err)
		return
	}
	if queue.Counts(entries)[queue.Queued] == 0 {
		return
	}
	if err := h.opts.StartWorker(h.lib); err != nil {
		h.rep.notef("start worker: %v", err)
		return
	}
	h.workerStarted = true
	h.rep.notef("started a worker")
}
