package agentsession

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/review"
)

// transcriptFormat is the format an agent's transcripts are in.
func (h *hookRun) transcriptFormat() review.Format {
	switch h.opts.Agent {
	case hooks.ClaudeCode:
		return review.FormatClaudeCode
	case hooks.Gemini:
		return review.FormatGemini
	}
	return review.FormatAuto
}

// transcriptAbs makes the event's transcript path absolute (the worker
// runs elsewhere: the queue keeps an absolute path).
func (h *hookRun) transcriptAbs() string {
	p := expandHome(h.in.TranscriptPath, h.opts.Getenv("HOME"))
	if !filepath.IsAbs(p) && h.in.Cwd != "" {
		p = filepath.Join(h.in.Cwd, p)
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	h.in.TranscriptPath = p
	return p
}

func (h *hookRun) readTranscript() (*review.Transcript, error) {
	if h.in.TranscriptPath == "" {
		return nil, nil
	}
	p := h.transcriptAbs()
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		// A session that ended before its first exchange (an empty TUI
		// session) may have written no file at all: nothing to count.
		h.rep.notef("nothing to count: the session wrote no transcript (%s)", p)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	tr, err := review.Read(f, p, h.transcriptFormat())
	if errors.Is(err, review.ErrNoConversation) {
		h.rep.notef("nothing to count: the session has no conversation yet")
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// The transcript is written asynchronously and may not hold the
	// turn's last message yet; the hook input says how the turn ended.
	if !tr.Final && !tr.Interrupted && strings.TrimSpace(h.in.LastAssistantMessage) != "" {
		tr.Final = true
	}
	return tr, nil
}
