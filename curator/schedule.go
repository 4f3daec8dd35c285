package curator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
	"github.com/skillrepo/skillrepo/internal/boundedread"

	"github.com/skillrepo/skillrepo/internal/atomicfile"
)

// StateFileName is the curator's per-clone state file inside the
// library's state directory (.git/skillrepo/).
const StateFileName = "curator.json"

// StateVersion is the version of the state file this code writes.
const StateVersion = 1

// DefaultIntervalHours is the reference's interval between runs (7 days).
const DefaultIntervalHours = 168

// SeedSummary is recorded when a library is seen for the first time: like
// the reference, the first run waits one interval instead of archiving an
// imported library the moment it is opened.
const SeedSummary = "deferred first run: curator seeded, will run after one interval; " +
	"use `skillrepo curator run --dry-run` to preview now"

// RunState is the curator's per-clone state (the reference's
// .curator_state), kept in .git/skillrepo/curator.json.
type RunState struct {
	Version         int        `json:"version"`
	Paused          bool       `json:"paused"`
	RunCount        int        `json:"run_count"`
	LastRunAt       *time.Time `json:"last_run_at"`
	LastRunID       string     `json:"last_run_id,omitempty"`
	LastRunDuration float64    `json:"last_run_duration_seconds"`
	LastRunSummary  string     `json:"last_run_summary"`
	LastReportPath  string     `json:"last_report_path,omitempty"`
}

// Schedule is the part of the curator configuration that decides when a
// run is due.
type Schedule struct {
	Enabled       bool
	IntervalHours int
}

// Interval returns the schedule's interval, the default when unset.
func (s Schedule) Interval() time.Duration {
	h := s.IntervalHours
	if h <= 0 {
		h = DefaultIntervalHours
	}
	return time.Duration(h) * time.Hour
}

// Decision says whether a run is due now and why.
type Decision struct {
	Due bool
	// Seed is true on the first sight of a library: the caller records
	// now as the last run (see [Store.Seed]) and does not run.
	Seed   bool
	Reason string
	// Next is when the next run is due (zero when disabled or paused).
	Next time.Time
}

// Due is the reference's should_run_now: never when disabled or paused;
// on first sight, seed and wait one interval; else due once a whole
// interval has passed since the last run.
func Due(st RunState, s Schedule, now time.Time) Decision {
	switch {
	case !s.Enabled:
		return Decision{Reason: "curator disabled (curator.enabled: false)"}
	case st.Paused:
		return Decision{Reason: "curator paused (skillrepo curator resume)"}
	case st.LastRunAt == nil:
		return Decision{Seed: true, Reason: "first sight of this library: seeding, next run after one interval",
			Next: now.UTC().Add(s.Interval())}
	}
	next := st.LastRunAt.UTC().Add(s.Interval())
	if now.Before(next) {
		return Decision{Reason: fmt.Sprintf("not due until %s", next.Format(time.RFC3339)), Next: next}
	}
	return Decision{Due: true, Reason: "due", Next: next}
}

// Store reads and writes the state file. Writes are read-modify-write
// under a lock file beside it and land atomically (temp file, fsync,
// rename), so a pause from one process is never lost to a run finishing
// in another, and a crash leaves the old or the new file, never half.
type Store struct {
	Path string
	// seed fills a state that records no run yet as it is first read (a
	// Hermes library's schedule carried over from Hermes' curator:
	// StoreOf). Update saves what it filled, so the first write keeps it.
	seed func(RunState) RunState
}

// NewStore returns the store for a library state directory.
func NewStore(stateDir string) *Store {
	return &Store{Path: filepath.Join(stateDir, StateFileName)}
}

// ErrStateVersion is returned for a state file written by a newer version.
var ErrStateVersion = errors.New("curator state written by a newer skillrepo")

// Load returns the state; a missing file is the zero state (never run).
// It takes no lock and writes nothing, so a dry run can call it.
func (s *Store) Load() (RunState, error) {
	b, err := boundedread.ReadFile(s.Path, maxStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return s.seeded(RunState{Version: StateVersion}), nil
	}
	if err != nil {
		return RunState{}, fmt.Errorf("read curator state: %w", err)
	}
	var st RunState
	if err := json.Unmarshal(b, &st); err != nil {
		return RunState{}, fmt.Errorf("read curator state %s: %w (remove the file to reset the schedule)", s.Path, err)
	}
	if st.Version > StateVersion {
		return RunState{}, fmt.Errorf("%w: %s has version %d, this binary knows %d", ErrStateVersion, s.Path, st.Version, StateVersion)
	}
	st.Version = StateVersion
	return s.seeded(st), nil
}

func (s *Store) seeded(st RunState) RunState {
	if s.seed != nil {
		return s.seed(st)
	}
	return st
}

// Update applies fn to the current state and saves the result, under the
// state lock. fn's error aborts without writing.
func (s *Store) Update(fn func(*RunState) error) (RunState, error) {
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o755); err != nil {
		return RunState{}, fmt.Errorf("curator state dir: %w", err)
	}
	lock := flock.New(s.Path + ".lock")
	if err := lock.Lock(); err != nil {
		return RunState{}, fmt.Errorf("lock curator state: %w", err)
	}
	defer lock.Unlock()
	st, err := s.Load()
	if err != nil {
		return RunState{}, err
	}
	if err := fn(&st); err != nil {
		return RunState{}, err
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return RunState{}, fmt.Errorf("encode curator state: %w", err)
	}
	if err := atomicfile.Write(s.Path, append(b, '\n'), 0o644, true); err != nil {
		return RunState{}, fmt.Errorf("write curator state: %w", err)
	}
	return st, nil
}

// Seed records now as the last run without running, as the reference does
// on first sight. It does nothing when a last run is already recorded.
func (s *Store) Seed(now time.Time) (RunState, error) {
	return s.Update(func(st *RunState) error {
		if st.LastRunAt != nil {
			return nil
		}
		t := now.UTC()
		st.LastRunAt = &t
		st.LastRunSummary = SeedSummary
		return nil
	})
}

// SetPaused pauses or resumes scheduled runs.
func (s *Store) SetPaused(paused bool) (RunState, error) {
	return s.Update(func(st *RunState) error {
		st.Paused = paused
		return nil
	})
}

// maxStateFile bounds the curator's state files and run records, read as
// regular files only: a FIFO would hang the command, a link to /dev/zero
// fill the memory.
const maxStateFile = 64 << 20
