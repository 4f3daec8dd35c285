package usage

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/statefile"
)

// The usage history: an append-only log of what happened to the
// library's skills and sessions, one JSON object a line, beside the
// counters of .usage.json (which stays exactly as Hermes Agent writes it:
// the history is ours alone). It is per-clone state under
// .git/skillrepo/usage/ (docs/architecture.md §5), so it is never
// committed and needs no .gitignore entry; docs/usage.md describes it.

// Kinds of [HistoryEvent].
const (
	// HistoryLoad: an agent loaded a skill's SKILL.md (its hook).
	HistoryLoad = "load"
	// HistoryUse: an agent invoked a skill (a typed /name, a preloaded
	// skill).
	HistoryUse = "use"
	// HistoryView: a person or tool counted a view (usage bump, the MCP
	// server's skill_view).
	HistoryView = "view"
	// HistoryCreate, HistoryPatch, HistoryArchive, HistoryRestore,
	// HistoryDelete: a write that landed on the checked-out branch.
	HistoryCreate  = "create"
	HistoryPatch   = "patch"
	HistoryArchive = "archive"
	HistoryRestore = "restore"
	HistoryDelete  = "delete"
	// HistoryReview: a review finished; Outcome is its status.
	HistoryReview = "review"
	// HistoryGoal: a goal's judge gave a verdict; Outcome is the goal's
	// status after it.
	HistoryGoal = "goal"
)

// HistoryEvent is one line of the usage history.
type HistoryEvent struct {
	Time    time.Time `json:"time"`
	Kind    string    `json:"kind"`
	Skill   string    `json:"skill,omitempty"`
	Session string    `json:"session,omitempty"`
	Review  string    `json:"review,omitempty"`
	Origin  string    `json:"origin,omitempty"`
	Outcome string    `json:"outcome,omitempty"`
	Detail  string    `json:"detail,omitempty"`
}

// Limits of the history. A generation is rotated to history.1.jsonl when
// the next line would take it past maxHistoryFile, so the history holds
// between one and two generations (tens of thousands of events) and a
// read touches at most 2×maxHistoryFile bytes.
const (
	maxHistoryFile = 4 << 20
	// maxHistoryLine bounds one line: fields are clipped to fit, so a
	// hook handing us a huge session id cannot grow a line, and a reader
	// skips anything longer as foreign.
	maxHistoryLine = 2048
	maxHistoryText = 400 // runes kept of a free-text field
	historyName    = "history.jsonl"
)

// History is the library's usage history log.
type History struct {
	path string
	max  int64
	now  func() time.Time
}

// NewHistory is the usage history kept in dir (the per-clone state's
// usage/ folder); now stamps events appended without a time (nil:
// time.Now).
func NewHistory(dir string, now func() time.Time) *History {
	if now == nil {
		now = time.Now
	}
	return &History{path: filepath.Join(dir, historyName), max: maxHistoryFile, now: now}
}

// Path is the current generation's file.
func (h *History) Path() string { return h.path }

func (h *History) rotated() string {
	return strings.TrimSuffix(h.path, ".jsonl") + ".1.jsonl"
}

// Append adds events to the history, each as one line. An event without
// a time gets the library's clock. It is telemetry: callers ignore its
// error, as the sidecar's (a write that landed never fails for it).
//
// It takes the state-file primitive's lock but does not write through it
// (internal/statefile writes whole and renames): rewriting a log of
// megabytes per event would cost a hook O(size). The
// lines are appended instead, with O_APPEND and one write per call under
// history.lock, so a line is never interleaved with another writer's, and
// a line is bounded (maxHistoryLine), so one write puts it down whole. A
// crash mid-write can leave a torn last line: the next append starts on a
// new line and readers skip what does not parse.
func (h *History) Append(events ...HistoryEvent) error {
	if len(events) == 0 {
		return nil
	}
	var buf bytes.Buffer
	for _, e := range events {
		line, err := h.line(e)
		if err != nil {
			return err
		}
		buf.Write(line)
	}
	unlock, err := statefile.Lock(filepath.Join(filepath.Dir(h.path), "history.lock"))
	if err != nil {
		return fmt.Errorf("usage history: %w", err)
	}
	defer unlock()
	if fi, err := os.Lstat(h.path); err == nil && fi.Size()+int64(buf.Len()) > h.max {
		if err := os.Rename(h.path, h.rotated()); err != nil {
			return fmt.Errorf("usage history: rotate: %w", err)
		}
	}
	if fi, err := os.Lstat(h.path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("usage history: %s is not a regular file", h.path)
	}
	f, err := os.OpenFile(h.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("usage history: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("usage history: %s is not a regular file", h.path)
	} else if fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			// A torn last line (a writer died mid-write): ours starts
			// on a line of its own.
			buf = *bytes.NewBuffer(append([]byte{'\n'}, buf.Bytes()...))
		}
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("usage history: %w", err)
	}
	return f.Close()
}

