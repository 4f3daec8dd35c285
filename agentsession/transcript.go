package agentsession

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/review"
)

// EnvTranscriptDirs lists more folders (separated as PATH is) where an
// agent's transcripts may be read from, beside the agent's own.
const EnvTranscriptDirs = "SKILLREPO_TRANSCRIPT_DIRS"

// transcriptAbs makes the event's transcript path absolute (the worker
// runs elsewhere: the queue keeps an absolute path).
func (h *hookRun) transcriptAbs() string {
	if h.in.TranscriptPath == "" {
		return ""
	}
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

// transcriptRoots are the folders the agent keeps its transcripts in (its
// folder's Agent.TranscriptRoots) and those of $SKILLREPO_TRANSCRIPT_DIRS.
// A "*" element stands for any one folder name (Gemini CLI's per-project
// folder).
func (h *hookRun) transcriptRoots() []string {
	homes := agent.HomesFrom(h.opts.Getenv("HOME"), h.opts.Getenv)
	roots := h.opts.Agent.TranscriptRoots(homes)
	for _, d := range filepath.SplitList(h.opts.Getenv(EnvTranscriptDirs)) {
		if d != "" {
			roots = append(roots, expandHome(d, h.opts.Getenv("HOME")))
		}
	}
	return roots
}

// insideRoot reports whether real (a path with its links resolved) is
// below root, whose "*" elements match any one name. The part of root
// before its first "*" has its links resolved as real's have.
func insideRoot(root, real string) bool {
	fixed, pattern := root, ""
	if i := strings.Index(root, string(filepath.Separator)+"*"); i >= 0 {
		fixed, pattern = root[:i], root[i+1:]
	}
	r, err := resolveExisting(fixed)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(r, real)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	if pattern == "" {
		return true
	}
	want := strings.Split(pattern, string(filepath.Separator))
	got := strings.Split(rel, string(filepath.Separator))
	if len(got) <= len(want) {
		return false // the folder itself, not a file below it
	}
	for i, w := range want {
		if ok, err := filepath.Match(w, got[i]); err != nil || !ok {
			return false
		}
	}
	return true
}

// checkTranscript keeps the event's transcript_path only when it names a
// file inside the agent's transcript folders: the path is the agent's
// input, and what it names is read, queued and sent to the review model,
// so /etc/shadow, a FIFO or a JSONL file of someone else's must not be.
// A refused path is dropped (the event goes on without a transcript) and
// the hooks log says why.
func (h *hookRun) checkTranscript() {
	if h.in.TranscriptPath == "" {
		return
	}
	p := h.transcriptAbs()
	if err := h.transcriptAllowed(p); err != nil {
		h.rep.notef("transcript ignored: %v", err)
		h.in.TranscriptPath = ""
	}
}

// transcriptAllowed checks p: its folder (links resolved) is inside one of
// the transcript roots (links resolved, insideRoot), and it is a regular
// file itself, not a link (openTranscript does not follow one either).
func (h *hookRun) transcriptAllowed(p string) error {
	roots := h.transcriptRoots()
	dir, err := resolveExisting(filepath.Dir(p))
	if err != nil {
		return err
	}
	real := filepath.Join(dir, filepath.Base(p))
	inside := false
	for _, root := range roots {
		if insideRoot(root, real) {
			inside = true
			break
		}
	}
	if !inside {
		return fmt.Errorf("%s is not inside the agent's transcript folders (%s); add its folder to $%s to read it", p, strings.Join(roots, ", "), EnvTranscriptDirs)
	}
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // not written yet: readTranscript says there is nothing to count
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", p)
	}
	return nil
}

// resolveExisting is p with the links of its longest existing part
// resolved and the rest kept as written: an agent's first session names a
// transcript whose folders (Claude Code's projects/<project>/) it has not
// made yet, and that path is still inside the agent's folders. Nothing
// below the existing part can be a link yet; a file made there later is
// opened without following a final link (openTranscript).
func resolveExisting(p string) (string, error) {
	var rest []string
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		parent := filepath.Dir(p)
		if !errors.Is(err, fs.ErrNotExist) || parent == p {
			return "", err
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// openTranscript opens the (checked) transcript: a regular file, a final
// link not followed, a FIFO swapped in since the check refused without
// waiting on it. Reads of it are bounded (review.MaxTranscriptBytes).
func openTranscript(p string) (*os.File, error) {
	return boundedread.OpenNoFollow(p)
}

func (h *hookRun) readTranscript() (*review.Transcript, error) {
	if h.in.TranscriptPath == "" {
		return nil, nil
	}
	p := h.transcriptAbs()
	f, err := openTranscript(p)
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
	tr, err := review.Read(f, p, h.opts.Agent.TranscriptFormat())
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
