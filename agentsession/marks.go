package agentsession

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/review"
)

// A Claude Code transcript only grows: each Stop appends a turn. Parsing
// the whole file at every Stop costs time in proportion to the session
// (a third of a second for a 2.7 MB session), so Stop remembers where it
// stopped reading (the end of the last whole line) with a hash of the
// bytes just before, and next time parses only what follows. A file that
// shrank or whose bytes before the mark changed (a rewritten or another
// file) is read whole again, and the counters' own rule (a transcript
// shorter than seen is counted from its start) takes over.
//
// At a turn boundary no model response is cut in two, so the counts of
// the parts add up to the count of the whole; the one exception is a
// last text block Claude Code writes after the Stop hook ran (the file
// "may lag"), which the next part counts as one more model iteration.

const marksDir = "hooks/marks"

// noMessages is review.Read's message for a part without a conversation
// message.
const noMessages = "the transcript holds no conversation messages"

// tailLen is how many bytes before the mark are hashed.
const tailLen = 512

type transcriptMark struct {
	Version int       `json:"version"`
	Path    string    `json:"path"`
	Offset  int64     `json:"offset"`
	TailSum string    `json:"tail_sha256"`
	At      time.Time `json:"at"`
}

func (h *hookRun) markPath(session string) string {
	return filepath.Join(h.state().Hooks(), filepath.FromSlash(marksDir), markerName("session-"+session)+".json")
}

// markStore is a session's mark. Its lock is the session counters' (see
// checkIncremental), so the file is read and written without its own.
func (h *hookRun) markStore(session string) statefile.File[transcriptMark] {
	return statefile.File[transcriptMark]{Path: h.markPath(session), Limit: maxStateFile, Version: 1, Perm: 0o644, Sync: true}
}

func tailSum(f *os.File, offset int64) (string, error) {
	start := max(0, offset-tailLen)
	buf := make([]byte, offset-start)
	if _, err := f.ReadAt(buf, start); err != nil {
		return "", err
	}
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:]), nil
}

// readSince returns the whole lines of the transcript after the session's
// mark and the offset after them; ok is false when the mark does not hold
// (no mark, another file, a shorter or rewritten file).
func (h *hookRun) readSince(f *os.File, path string) (part []byte, end int64, ok bool, err error) {
	m, err := h.markStore(h.in.SessionID).Read()
	if err != nil {
		return nil, 0, false, nil // no mark, or one that does not read: the whole file
	}
	return partSince(m, f, path)
}

// partSince is readSince past the read of the mark file: m is what the
// file holds, whatever that is. A part longer than a transcript may be
// (review.MaxTranscriptBytes) is not read: the whole file's bounded read
// then refuses it.
func partSince(m transcriptMark, f *os.File, path string) (part []byte, end int64, ok bool, err error) {
	if m.Path != path || m.Offset <= 0 {
		return nil, 0, false, nil
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, false, err
	}
	if fi.Size() < m.Offset || fi.Size()-m.Offset > review.MaxTranscriptBytes {
		return nil, 0, false, nil
	}
	if sum, err := tailSum(f, m.Offset); err != nil || sum != m.TailSum {
		return nil, 0, false, nil
	}
	part = make([]byte, fi.Size()-m.Offset)
	if _, err := f.ReadAt(part, m.Offset); err != nil && !errors.Is(err, io.EOF) {
		return nil, 0, false, err
	}
	cut := bytes.LastIndexByte(part, '\n') + 1
	return part[:cut], m.Offset + int64(cut), true, nil
}

func (h *hookRun) saveMark(f *os.File, path string, offset int64) error {
	sum, err := tailSum(f, offset)
	if err != nil {
		return err
	}
	return h.markStore(h.in.SessionID).Write(transcriptMark{Version: 1, Path: path, Offset: offset, TailSum: sum, At: h.now})
}

// checkIncremental advances the session's counters over the part of a
// Claude Code transcript after the mark. handled is false when the whole
// file must be read instead.
func (h *hookRun) checkIncremental(path string, iv review.Intervals) (d review.Decision, handled bool, err error) {
	store := h.counters()
	// The session's lock covers the mark too: counters and mark move
	// together.
	unlock, err := store.Lock(h.in.SessionID)
	if err != nil {
		return d, false, err
	}
	defer unlock()
	f, err := openTranscript(path)
	if errors.Is(err, fs.ErrNotExist) {
		return d, false, nil // readTranscript says so
	}
	if err != nil {
		return d, false, fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	part, end, ok, err := h.readSince(f, path)
	if err != nil || !ok {
		return d, false, err
	}
	if len(bytes.TrimSpace(part)) == 0 {
		return d, true, nil // nothing new
	}
	tr, err := review.Read(bytes.NewReader(part), path, review.FormatClaudeCode)
	if err != nil {
		// A part with no conversation message (progress lines only) has
		// nothing to count; anything else is read whole.
		var pe *review.ParseError
		if errors.As(err, &pe) && pe.Msg == noMessages {
			return d, true, h.saveMark(f, path, end)
		}
		return d, false, nil
	}
	if !tr.Final && !tr.Interrupted && len(h.in.LastAssistantMessage) > 0 {
		tr.Final = true
	}
	c, err := store.Load(h.in.SessionID)
	if err != nil {
		return d, true, err
	}
	seenTurns, seenIters := c.TurnsSeen, c.IterationsSeen
	c.TurnsSeen, c.IterationsSeen = 0, 0
	c, d = review.Advance(c, tr, iv)
	c.TurnsSeen, c.IterationsSeen = seenTurns+tr.UserTurns(), seenIters+tr.Iterations()
	c.TranscriptSHA256, c.UpdatedAt = "", h.now
	if err := store.Save(c); err != nil {
		return d, true, err
	}
	return d, true, h.saveMark(f, path, end)
}

// markWhole records that the whole transcript (up to its last whole line)
// has been counted.
func (h *hookRun) markWhole(path string) {
	f, err := openTranscript(path)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return
	}
	// The end of the last whole line.
	n := min(fi.Size(), 64<<10)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, fi.Size()-n); err != nil && !errors.Is(err, io.EOF) {
		return
	}
	i := bytes.LastIndexByte(buf, '\n')
	if i < 0 {
		return
	}
	if err := h.saveMark(f, path, fi.Size()-n+int64(i)+1); err != nil {
		h.rep.notef("transcript mark: %v", err)
	}
}
