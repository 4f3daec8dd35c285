package queue

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/skillrepo/skillrepo/internal/endpoint"
	"github.com/skillrepo/skillrepo/internal/statefile"
)

// Version is the entry format this code writes; a file with a higher
// version is shown, never rewritten.
const Version = 1

// DirName is the queue's folder inside the library state directory.
const DirName = "queue"

// State is where an entry is in its life.
type State string

// Entry states.
const (
	Queued  State = "queued"  // waiting (maybe for a back-off or quiet)
	Running State = "running" // claimed by a worker
	Done    State = "done"    // finished; Outcome says how
	Failed  State = "failed"  // parked: attempts used up or a permanent error
	// Corrupt marks a file that does not parse; it is listed so a person
	// can see and drop it, and never run.
	Corrupt State = "corrupt"
)

// Kind is what an entry asks the worker to do.
type Kind string

// Entry kinds.
const (
	KindReview  Kind = "review"  // review a transcript
	KindCurator Kind = "curator" // a scheduled curator run (curator run --if-due)
)

// Due is what a review entry reviews and why it was asked for.
type Due struct {
	Memory bool `json:"memory"`
	Skills bool `json:"skills"`
	// Final is set by the end of a session: review what the nudge
	// counters had not yet sent to a review.
	Final bool `json:"final,omitempty"`
	// Reason is for people: which hook asked and what it found.
	Reason string `json:"reason,omitempty"`
}

// Outcome is how a finished entry ended.
type Outcome struct {
	Status      string `json:"status"` // review: completed, capped, failed; curator: ran, skipped
	Summary     string `json:"summary,omitempty"`
	Proposal    string `json:"proposal,omitempty"`
	Merged      bool   `json:"merged"`
	MergeCommit string `json:"merge_commit,omitempty"`
	MergeError  string `json:"merge_error,omitempty"`
	Applied     int    `json:"applied"`
	Staged      int    `json:"staged"`
	// Recovered: a worker was killed after the review landed and before
	// it recorded so; the next worker found the merge in git.
	Recovered bool `json:"recovered,omitempty"`
	// Backend and Model are what the review ran with.
	Backend string `json:"backend,omitempty"`
	Model   string `json:"model,omitempty"`
}

// Entry is one queued piece of work.
type Entry struct {
	Version    int    `json:"version"`
	ID         string `json:"id"`
	Kind       Kind   `json:"kind"`
	State      State  `json:"state"`
	Agent      string `json:"agent,omitempty"` // claude-code, codex, …
	SessionID  string `json:"session_id,omitempty"`
	Transcript string `json:"transcript,omitempty"` // absolute path
	Format     string `json:"format,omitempty"`     // transcript format (auto, claude-code, openai, …)
	Due        Due    `json:"due"`
	// GoalID names the standing goal whose completion queued this review
	// (its commits carry a Goal-Id trailer).
	GoalID string `json:"goal_id,omitempty"`
	// How the session ran, so a worker started by another session runs
	// this review as this session would: the session's model, its
	// folder, its agent's program, and the variables of its environment
	// that choose a model backend (SessionEnvKeys). The file is readable
	// by its owner only; `queue show` hides the values of keys and tokens.
	Model   string            `json:"model,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	Program string            `json:"program,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Backend is the model backend the last attempt used: agent (the
	// agent's own program) or endpoint (an OpenAI-compatible endpoint).
	Backend string `json:"backend,omitempty"`
	// Interruptible: the running attempt competes with the agent for a
	// model on this machine (review.defer: auto), so a new user turn
	// interrupts it (RequestInterrupt). InterruptRequested is when a hook
	// asked; the worker polls for it. Interruptions counts the attempts
	// so cut short; past MaxInterruptions the entry is dropped.
	Interruptible      bool       `json:"interruptible,omitempty"`
	InterruptRequested *time.Time `json:"interrupt_requested,omitempty"`
	Interruptions      int        `json:"interruptions,omitempty"`

	EnqueuedAt time.Time `json:"enqueued_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	// Attempts counts claims; NextAttemptAt holds a retry back.
	Attempts      int        `json:"attempts"`
	NextAttemptAt *time.Time `json:"next_attempt_at,omitempty"`
	LastError     string     `json:"last_error,omitempty"`
	// ReviewID is the current (or last) attempt's review id, recorded
	// before the model is called; ReviewIDs are every attempt's, oldest
	// first.
	ReviewID   string     `json:"review_id,omitempty"`
	ReviewIDs  []string   `json:"review_ids,omitempty"`
	StartedAt  *time.Time `json:"started_at,omitempty"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	Outcome    *Outcome   `json:"outcome,omitempty"`
}

