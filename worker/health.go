package worker

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/agentcli"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// Health is what keeps reviews from landing, for the person: told at the
// next session start (in their agent) and first in `skillrepo status`
// (docs/agents.md, "When reviews cannot run").
type Health struct {
	// NoModel says why no model backend can run a review of this agent's
	// sessions ("" when one can).
	NoModel string `json:"no_model,omitempty"`
	// Failed are the parked review entries; Retrying the queued ones whose
	// last attempt failed.
	Failed   []queue.Entry `json:"failed"`
	Retrying []queue.Entry `json:"retrying"`
}

// CheckHealth looks at the queue and, for agent, whether a model backend
// can be chosen with cfg and the environment getenv reads (the session's
// own, from a hook).
func CheckHealth(entries []queue.Entry, cfg config.Review, agent string, getenv func(string) string) Health {
	h := Health{Failed: []queue.Entry{}, Retrying: []queue.Entry{}}
	for _, e := range entries {
		if e.Kind != queue.KindReview {
			continue
		}
		switch {
		case e.State == queue.Failed:
			h.Failed = append(h.Failed, e)
		case e.State == queue.Queued && e.Attempts > 0 && e.LastError != "":
			h.Retrying = append(h.Retrying, e)
		}
	}
	if cfg.Enabled && agent != "" {
		program := agentcli.Running(agent)
		if program == "" {
			program = agentcli.Find(agent, getenv("PATH"))
		}
		_, err := agentcli.Choose(agentcli.Want{Setting: cfg.Backend, Agent: agent,
			Model: cmp.Or(cfg.Model, getenv("SKILLREPO_MODEL")), BaseURL: cmp.Or(cfg.BaseURL, getenv("OPENAI_BASE_URL")),
			APIKey: getenv("OPENAI_API_KEY") != "", Program: program})
		if err != nil {
			h.NoModel = err.Error()
		}
	}
	return h
}

// OK reports that nothing stands in the way.
func (h Health) OK() bool { return h.NoModel == "" && len(h.Failed) == 0 && len(h.Retrying) == 0 }

// Line is the one line for the person, with the fix, about what is new
// since told (entry ids already told, which it extends); "" when nothing
// new is wrong. A missing model is said every time: it is the present.
func (h Health) Line(told map[string]bool) string {
	if h.NoModel != "" {
		return "skillrepo: reviews cannot run: " + h.NoModel + ". Run `skillrepo status` for details."
	}
	var fresh []queue.Entry
	for _, e := range append(append([]queue.Entry{}, h.Failed...), h.Retrying...) {
		key := e.ID + "/" + e.LastError
		if !told[key] {
			told[key] = true
			fresh = append(fresh, e)
		}
	}
	if len(fresh) == 0 {
		return ""
	}
	sort.Slice(fresh, func(i, j int) bool { return fresh[i].UpdatedAt.After(fresh[j].UpdatedAt) })
	e := fresh[0]
	what := fmt.Sprintf("%d review%s failed", len(h.Failed), plural(len(h.Failed)))
	fix := "fix it, then `skillrepo queue retry " + e.ID + "`"
	if len(h.Failed) == 0 {
		what = fmt.Sprintf("%d review%s failing (retried later)", len(h.Retrying), plural(len(h.Retrying)))
		fix = "it is retried by itself"
	}
	return fmt.Sprintf("skillrepo: %s: %s; %s. Run `skillrepo status` for details.", what, clip(oneLine(e.LastError), 200), fix)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
