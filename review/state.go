package review

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
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

func (s CounterStore) counters(session string) statefile.File[Counters] {
	return statefile.File[Counters]{Path: s.file(session), Limit: 1 << 20, Version: countersVersion, Perm: 0o600, Sync: true}
}

// Lock takes the session's lock; call the returned function to release
// it.
func (s CounterStore) Lock(session string) (func(), error) {
	unlock, err := statefile.Lock(s.file(session) + ".lock")
	if err != nil {
		return nil, fmt.Errorf("lock review counters of session %s: %w", session, err)
	}
	return unlock, nil
}

// Load reads a session's counters; a session never seen has zero
// counters. A file that does not parse is set aside and reported: the
// next hook counts afresh.
func (s CounterStore) Load(session string) (Counters, error) {
	c, err := s.counters(session).Load()
	if errors.Is(err, fs.ErrNotExist) {
		return Counters{Version: countersVersion, SessionID: session}, nil
	}
	if err != nil {
		return Counters{}, fmt.Errorf("read review counters: %w", err)
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
	return s.counters(c.SessionID).Write(c)
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

// Latest reads the counters of the session counted last (by UpdatedAt),
// for status's "next review" line; ok is false when no session was
// counted. A file that cannot be read is skipped: status reports, it
// does not repair.
func (s CounterStore) Latest() (c Counters, ok bool, err error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return Counters{}, false, nil
	}
	if err != nil {
		return Counters{}, false, fmt.Errorf("read review counters: %w", err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || filepath.Ext(e.Name()) != ".json" {
			continue
		}
		f := statefile.File[Counters]{Path: filepath.Join(s.Dir, e.Name()), Limit: 1 << 20, Version: countersVersion}
		v, err := f.Read()
		if err != nil || v.SessionID == "" {
			continue
		}
		if !ok || v.UpdatedAt.After(c.UpdatedAt) {
			c, ok = v, true
		}
	}
	return c, ok, nil
}
