package agentsession

import (
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/queue"
)

// SessionPruner is an agent whose session files are skillrepo's own
// copies (OpenCode's plugin module writes them, docs/agents.md
// "OpenCode"): a session start removes the old ones, never one a review
// of this library still waits for.
type SessionPruner interface {
	PruneSessions(h agent.Homes, now time.Time, keep func(path string) bool) (int, error)
}

// pruneSessions runs the agent's pruner, if it has one.
func (h *hookRun) pruneSessions() {
	p, ok := h.opts.Agent.(SessionPruner)
	if !ok {
		return
	}
	waiting := map[string]bool{}
	entries, err := queue.New(h.state().Queue()).List()
	if err != nil {
		// Without the queue, nothing is known to be consumed.
		h.rep.notef("session files not pruned: %v", err)
		return
	}
	for _, e := range entries {
		if e.Transcript != "" && (e.State == queue.Queued || e.State == queue.Running) {
			waiting[filepath.Clean(e.Transcript)] = true
		}
	}
	homes := agent.HomesFrom(h.opts.Getenv("HOME"), h.opts.Getenv)
	n, err := p.PruneSessions(homes, h.now, func(path string) bool { return waiting[filepath.Clean(path)] })
	if err != nil {
		h.rep.notef("pruning session files: %v", err)
	}
	if n > 0 {
		h.rep.notef("removed %d old session files", n)
	}
}
