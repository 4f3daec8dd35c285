package agentsession

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// welcomeFile remembers that the person was told, at the first session
// start after set-up, when reviews come (docs/agents.md, "Told in the
// agent"): once per clone of the library, whichever agent starts first.
const welcomeFile = "welcome.json"

type welcomeState struct {
	Version int       `json:"version"`
	Told    time.Time `json:"told"`
}

// welcomeLine is the one-time line of the first session start: with the
// reference's intervals a short session is never reviewed, and a person
// who sees nothing happen thinks the set-up is broken. "" once told, or
// with review.notify off.
func (h *hookRun) welcomeLine() string {
	cfg := h.lib.Config.Review
	if cfg.Notify == config.NotifyOff {
		return ""
	}
	f := statefile.File[welcomeState]{Path: filepath.Join(h.state().Hooks(), welcomeFile), Limit: 1 << 10, Version: 1, Reset: true}
	errTold := errors.New("told")
	_, err := f.Update(func(st *welcomeState) error {
		if !st.Told.IsZero() {
			return errTold
		}
		st.Version, st.Told = 1, h.now
		return nil
	})
	if errors.Is(err, errTold) {
		return ""
	}
	if err != nil {
		h.rep.notef("welcome: %v", err)
		return "" // told next time rather than twice
	}
	line := "skillrepo: this agent's skills are versioned in " + h.lib.Root + ". " + ReviewCadence(cfg) +
		" Change it with review.memory_interval and review.skill_interval in " + filepath.Join(h.lib.Root, config.Path) +
		"; `skillrepo status` shows how close the next review is."
	h.rep.notef("told the person: %s", line)
	return line
}

// ReviewCadence says in one sentence when a session is reviewed under
// the configured intervals (docs/reference-behaviour.md §1).
func ReviewCadence(cfg config.Review) string {
	m, s := cfg.MemoryInterval, cfg.SkillInterval
	switch {
	case m <= 0 && s <= 0:
		return "Reviews by turn count are off."
	case m <= 0:
		return fmt.Sprintf("A session is reviewed once the agent has taken %d steps (skills); memory reviews are off.", s)
	case s <= 0:
		return fmt.Sprintf("A session is reviewed once you have sent %d messages (memory); skill reviews are off.", m)
	}
	return fmt.Sprintf("A session is reviewed once you have sent %d messages (memory) or the agent has taken %d steps (skills); shorter sessions are not.", m, s)
}
