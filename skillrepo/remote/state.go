package remote

// What this clone knows of its shared remote, kept beside the rest of its
// per-clone state (docs/remote.md §6): when it last fetched and how that
// went, the last failure with its fix, and the proposals it published
// (with their pull requests). A listing reads one small file and the
// remote-tracking refs; it never asks the network.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/skillrepo"
)

const (
	remoteStateFile     = "remote.json"
	remotePublishedFile = "published.json"
	remoteRunLock       = "sync.lock"
	// remoteStateLimit bounds a state file read: they hold a few hundred
	// bytes per published proposal.
	remoteStateLimit = 16 << 20
)

// Failure is the last thing that went wrong with the remote, and
// how to fix it.
type Failure struct {
	At time.Time `json:"at"`
	// Op is what failed: fetch, push main, publish <id>, pull request <id>.
	Op string `json:"op"`
	// Kind is auth, unreachable, protected, rejected, conflict, dirty,
	// missing (no such remote) or other.
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
}

// remoteRecord is remote.json.
type remoteRecord struct {
	Remote    string     `json:"remote"`
	LastFetch *time.Time `json:"last_fetch,omitempty"`
	LastPush  *time.Time `json:"last_push,omitempty"`
	// Failures are the operations (fetch, push main, publish, pull
	// request) whose last attempt failed, until one succeeds.
	Failures map[string]*Failure `json:"failures,omitempty"`
}

// publication is what this clone published of one proposal.
type publication struct {
	// Tip is the commit pushed last; At when.
	Tip string    `json:"tip"`
	At  time.Time `json:"at"`
	// Branch is the remote branch (proposals/<id>).
	Branch string `json:"branch"`
	// Pending: publishing it failed; the next sync tries again.
	Pending bool `json:"pending,omitempty"`
	// PullRequest is the URL of the pull request opened for it ("" for
	// none); Host the program that opened it (gh, glab).
	PullRequest string `json:"pull_request,omitempty"`
	Host        string `json:"host,omitempty"`
}

// remoteStore reads and writes the state files through the state-file
// primitive (internal/statefile), each read-modify-write under a lock of
// its own (a background sync and a person's publish may run together).
// They are a cache of what the remote said: a missing one is empty, and
// one that does not parse reads as empty and is set aside by the next
// write (the next sync rebuilds what matters).
type remoteStore struct{ dir string }

func (r *Remote) remoteStore() remoteStore { return remoteStore{dir: r.lib.State().Remote()} }

// stateFile is one of the remote's state files, holding a T.
func stateFile[T any](s remoteStore, name string) statefile.File[T] {
	return statefile.File[T]{Path: filepath.Join(s.dir, name), Limit: remoteStateLimit, Perm: 0o644, Reset: true, LockWait: 10 * time.Second}
}

// readState reads a state file: a missing or corrupt one is empty.
func readState[T any](f statefile.File[T]) (T, error) {
	v, err := f.Read()
	var ce *statefile.CorruptError
	if errors.Is(err, fs.ErrNotExist) || errors.As(err, &ce) {
		return *new(T), nil
	}
	return v, err
}

func (s remoteStore) readRecord() (remoteRecord, error) {
	return readState(stateFile[remoteRecord](s, remoteStateFile))
}

func (s remoteStore) record(fn func(r *remoteRecord)) error {
	_, err := stateFile[remoteRecord](s, remoteStateFile).Update(func(r *remoteRecord) error { fn(r); return nil })
	return err
}

func (s remoteStore) published() (map[string]publication, error) {
	m, err := readState(stateFile[map[string]publication](s, remotePublishedFile))
	if m == nil {
		m = map[string]publication{}
	}
	return m, err
}

func (s remoteStore) updatePublished(fn func(map[string]publication)) error {
	_, err := stateFile[map[string]publication](s, remotePublishedFile).Update(func(m *map[string]publication) error {
		if *m == nil {
			*m = map[string]publication{}
		}
		fn(*m)
		return nil
	})
	return err
}

// runLock takes the clone's remote lock: one fetch, push or publish at a
// time (git fetch updates remote-tracking refs that a second fetch would
// race for). It waits until ctx ends.
func (s remoteStore) runLock(ctx context.Context) (func(), error) {
	p := filepath.Join(s.dir, remoteRunLock)
	unlock, err := statefile.LockContext(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("another remote operation of this clone is running (%s): %v: %w", p, err, skillrepo.ErrLocked)
	}
	return unlock, nil
}
