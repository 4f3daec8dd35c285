package skillrepo

import (
	"os"
	"path/filepath"

	"github.com/skillrepo/skillrepo/skillrepo/locate"
)

// State names the places where a library keeps its per-clone state: files
// under the git directory that are never committed (.git/skillrepo/, or
// .git/skillrepo/<prefix hash>/ for a folder of a project's repository;
// docs/architecture.md §5). The packages above the domain ask it by name
// for their place, so none of them builds a path under .git. Several
// keepers share the state folder itself and name their files inside it
// (the queue's queue/ and activity stamp, the worker's worker.lock, the
// curator's curator.json, curator-rolled-back.json and curator/ reports,
// the hooks' hooks/ markers, the usage history's usage/, every keeper's
// logs/); the layout is the same as it has always been, so an existing
// clone's state is found.
type State struct{ dir string }

// State is the library's per-clone state.
func (l *Library) State() State { return State{dir: l.repo.StateDir()} }

// Queue is the folder package queue keeps the background work in.
func (s State) Queue() string { return s.dir }

// Worker is the folder of the queue worker's lock and log.
func (s State) Worker() string { return s.dir }

// Curator is the folder of the curator's schedule, run reports and the
// skills a rollback freed.
func (s State) Curator() string { return s.dir }

// Hooks is the folder of the agent hooks' markers, locks and log.
func (s State) Hooks() string { return s.dir }

// ReviewSessions is the folder of the background review's per-session
// counters.
func (s State) ReviewSessions() string { return filepath.Join(s.dir, "review", "sessions") }

// LastReview is the file recording the outcome of the last review run
// outside the queue (skillrepo review), which status reads beside the
// queue's.
func (s State) LastReview() string { return filepath.Join(s.dir, "review", "last.json") }

// Goals is the folder of the standing goals.
func (s State) Goals() string { return filepath.Join(s.dir, "goals") }

// SyncLock is the lock file that keeps one background sync at a time.
func (s State) SyncLock() string { return filepath.Join(s.dir, "hooks", "sync.lock") }

// SetupChecks is the file status keeps the agents' set-up checks in
// between runs (doctor.Cached).
func (s State) SetupChecks() string { return filepath.Join(s.dir, "cache", "setup-checks.json") }

// cache is the domain's own cache file name (history index, owners).
func (s State) cache(name string) string { return filepath.Join(s.dir, "cache", name) }

// StateOf finds, from dir, the per-clone state of the library dir is in
// without opening it, for a log line written where opening would cost
// more than the line is worth (an agent hook). ok is false outside a git
// work tree; a work tree without a library gets the state a library at its
// root would have.
func StateOf(dir string) (s State, ok bool) {
	loc, err := locate.Find(dir)
	if err != nil || loc.Top == "" {
		return State{}, false
	}
	if fi, err := os.Stat(filepath.Join(loc.Top, ".git")); err != nil || !fi.IsDir() {
		return State{}, false // a linked worktree or submodule keeps no state of ours
	}
	s.dir = filepath.Join(loc.Top, ".git", "skillrepo")
	if loc.Library != "" {
		if prefix, err := libraryPrefix(loc.Top, loc.Library); err == nil && prefix != "" {
			s.dir = filepath.Join(s.dir, PrefixStateName(prefix))
		}
	}
	return s, true
}

// Bounds of the state and cache files under .git/skillrepo, read as
// regular files only (a FIFO there would hang the command, a link to
// /dev/zero fill the memory): a cache over its bound is rebuilt.
const (
	maxStateFile = 4 << 20
	maxCacheFile = 256 << 20
)
