package agentsession

import (
	"time"

	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/worker"
)

// interruptWait is how long a new user turn waits for an interrupted
// review to stop, as the reference waits at most two seconds
// (docs/reference-behaviour.md §2.7): by then the local model is the
// turn's. The hook's own timeout (5 s) is above it.
const interruptWait = 2 * time.Second

// interruptReviews gives the model back to a new user turn: a running
// review that competes with the agent for a model on this machine
// (review.defer: auto) is asked to stop, in its queue entry, which the
// worker polls; the worker rejects what the attempt wrote and queues the
// review again, at most queue.MaxInterruptions times, then drops it. No
// process is signalled: the worker is the only one that ends its work.
// The hook waits up to interruptWait for the review to stop, and the
// hooks log says what it did.
func (h *hookRun) interruptReviews() {
	if !worker.Running(h.state().Worker()) {
		return // no review runs (a running entry without a worker is a crash's, for the next worker)
	}
	store := queue.New(h.state().Queue())
	asked, err := store.RequestInterrupt()
	if err != nil {
		h.rep.notef("interrupt a running review: %v", err)
	}
	deadline := time.Now().Add(interruptWait)
	for _, e := range asked {
		for {
			x, err := store.Get(e.ID)
			if err != nil || x.State != queue.Running || x.ReviewID != e.ReviewID {
				break
			}
			if !time.Now().Before(deadline) {
				h.rep.notef("asked review %s (%s) to stop for the new turn; it was still running after %s", e.ID, e.ReviewID, interruptWait)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		x, err := store.Get(e.ID)
		if err != nil {
			h.rep.notef("asked review %s (%s) to stop for the new turn: %v", e.ID, e.ReviewID, err)
			continue
		}
		// A review queued again may be taken up by the worker before this
		// reads it: a new review id says it was queued again all the same.
		switch requeued := x.State == queue.Queued || x.ReviewID != e.ReviewID; {
		case x.State == queue.Done && x.Outcome != nil && !requeued:
			h.rep.notef("interrupted review %s (%s) for the new turn: %s", e.ID, e.ReviewID, x.Outcome.Summary)
		case requeued:
			h.rep.notef("interrupted review %s (%s) for the new turn: it competes for the local model; queued again (%d of %d interruptions)",
				e.ID, e.ReviewID, x.Interruptions, queue.MaxInterruptions)
		}
	}
}
