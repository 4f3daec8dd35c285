package agentsession

import (
	"fmt"
	"path/filepath"

	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/worker"
)

// EnvReview, set to "off" in a session's environment, marks it a batch
// session: its hooks queue no review (cron jobs, scripted runs), as the
// reference reviews no scheduled job (docs/reference-behaviour.md §1.5);
// "on" reviews a session its agent says is headless.
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
	if a, ok := h.opts.Agent.(headless); ok && h.opts.Getenv(EnvReview) != "on" {
		if yes, how := a.Headless(h.opts.Getenv, h.in.TranscriptPath); yes {
			return fmt.Sprintf("a headless session (%s): no review queued; %s=on reviews it", how, EnvReview)
		}
	}
	return ""
}

// headless is an agent that tells a scripted, non-interactive session
// (its print mode, exec, an SDK) from one a person sits at, by the
// environment its hooks run in or the session's file: such a session is
// the reference's scheduled job, not reviewed by default
// (docs/reference-behaviour.md §1.5). how says what told.
type headless interface {
	Headless(getenv func(string) string, transcript string) (yes bool, how string)
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
	var line string
	_, err = toldStore(h.state().Hooks()).Update(func(told *map[string]bool) error {
		if *told == nil {
			*told = map[string]bool{}
		}
		line = health.Line(*told)
		// Forget what is no longer failing, so the file stays small.
		live := map[string]bool{}
		for _, e := range append(health.Failed, health.Retrying...) {
			live[e.ID+"/"+e.LastError] = true
		}
		for k := range *told {
			if !live[k] {
				delete(*told, k)
			}
		}
		return nil
	})
	if err != nil {
		// Unreadable or unwritable: tell rather than keep quiet.
		h.rep.notef("told: %v", err)
		if line == "" {
			line = health.Line(map[string]bool{})
		}
	}
	if line != "" {
		h.rep.notef("told the person: %s", line)
	}
	return line
}

// toldStore is the told file. A broken one is set aside and what it held
// is told again: a line twice beats a failure never said.
func toldStore(hooksDir string) statefile.File[map[string]bool] {
	return statefile.File[map[string]bool]{Path: filepath.Join(hooksDir, toldFile), Limit: maxStateFile, Perm: 0o644, Sync: true, Reset: true}
}