// ErrNotFound is returned for an id no entry has.
var ErrNotFound = errors.New("no such queue entry")

// ErrAmbiguous is returned for an id prefix several entries share.
var ErrAmbiguous = errors.New("queue entry id is ambiguous")

// Store is a library's queue folder. Its methods are safe for concurrent
// use by several processes.
type Store struct {
	Dir string
	Now func() time.Time // nil: time.Now
}

// New returns the queue of a library state directory (.git/skillrepo).
func New(stateDir string) *Store {
	return &Store{Dir: filepath.Join(stateDir, DirName)}
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

var idRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^q-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$`) })

// NewID makes an id like q-20261201-103327-0a1b2c; ids sort by time.
func NewID(now time.Time) string {
	var b [3]byte
	rand.Read(b[:])
	return "q-" + now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

func (s *Store) path(id string) string { return filepath.Join(s.Dir, id+".json") }

// lock takes the queue's lock; call the returned function to release it.
func (s *Store) lock() (func(), error) {
	unlock, err := statefile.Lock(s.file("").LockPath)
	if err != nil {
		return nil, fmt.Errorf("lock the queue: %w", err)
	}
	return unlock, nil
}

// maxEntryFile bounds one entry file (ours are a few KB).
const maxEntryFile = 4 << 20

// file is the state file of entry id; one lock (the queue's) covers all.
func (s *Store) file(id string) statefile.File[Entry] {
	return statefile.File[Entry]{Path: s.path(id), LockPath: filepath.Join(s.Dir, ".lock"), Limit: maxEntryFile,
		Version: Version, Perm: 0o600, Sync: true,
		Check: func(e *Entry) error {
			if e.ID != id {
				return errors.New("its id does not match its file name")
			}
			return nil
		}}
}

// write replaces an entry's file atomically. Error text enters the
// record here, so it is redacted here: a model server that echoed a key
// (a ?key= in a URL, an Authorization header in an error body) leaves no
// trace of it in the entry, queue list or status --json.
func (s *Store) write(e Entry) error {
	e.LastError = endpoint.RedactText(e.LastError)
	if e.Outcome != nil {
		o := *e.Outcome
		o.Summary, o.MergeError = endpoint.RedactText(o.Summary), endpoint.RedactText(o.MergeError)
		e.Outcome = &o
	}
	e.Version = max(e.Version, Version) // the write refuses a newer one
	if err := s.file(e.ID).Write(e); err != nil {
		return fmt.Errorf("queue entry %s: %w", e.ID, err)
	}
	return nil
}

// read reads one entry file; a file that cannot be trusted (it does not
// parse, is not a regular file, is too large or newer) or read comes back
// as a Corrupt entry saying why in LastError, shown and never run.
func (s *Store) read(id string) (Entry, error) {
	e, err := s.file(id).Read()
	var newer *statefile.VersionError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Entry{}, fmt.Errorf("%s: %w", id, ErrNotFound)
	case errors.As(err, &newer):
		return Entry{ID: id, State: Corrupt, LastError: fmt.Sprintf("written by a newer skillrepo (version %d)", newer.Version)}, nil
	case err != nil:
		return Entry{ID: id, State: Corrupt, LastError: "unreadable entry file: " + err.Error()}, nil
	}
	return e, nil
}

// locked runs fn on the entry id names (a prefix resolves) under the
// queue lock: the prologue of every change to one entry.
func (s *Store) locked(id string, fn func(full string, e Entry) (Entry, error)) (Entry, error) {
	unlock, err := s.lock()
	if err != nil {
		return Entry{}, err
	}
	defer unlock()
	full, err := s.resolve(id)
	if err != nil {
		return Entry{}, err
	}
	e, err := s.read(full)
	if err != nil {
		return Entry{}, err
	}
	return fn(full, e)
}

// ids lists the entry files' ids.
func (s *Store) ids() ([]string, error) {
	des, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the queue: %w", err)
	}
	var out []string
	for _, de := range des {
		name := de.Name()
		if id, ok := strings.CutSuffix(name, ".json"); ok && idRE().MatchString(id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// List returns every entry, oldest first (enqueue time, then id).
func (s *Store) List() ([]Entry, error) {
	ids, err := s.ids()
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(ids))
	for _, id := range ids {
		e, err := s.read(id)
		if errors.Is(err, ErrNotFound) {
			continue // dropped or pruned since the listing
		}
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].EnqueuedAt.Equal(out[j].EnqueuedAt) {
			return out[i].EnqueuedAt.Before(out[j].EnqueuedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Get returns the entry with id, or the only one whose id starts with it.
// Errors: ErrNotFound, ErrAmbiguous.
func (s *Store) Get(id string) (Entry, error) {
	full, err := s.resolve(id)
	if err != nil {
		return Entry{}, err
	}
	return s.read(full)
}

func (s *Store) resolve(id string) (string, error) {
	if id == "" {
		return "", fmt.Errorf("empty id: %w", ErrNotFound)
	}
	ids, err := s.ids()
	if err != nil {
		return "", err
	}
	var match []string
	for _, x := range ids {
		if x == id {
			return x, nil
		}
		if strings.HasPrefix(x, id) {
			match = append(match, x)
		}
	}
	switch len(match) {
	case 0:
		return "", fmt.Errorf("%s: %w", id, ErrNotFound)
	case 1:
		return match[0], nil
	}
	return "", fmt.Errorf("%s matches %s: %w", id, strings.Join(match, ", "), ErrAmbiguous)
}

// Enqueue adds e (Kind, Agent, SessionID, Transcript, Format, Due) as a
// queued entry, or merges it into the queued entry of the same kind and
// session that is still waiting: what is due becomes the union, the
// transcript the newest, and the original enqueue time stays. It returns
// the stored entry and whether it was merged.
func (s *Store) Enqueue(e Entry) (Entry, bool, error) {
	unlock, err := s.lock()
	if err != nil {
		return Entry{}, false, err
	}
	defer unlock()
	now := s.now()
	all, err := s.List()
	if err != nil {
		return Entry{}, false, err
	}
	for _, old := range all {
		if old.State != Queued || old.Kind != e.Kind || old.SessionID != e.SessionID || old.Attempts > 0 {
			continue
		}
		old.Due.Memory = old.Due.Memory || e.Due.Memory
		old.Due.Skills = old.Due.Skills || e.Due.Skills
		old.Due.Final = old.Due.Final || e.Due.Final
		if e.Due.Reason != "" {
			old.Due.Reason = e.Due.Reason
		}
		if e.Transcript != "" {
			old.Transcript, old.Format = e.Transcript, e.Format
		}
		if e.GoalID != "" {
			old.GoalID = e.GoalID
		}
		// The newest hook knows the session best.
		if e.Model != "" {
			old.Model = e.Model
		}
		if e.Cwd != "" {
			old.Cwd = e.Cwd
		}
		if e.Program != "" {
			old.Program = e.Program
		}
		if e.Env != nil {
			old.Env = e.Env
		}
		old.UpdatedAt = now
		return old, true, s.write(old)
	}
	e.Version, e.ID, e.State = Version, NewID(now), Queued
	e.EnqueuedAt, e.UpdatedAt = now, now
	e.Attempts, e.NextAttemptAt, e.LastError, e.ReviewID, e.ReviewIDs = 0, nil, "", "", nil
	e.StartedAt, e.FinishedAt, e.Outcome = nil, nil, nil
	return e, false, s.write(e)
}

// Update applies fn to the entry id under the queue lock and stores the
// result (fn's error aborts, writing nothing). UpdatedAt is set.
func (s *Store) Update(id string, fn func(*Entry) error) (Entry, error) {
	return s.locked(id, func(full string, e Entry) (Entry, error) {
		if e.State == Corrupt {
			return Entry{}, fmt.Errorf("queue entry %s is unreadable (%s); drop it", full, e.LastError)
		}
		if err := fn(&e); err != nil {
			return Entry{}, err
		}
		e.UpdatedAt = s.now()
		return e, s.write(e)
	})
}

// Claim marks a queued entry running for a new attempt with reviewID
// (empty for work that has none), recording it before the work starts.
func (s *Store) Claim(id, reviewID string) (Entry, error) {
	return s.Update(id, func(e *Entry) error {
		if e.State != Queued {
			return fmt.Errorf("queue entry %s is %s, not queued", e.ID, e.State)
		}
		now := s.now()
		e.State, e.Attempts, e.StartedAt, e.FinishedAt = Running, e.Attempts+1, &now, nil
		e.NextAttemptAt, e.Interruptible, e.InterruptRequested = nil, false, nil
		e.ReviewID = reviewID
		if reviewID != "" {
			e.ReviewIDs = append(e.ReviewIDs, reviewID)
		}
		return nil
	})
}

// MaxInterruptions is how many times a new user turn may interrupt a
// review and queue it again; the next interruption drops it, as the
// reference drops a review re-queued three times
// (docs/reference-behaviour.md §2.7).
const MaxInterruptions = 3

// RequestInterrupt asks the worker to stop every running review that is
// Interruptible (a new user turn started): it records the request in the
// entry, which the worker polls. It returns the entries it asked. No
// process is signalled: the worker ends its own attempt.
func (s *Store) RequestInterrupt() ([]Entry, error) {
	entries, err := s.List()
	if err != nil {
		return nil, err
	}
	var asked []Entry
	for _, e := range entries {
		if e.Kind != KindReview || e.State != Running || !e.Interruptible || e.InterruptRequested != nil {
			continue
		}
		x, err := s.Update(e.ID, func(x *Entry) error {
			if x.State != Running || !x.Interruptible || x.InterruptRequested != nil {
				return errNotAsked
			}
			now := s.now()
			x.InterruptRequested = &now
			return nil
		})
		if errors.Is(err, errNotAsked) || errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return asked, err
		}
		asked = append(asked, x)
	}
	return asked, nil
}

var errNotAsked = errors.New("no longer an interruptible running review")

// Retry puts a failed (or stuck running) entry back in the queue with its
// attempts reset. A running entry is refused while a worker may hold it:
// the caller checks that no worker runs.
func (s *Store) Retry(id string) (Entry, error) {
	return s.Update(id, func(e *Entry) error {
		switch e.State {
		case Failed, Queued:
		default:
			return fmt.Errorf("queue entry %s is %s; only a failed or queued entry is retried", e.ID, e.State)
		}
		e.State, e.Attempts, e.NextAttemptAt, e.FinishedAt, e.Outcome = Queued, 0, nil, nil, nil
		e.Interruptions = 0
		return nil
	})
}

// Drop removes an entry. A running entry is refused unless force (the
// caller has checked that no worker holds it).
func (s *Store) Drop(id string, force bool) (Entry, error) {
	return s.locked(id, func(full string, e Entry) (Entry, error) {
		if e.State == Running && !force {
			return Entry{}, fmt.Errorf("queue entry %s is running; stop the worker first", full)
		}
		if err := os.Remove(s.path(full)); err != nil {
			return Entry{}, fmt.Errorf("drop queue entry %s: %w", full, err)
		}
		return e, nil
	})
}

// Prune removes done entries beyond the newest keep, so the folder stays
// small, and temp files a killed writer left; failed entries stay until a
// person retries or drops them.
func (s *Store) Prune(keep int) error {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	all, err := s.List()
	if err != nil {
		return err
	}
	var done []Entry
	for _, e := range all {
		if e.State == Done {
			done = append(done, e)
		}
	}
	// Temp files of writes cut short by a kill (a minute old: no write
	// takes that long).
	if des, err := os.ReadDir(s.Dir); err == nil {
		for _, de := range des {
			if n := de.Name(); strings.HasPrefix(n, ".q-") && strings.Contains(n, ".tmp-") {
				if fi, err := de.Info(); err == nil && s.now().Sub(fi.ModTime()) > time.Minute {
					os.Remove(filepath.Join(s.Dir, n))
				}
			}
		}
	}
	for i := 0; i < len(done)-keep; i++ {
		if err := os.Remove(s.path(done[i].ID)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("prune queue entry %s: %w", done[i].ID, err)
		}
	}
	return nil
}

// Counts tallies entries by state.
func Counts(entries []Entry) map[State]int {
	out := map[State]int{}
	for _, e := range entries {
		out[e.State]++
	}
	return out
}
