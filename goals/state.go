package goals

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/internal/agentid"
	"github.com/skillrepo/skillrepo/internal/statefile"
)

// Status is where a goal stands.
type Status string

// The statuses of docs/reference-behaviour.md §9.
const (
	Active  Status = "active"
	Paused  Status = "paused"
	Done    Status = "done"
	Cleared Status = "cleared"
)

// Limits on what a goal may hold; the judge prompt clips to them too.
const (
	DefaultMaxTurns = 20
	MaxGoalLen      = 2000
	MaxContractLen  = 2500
	MaxSubgoalsLen  = 2000
	// MaxParseFailures unreadable verdicts in a row pause a goal.
	MaxParseFailures = 3
	stateVersion     = 1
	pendingName      = "next"
)

// Contract is the optional structured form of a goal: what done means and
// how to prove it.
type Contract struct {
	Outcome      string `json:"outcome,omitempty" yaml:"outcome"`
	Verification string `json:"verification,omitempty" yaml:"verification"`
	Constraints  string `json:"constraints,omitempty" yaml:"constraints"`
	Boundaries   string `json:"boundaries,omitempty" yaml:"boundaries"`
	StopWhen     string `json:"stop_when,omitempty" yaml:"stop_when"`
}

func (c *Contract) empty() bool {
	return c == nil || (c.Outcome == "" && c.Verification == "" && c.Constraints == "" && c.Boundaries == "" && c.StopWhen == "")
}

// Barrier parks a goal until a process ends or a deadline passes.
type Barrier struct {
	PID    int       `json:"pid,omitempty"`
	Until  time.Time `json:"until,omitempty"`
	Reason string    `json:"reason,omitempty"`
	Since  time.Time `json:"since"`
}

// State is one session's goal, as stored.
type State struct {
	Version  int       `json:"version"`
	ID       string    `json:"id"`
	Session  string    `json:"session,omitempty"`
	Goal     string    `json:"goal"`
	Status   Status    `json:"status"`
	Contract *Contract `json:"contract,omitempty"`
	Subgoals []string  `json:"subgoals,omitempty"`

	TurnsUsed  int       `json:"turns_used"`
	MaxTurns   int       `json:"max_turns"`
	CreatedAt  time.Time `json:"created_at"`
	LastTurnAt time.Time `json:"last_turn_at,omitzero"`

	LastVerdict  string `json:"last_verdict,omitempty"`
	LastReason   string `json:"last_reason,omitempty"`
	PausedReason string `json:"paused_reason,omitempty"`

	ConsecutiveParseFailures int `json:"consecutive_parse_failures"`
	// JudgeFailures counts judge calls that failed (errors, timeouts,
	// empty replies); each let the agent stop.
	JudgeFailures int `json:"judge_failures"`
	// ContinuationPending is set while the agent works on a continuation
	// we asked for; a user prompt arriving then means the turn was
	// interrupted.
	ContinuationPending bool     `json:"continuation_pending,omitempty"`
	Waiting             *Barrier `json:"waiting,omitempty"`
	// Verdicts is the recent judge history, newest last (at most 50).
	Verdicts []Verdict `json:"verdicts,omitempty"`
}

// NewState makes an active goal. maxTurns <= 0 means the default.
func NewState(goal string, maxTurns int, now time.Time) (State, error) {
	goal = strings.TrimSpace(goal)
	if goal == "" {
		return State{}, errors.New("the goal is empty")
	}
	if len(goal) > MaxGoalLen {
		return State{}, fmt.Errorf("the goal has %d characters; at most %d are allowed", len(goal), MaxGoalLen)
	}
	if maxTurns <= 0 {
		maxTurns = DefaultMaxTurns
	}
	return State{Version: stateVersion, ID: newID(now), Goal: goal, Status: Active, MaxTurns: maxTurns, CreatedAt: now.UTC()}, nil
}