// line is e as one bounded line ending in a newline.
func (h *History) line(e HistoryEvent) ([]byte, error) {
	if e.Time.IsZero() {
		e.Time = h.now()
	}
	e.Time = e.Time.UTC()
	limit := maxHistoryText
	for {
		c := e
		for _, s := range []*string{&c.Kind, &c.Skill, &c.Session, &c.Review, &c.Origin, &c.Outcome, &c.Detail} {
			*s = clipText(*s, limit)
		}
		b, err := json.Marshal(c)
		if err != nil {
			return nil, fmt.Errorf("usage history: %w", err)
		}
		if len(b) < maxHistoryLine || limit <= 16 {
			return append(b, '\n'), nil
		}
		limit /= 2
	}
}

// clipText keeps the first n runes of s, on a line of its own.
func clipText(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// HistoryFilter chooses the events [History.Read] returns.
type HistoryFilter struct {
	// Match keeps an event when it returns true (nil: every event).
	Match func(HistoryEvent) bool
	// Since keeps events at or after it (zero: all).
	Since time.Time
	// Limit keeps the last Limit events (0: all).
	Limit int
}

// Read returns the history's events, oldest first, that f keeps. It reads
// at most the last maxHistoryFile bytes of each of the two generations;
// a line that does not parse (torn by a crash, or foreign) is skipped.
func (h *History) Read(f HistoryFilter) ([]HistoryEvent, error) {
	var out []HistoryEvent
	for _, p := range []string{h.rotated(), h.path} {
		evs, err := readHistoryFile(p, h.max, f)
		if err != nil {
			return nil, err
		}
		out = append(out, evs...)
		if f.Limit > 0 && len(out) > f.Limit {
			out = out[len(out)-f.Limit:]
		}
	}
	return out, nil
}

func readHistoryFile(path string, max int64, f HistoryFilter) ([]HistoryEvent, error) {
	file, err := boundedread.OpenNoFollow(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("usage history: %w", err)
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil, fmt.Errorf("usage history: %w", err)
	}
	var r io.Reader = file
	skipFirst := false
	if fi.Size() > max {
		// Only the tail is read; its first line may be cut.
		if _, err := file.Seek(fi.Size()-max, io.SeekStart); err != nil {
			return nil, fmt.Errorf("usage history: %w", err)
		}
		skipFirst = true
	}
	br := bufio.NewReaderSize(io.LimitReader(r, max), maxHistoryLine*2)
	var out []HistoryEvent
	long := false // inside a line longer than the buffer (foreign): skipped
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = true
			continue
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("usage history: %w", err)
		}
		if len(line) > 0 && !long && !skipFirst {
			var e HistoryEvent
			if json.Unmarshal(line, &e) == nil && e.Kind != "" &&
				(f.Since.IsZero() || !e.Time.Before(f.Since)) && (f.Match == nil || f.Match(e)) {
				out = append(out, e)
				if f.Limit > 0 && len(out) > 2*f.Limit {
					out = append(out[:0], out[len(out)-f.Limit:]...)
				}
			}
		}
		if err == io.EOF {
			break
		}
		long, skipFirst = false, false
	}
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[len(out)-f.Limit:]
	}
	return out, nil
}

// AppendReview records a finished review: its session, id, status
// (completed, capped, failed, …) and summary or failure. Best effort.
func (h *History) AppendReview(session, reviewID, status, detail string) {
	if h == nil {
		return
	}
	_ = h.Append(HistoryEvent{Kind: HistoryReview, Session: session, Review: reviewID, Outcome: status, Detail: detail})
}
