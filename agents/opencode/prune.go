package opencode

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/agent"
)

// The session files the plugin module writes are skillrepo's own copies
// of OpenCode's sessions, kept only for the hooks and the reviews: a
// session start removes the old ones, so the folder stays bounded.
const (
	// maxSessionAge: a session file untouched this long is removed (its
	// session ended long ago; a review queued for it ran or gave up).
	maxSessionAge = 30 * 24 * time.Hour
	// maxKept: past the newest maxKept (LatestSession's search bound),
	// a session file is removed once it is a day old.
	maxKept     = maxSessions
	minKeptAge  = 24 * time.Hour
	maxTempAge  = time.Hour
	pruneBudget = 10000 // folder entries looked at, at most
)

// tempName reports a save the plugin did not finish (<id>.json.<pid>.tmp):
// OpenCode ended the process mid-write. A loop, not a regexp compiled at
// every command's start-up (validID's reason).
func tempName(name string) bool {
	id, rest, ok := strings.Cut(name, ".json.")
	pid, ok2 := strings.CutSuffix(rest, ".tmp")
	if !ok || !ok2 || pid == "" || !validID(id) {
		return false
	}
	for i := 0; i < len(pid); i++ {
		if pid[i] < '0' || pid[i] > '9' {
			return false
		}
	}
	return true
}

// PruneSessions removes the old session files of the plugin's folder:
// those untouched for 30 days, those past the newest 200 once a day old,
// and unfinished saves an hour old, but never one keep holds (a review
// still queued for it). Only regular files named as the module names
// them are touched. It returns how many it removed.
func (Agent) PruneSessions(h agent.Homes, now time.Time, keep func(path string) bool) (int, error) {
	dir := sessionsDir(h)
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	entries, err := f.ReadDir(pruneBudget)
	f.Close()
	if err != nil && len(entries) == 0 {
		return 0, nil // an empty folder reads as io.EOF
	}
	type file struct {
		path string
		mod  time.Time
		temp bool
	}
	var files []file
	for _, e := range entries {
		name := e.Name()
		temp := tempName(name)
		if !temp && (!strings.HasSuffix(name, ".json") || !validID(strings.TrimSuffix(name, ".json"))) {
			continue
		}
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{filepath.Join(dir, name), info.ModTime(), temp})
	}
	slices.SortFunc(files, func(a, b file) int { return b.mod.Compare(a.mod) })
	removed, kept := 0, 0
	var firstErr error
	for _, f := range files {
		age := now.Sub(f.mod)
		var old bool
		switch {
		case f.temp:
			old = age > maxTempAge
		default:
			kept++
			old = age > maxSessionAge || (kept > maxKept && age > minKeptAge)
		}
		if !old || (keep != nil && keep(f.path)) {
			continue
		}
		if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		removed++
	}
	return removed, firstErr
}
