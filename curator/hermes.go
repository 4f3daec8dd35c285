package curator

// A Hermes library has two possible curators: Hermes' own (its curator
// archives idle skills on its schedule, in skills/.curator_state) and
// skillrepo's. One runs (curator.owner, docs/hermes.md §5): with owner
// hermes, skillrepo's runs stand aside — scheduled ones skip, an explicit
// one needs --force — and Hermes' runs are recorded as curator commits
// by sync (skillrepo.Library.Sync).

import (
	"errors"
	"fmt"
	"time"

	"github.com/skillrepo/skillrepo/hermes"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// ErrHermesCurator refuses an explicit run of skillrepo's curator on a
// library whose curator is Hermes' (curator.owner: hermes).
var ErrHermesCurator = errors.New("this library's curator is Hermes' own (curator.owner: hermes)")

// hermesOwned reports whether Hermes' curator runs the library.
func hermesOwned(cfg config.Curator) bool {
	return cfg.Owner == config.CuratorOwnerHermes
}

// HermesCurator is what `curator status` says of Hermes' curator.
type HermesCurator struct {
	// Enabled is curator.enabled of Hermes' config.yaml.
	Enabled  bool       `json:"enabled"`
	Paused   bool       `json:"paused"`
	RunCount int        `json:"run_count"`
	LastRun  *time.Time `json:"last_run_at"`
	Summary  string     `json:"last_run_summary"`
	// NextRunAt is when Hermes' schedule makes its next run due.
	NextRunAt     *time.Time `json:"next_run_at"`
	IntervalHours int        `json:"interval_hours"`
}

// hermesCurator reads Hermes' curator beside the library: nil when the
// library is no Hermes skills folder.
func (c *Curator) hermesCurator() *HermesCurator {
	home, ok := hermes.HomeOf(c.Lib.Root)
	if !ok {
		return nil
	}
	cfg, err := hermes.ReadConfig(home)
	if err != nil {
		return nil
	}
	out := &HermesCurator{Enabled: cfg.Curator.Enabled, IntervalHours: cfg.Curator.IntervalHours}
	if st, ok := c.Lib.CuratorRuns().HermesState(); ok {
		out.Paused, out.RunCount, out.Summary = st.Paused, st.RunCount, st.LastRunSummary
		if t := st.LastRun(); !t.IsZero() {
			next := t.Add(time.Duration(cfg.Curator.IntervalHours) * time.Hour)
			out.LastRun, out.NextRunAt = &t, &next
		}
	}
	return out
}

// StoreOf is the store of lib's curator state. In a Hermes library whose
// state records no run of skillrepo's curator yet, it reads as Hermes'
// schedule (seedFromHermes), and the first write — a run, a pause, a
// seed — keeps that: the run count counts on from Hermes' runs, and a
// pause is not undone by Hermes' state. Read and write the curator's
// state of a library through it, not NewStore.
func StoreOf(lib *skillrepo.Library) *Store {
	s := NewStore(lib.State().Curator())
	s.seed = func(st RunState) RunState {
		return seedFromHermes(st, lib)
	}
	return s
}

// seedFromHermes starts skillrepo's schedule where Hermes' is, the first
// time skillrepo's curator looks at a Hermes library: its last run, run
// count and pause carry over, so a change of owner neither runs at once
// nor waits a whole new interval.
func seedFromHermes(st RunState, lib *skillrepo.Library) RunState {
	if st.LastRunAt != nil || st.RunCount > 0 {
		return st
	}
	hs, ok := lib.CuratorRuns().HermesState()
	if !ok {
		return st
	}
	t := hs.LastRun()
	if t.IsZero() {
		return st
	}
	st.LastRunAt, st.RunCount, st.Paused = &t, hs.RunCount, hs.Paused
	st.LastRunSummary = fmt.Sprintf("carried over from Hermes' curator (run %d): %s", hs.RunCount, hs.LastRunSummary)
	return st
}
