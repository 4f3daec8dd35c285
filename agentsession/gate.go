package agentsession

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/worker"
)

// EnvReview, set to "off" in a session's environment, marks it a batch
// session: its hooks queue no review (cron jobs, scripted runs), as the
// reference reviews no scheduled job (docs/reference-behaviour.md §1.5).
const EnvReview = "SKILLREPO_REVIEW"

// reviewGate says why this session queues no review ("" when it may):
// reviews switched off, a batch session, or no transcript to review
// (`codex exec --ephemeral` writes none). The reason goes to the hooks
// log, so a session that learns nothing says why.
func (h *hookRun) reviewGate() string {
	switch {
	case !h.lib.Config.Review.Enabled:
		return "review.enabled is false: no review queued"
	case h.opts.Getenv(EnvReview) == "off":
		return fmt.Sprintf("a batch session (%s=off): no review queued", EnvReview)
	case h.in.TranscriptPath == "":
		return "the session has no transcript (an ephemeral or batch run): no review queued"
	}
	return ""
}

// toldFile remembers which review failures the person was told of at a
// session start, so each is said once.
const toldFile = "told.json"

// troubleLine is the line a session start shows the person when reviews
// cannot run or failed since they were last told; "" when all is well.
func (h *hookRun) troubleLine() string {
	entries, err := queue.New(h.state().Queue()).List()
	if err != nil {
		h.rep.notef("queue: %v", err)
		return ""
	}
	health := worker.CheckHealth(entries, h.lib.Config.Review, string(h.opts.Agent.Name()), h.opts.Getenv)
	if health.OK() {
		return ""
	}
	p := filepath.Join(h.state().Hooks(), toldFile)
	data, _ := boundedread.ReadFile(p, maxStateFile)
	told := parseTold(data)
	line := health.Line(told)
	// Forget what is no longer failing, so the file stays small.
	live := map[string]bool{}
	for _, e := range append(health.Failed, health.Retrying...) {
		live[e.ID+"/"+e.LastError] = true
	}
	for k := range told {
		if !live[k] {
			delete(told, k)
		}
	}
	if data, err := json.Marshal(told); err == nil {
		if err := writeState(p, data); err != nil {
			h.rep.notef("told: %v", err)
		}
	}
	if line != "" {
		h.rep.notef("told the person: %s", line)
	}
	return line
}

// parseTold decodes the told file: what a broken one held is told again.
func parseTold(data []byte) map[string]bool {
	told := map[string]bool{}
	if json.Unmarshal(data, &told) != nil || told == nil {
		return map[string]bool{}
	}
	return told
}
