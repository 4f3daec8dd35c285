package review

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/gofrs/flock"
	"github.com/skillrepo/skillrepo/internal/boundedread"

	"github.com/skillrepo/skillrepo/internal/atomicfile"
)

// Counters live under the library's per-clone state directory, one file
// per session, so hooks of different sessions never contend:
//
//	.git/skillrepo/review/sessions/<session>.json
//
// A file is replaced atomically (temp file, fsync, rename) under an
// exclusive lock on <session>.json.lock, held across load, count and
// save, so two hooks of one session cannot both start the same review.

// CounterStore keeps sessions' counters in a directory.
type CounterStore struct {
	Dir string // e.g. <state dir>/review/sessions
}

var safeSessionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`) })

// file is the counters file of a session. Ids that are not safe file
// names are hashed.
func (s CounterStore) file(session string) string {
	name := session
	if !safeSessionRE().MatchString(session) {
		sum := sha256.Sum256([]byte(session))
		name = "h-" + hex.EncodeToString(sum[:16])
	}
	return filepath.Join(s.Dir, name+".json")
}

// Lock takes the session's lock; call the returned function to release
// it.
func (s CounterStore) Lock(session string) (func(), error) {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock review counters: %w", err)
	}
	l := flock.New(s.file(session) + ".lock")
	if err := l.Lock(); err != nil {
		return nil, fmt.Errorf("lock review counters of session %s: %w", session, err)
	}
	return func() { l.Unlock() }, nil
}

// Load reads a session's counters; a session never seen has zero
// counters.
func (s CounterStore) Load(session string) (Counters, error) {
	data, err := boundedread.ReadFile(s.file(session), 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return Counters{Version: countersVersion, SessionID: session}, nil
	}
	if err != nil {
		return Counters{}, fmt.Errorf("read review counters: %w", err)
	}
	var c Counters
	if err := json.Unmarshal(data, &c); err != nil {
		return Counters{}, fmt.Errorf("read review counters %s: %w", s.file(session), err)
	}
	if c.Version > countersVersion {
		return Counters{}, fmt.Errorf("review counters %s have version %d; this skillrepo reads up to %d", s.file(session), c.Version, countersVersion)
	}
	c.SessionID = session
	return c, nil
}

// Save writes a session's counters atomically.
func (s CounterStore) Save(c Counters) error {
	if c.SessionID == "" {
		return errors.New("save review counters: no session id")
	}
	c.Version = countersVersion
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("save review counters: %w", err)
	}
	return writeFileAtomic(s.file(c.SessionID), append(data, '\n'))
}

// writeFileAtomic writes through a temp file in the same directory: fsync,
// then rename, so a reader sees the old file or the new one, never half.
func writeFileAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := atomicfile.Write(name, data, 0o600, true); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// Check advances a session's counters over t and decides whether a review
// is due, holding the session's lock; with save it stores the new
// counters (a dry run does not). The counters are saved before any review
// runs, so two hooks of one session never start the same review twice.
func (s CounterStore) Check(session string, t *Transcript, iv Intervals, now time.Time, save bool) (Decision, error) {
	unlock, err := s.Lock(session)
	if err != nil {
		return Decision{}, err
	}
	defer unlock()
	c, err := s.Load(session)
	if err != nil {
		return Decision{}, err
	}
	c, d := Advance(c, t, iv)
	if !save {
		return d, nil
	}
	c.UpdatedAt = now.UTC()
	return d, s.Save(c)
}

// Reviewed records that a review of t ran outside the counters (asked for
// by hand): everything in t counts as seen, and the counters of what was
// reviewed start again from 0.
func (s CounterStore) Reviewed(session string, t *Transcript, iv Intervals, memory, skills bool, reviewID string, now time.Time) error {
	unlock, err := s.Lock(session)
	if err != nil {
		return err
	}
	defer unlock()
	c, err := s.Load(session)
	if err != nil {
		return err
	}
	c, _ = Advance(c, t, iv)
	if memory {
		c.TurnsSinceMemory = 0
	}
	if skills {
		c.IterationsSinceSkill = 0
	}
	c.LastReviewID, c.ReviewedTurns, c.UpdatedAt = reviewID, c.TurnsSeen, now.UTC()
	return s.Save(c)
}
