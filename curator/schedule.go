package curator

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
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

func (s *Store) file() statefile.File[RunState] {
	return statefile.File[RunState]{Path: s.Path, Limit: maxStateFile, Version: StateVersion, Perm: 0o644, Sync: true}
}

// Load returns the state; a missing file is the zero state (never run).
// It takes no lock and writes nothing, so a dry run can call it.
func (s *Store) Load() (RunState, error) {
	st, err := s.file().Read()
	if errors.Is(err, fs.ErrNotExist) {
		st, err = RunState{}, nil
	}
	if err != nil {
		return RunState{}, stateError(err)
	}
	st.Version = StateVersion
	return s.seeded(st), nil
}

// stateError says what to do about a state file that cannot be read: a
// corrupt one is left for a person to look at, never written over.
func stateError(err error) error {
	var newer *statefile.VersionError
	var corrupt *statefile.CorruptError
	switch {
	case errors.As(err, &newer):
		return fmt.Errorf("%w: %w", ErrStateVersion, err)
	case errors.As(err, &corrupt):
		return fmt.Errorf("read curator state: %w (remove the file to reset the schedule)", err)
	}
	return fmt.Errorf("curator state: %w", err)
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
	st, err := s.file().Update(func(st *RunState) error {
		st.Version = StateVersion
		*st = s.seeded(*st)
		return fn(st)
	})
	if err != nil {
		return RunState{}, stateError(err)
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