func newID(now time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "goal-" + now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// ErrNoGoal is returned when a session has no goal.
var ErrNoGoal = errors.New("no goal")

// CorruptError is a state file that could not be read; it has been moved
// aside to SetAside so the session can start afresh.
type CorruptError = statefile.CorruptError

// Store keeps goal states in one folder, .git/skillrepo/goals.
type Store struct {
	Dir string
}

// ValidSession reports whether id can name a goal file. An empty or odd
// id is refused rather than hashed: a goal must never be shared by
// accident between sessions.
func ValidSession(id string) error {
	if id == "" {
		return errors.New("no session id")
	}
	if !agentid.Valid(id) || id == pendingName { // ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$
		return fmt.Errorf("session id %q is not usable for a goal (letters, digits, '.', '_', ':', '-'; at most 128)", id)
	}
	return nil
}

func (s Store) path(name string) string { return filepath.Join(s.Dir, name+".json") }

// file is the state file of a goal (session, or "next" for the pending
// one).
func (s Store) file(name string) statefile.File[State] {
	return statefile.File[State]{Path: s.path(name), Limit: 1 << 20, Version: stateVersion, Perm: 0o644, Sync: true,
		Check: func(st *State) error {
			if st.Goal == "" || st.Status == "" {
				return errors.New("no goal or status")
			}
			return nil
		}}
}

// Lock takes the session's lock (pending goals use "next"); call the
// returned function to release it.
func (s Store) Lock(session string) (func(), error) {
	unlock, err := statefile.Lock(s.path(session) + ".lock")
	if err != nil {
		return nil, fmt.Errorf("lock goal of session %s: %w", session, err)
	}
	return unlock, nil
}

// Load reads the state of a session ("" reads the pending goal). A
// missing file is ErrNoGoal; a corrupt one is moved aside and reported as
// a *CorruptError.
func (s Store) Load(session string) (State, error) {
	st, err := s.file(nameOf(session)).Load()
	if errors.Is(err, fs.ErrNotExist) {
		return State{}, ErrNoGoal
	}
	if err != nil {
		return State{}, fmt.Errorf("goal state: %w", err)
	}
	return st, nil
}

// Save writes a state atomically (a state without a session is the
// pending goal).
func (s Store) Save(st State) error {
	if st.Session != "" {
		if err := ValidSession(st.Session); err != nil {
			return fmt.Errorf("save goal: %w", err)
		}
	}
	st.Version = stateVersion
	if len(st.Verdicts) > 50 {
		st.Verdicts = st.Verdicts[len(st.Verdicts)-50:]
	}
	if err := s.file(nameOf(st.Session)).Write(st); err != nil {
		return fmt.Errorf("save goal: %w", err)
	}
	return nil
}

// Update runs fn on the session's state under its lock and saves the
// result unless fn returns an error.
func (s Store) Update(session string, fn func(*State) error) (State, error) {
	unlock, err := s.Lock(nameOf(session))
	if err != nil {
		return State{}, err
	}
	defer unlock()
	st, err := s.Load(session)
	if err != nil {
		return State{}, err
	}
	if err := fn(&st); err != nil {
		return st, err
	}
	return st, s.Save(st)
}

func nameOf(session string) string {
	if session == "" {
		return pendingName
	}
	return session
}

// BindPending gives the pending goal (set with no session) to session,
// unless the session already has an active or paused goal of its own.
// It reports whether a goal was bound.
func (s Store) BindPending(session string, now time.Time) (bool, error) {
	if err := ValidSession(session); err != nil {
		return false, err
	}
	if _, err := os.Stat(s.path(pendingName)); errors.Is(err, fs.ErrNotExist) {
		return false, nil // the common case: one stat, no lock
	}
	unlockP, err := s.Lock(pendingName)
	if err != nil {
		return false, err
	}
	defer unlockP()
	pending, err := s.Load("")
	if errors.Is(err, ErrNoGoal) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	unlock, err := s.Lock(session)
	if err != nil {
		return false, err
	}
	defer unlock()
	if cur, err := s.Load(session); err == nil && (cur.Status == Active || cur.Status == Paused) {
		return false, nil
	}
	pending.Session = session
	if err := s.Save(pending); err != nil {
		return false, err
	}
	if err := os.Remove(s.path(pendingName)); err != nil {
		return true, fmt.Errorf("bind goal: remove the pending goal: %w", err)
	}
	return true, nil
}

// List returns every stored goal, the pending one first, then by
// creation time.
func (s Store) List() ([]State, []error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("list goals: %w", err)}
	}
	var out []State
	var errs []error
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() {
			continue
		}
		session := name
		if name == pendingName {
			session = ""
		}
		st, err := s.Load(session)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, st)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Session == "") != (out[j].Session == "") {
			return out[i].Session == ""
		}
		return out[i].CreatedAt.Before(out[j].CreatedAt)
	})
	return out, errs
}
