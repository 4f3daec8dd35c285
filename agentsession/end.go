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

func (h *hookRun) finalReview() error {
	if h.in.SessionID == "" {
		return errors.New("SessionEnd event without session_id")
	}
	if h.in.TranscriptPath == "" || !h.lib.Config.Review.FinalReview {
		return nil
	}
	d, memoryOK, err := h.advance()
	if err != nil {
		return err
	}
	iv, _ := h.intervals()
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
	// What a due count just handed over (even when the last turn was cut
	// short: the session is over) and what the counters still hold.
	memoryDue := memoryOK && iv.Memory > 0 && (d.Memory || c.TurnsSinceMemory > 0)
	skillsDue := iv.Skill > 0 && (d.Skills || c.IterationsSinceSkill > 0)
	if !memoryDue && !skillsDue {
		return nil
	}
	reason := fmt.Sprintf("final review at SessionEnd (%s): %d turns and %d model iterations not yet reviewed", cmp.Or(h.in.Reason, "end"), c.TurnsSinceMemory, c.IterationsSinceSkill)
	// The counters hand what they held to the queue.
	c.TurnsSinceMemory, c.IterationsSinceSkill, c.UpdatedAt = 0, 0, h.now
	if err := store.Save(c); err != nil {
		return err
	}
	return h.enqueueReview(queue.Due{Memory: memoryDue, Skills: skillsDue, Final: true, Reason: reason}, "")
}

// ensureWorker starts a worker when work is queued and none runs.
func (h *hookRun) ensureWorker() {
	if h.opts.StartWorker == nil || worker.Running(h.state().Worker()) {
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
	h.rep.notef("started a worker")
}
