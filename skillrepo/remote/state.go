package remote

// What this clone knows of its shared remote, kept beside the rest of its
// per-clone state (docs/remote.md §6): when it last fetched and how that
// went, the last failure with its fix, and the proposals it published
// (with their pull requests). A listing reads one small file and the
// remote-tracking refs; it never asks the network.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/internal/boundedread"
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

// Publication is what this clone published of one proposal.
type Publication struct {
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

// remoteStore reads and writes the state files, each read-modify-write
// under a lock of its own (a background sync and a person's publish may
// run together).
type remoteStore struct{ dir string }

func (r *Remote) remoteStore() remoteStore { return remoteStore{dir: r.lib.State().Remote()} }

func (s remoteStore) update(name string, v any, fn func() error) error {
	p := filepath.Join(s.dir, name)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	unlock, err := statefile.LockContext(ctx, p+".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if err := s.read(name, v); err != nil {
		return err
	}
	if err := fn(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return statefile.WriteFile(p, append(data, '\n'), 0o644, false)
}

// read loads a state file into v; a missing or unreadable one is empty
// (the state is a cache of what the remote said: the next sync rebuilds
// what matters).
func (s remoteStore) read(name string, v any) error {
	data, err := boundedread.ReadFile(filepath.Join(s.dir, name), remoteStateLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	_ = json.Unmarshal(data, v)
	return nil
}

func (s remoteStore) record(fn func(r *remoteRecord)) error {
	var r remoteRecord
	return s.update(remoteStateFile, &r, func() error { fn(&r); return nil })
}

func (s remoteStore) published() (map[string]Publication, error) {
	out := map[string]Publication{}
	err := s.read(remotePublishedFile, &out)
	return out, err
}

func (s remoteStore) updatePublished(fn func(map[string]Publication)) error {
	m := map[string]Publication{}
	return s.update(remotePublishedFile, &m, func() error { fn(m); return nil })
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
