package gitstore

// The intent record makes a write survive a crash at any instant (see
// doc.go for the ordering argument). It is written, fsynced, before the
// ref moves and removed after the work tree and index caught up. The next
// command that takes the library lock finds a leftover record and either
// discards it (the ref never moved) or finishes the work tree and index for
// the paths it names, never overwriting content that is neither the old nor
// the new version (a user's edit made after the crash).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

const intentVersion = 1

type intent struct {
	Version    int      `json:"version"`
	Ref        string   `json:"ref"`
	Old        string   `json:"old"`
	New        string   `json:"new"`
	CheckedOut bool     `json:"checked_out"`
	Paths      []string `json:"paths"`
	// Untracked are the paths of Paths whose work-tree file stays
	// (Change.Untrack): recovery removes their index entries only.
	Untracked []string `json:"untracked,omitempty"`
	// IndexLock identifies the index.lock this write holds (checked-out
	// branch only): recovery removes that lock file and no other.
	IndexLock *lockID   `json:"index_lock,omitempty"`
	PID       int       `json:"pid"`
	Created   time.Time `json:"created"`
}

func (l *Repo) intentPath() string { return filepath.Join(l.repoStateDir(), "intent.json") }

func (l *Repo) writeIntent(in *intent) error {
	in.Version = intentVersion
	in.PID = os.Getpid()
	in.Created = time.Now().UTC()
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	tmp := l.intentPath() + ".tmp"
	if err := l.writeDurable(tmp, b); err != nil {
		return fmt.Errorf("write intent record: %w", err)
	}
	if err := os.Rename(tmp, l.intentPath()); err != nil {
		return fmt.Errorf("write intent record: %w", err)
	}
	l.syncDir(l.repoStateDir())
	return nil
}

func (l *Repo) removeIntent() {
	os.Remove(l.intentPath())
	l.syncDir(l.repoStateDir())
}

// Recover takes the lock and recovers when an intent record or
// temp debris is present; otherwise it costs one stat.
func (l *Repo) Recover(ctx context.Context) error {
	if !exists(l.intentPath()) && dirEmpty(filepath.Join(l.repoStateDir(), "tmp")) {
		return nil
	}
	unlock, err := l.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return l.RecoverLocked()
}

// RecoverLocked completes or discards an interrupted write. The caller
// holds the library lock.
func (l *Repo) RecoverLocked() error {
	// Debris of killed writers: temp objects and files never renamed.
	tmp := filepath.Join(l.repoStateDir(), "tmp")
	if entries, err := os.ReadDir(tmp); err == nil {
		for _, e := range entries {
			os.RemoveAll(filepath.Join(tmp, e.Name()))
		}
	}
	os.Remove(l.intentPath() + ".tmp")

	b, err := os.ReadFile(l.intentPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read intent record: %w", err)
	}
	var in intent
	if err := json.Unmarshal(b, &in); err != nil || in.Ref == "" {
		// A torn record can only come from a crash before the rename that
		// published it, i.e. before the ref moved: nothing to finish.
		l.removeIntent()
		return nil
	}
	newHash := plumbing.NewHash(in.New)
	refPath := l.refPath(in.Ref)
	// A ref lock left by the killed writer holds nothing or our new value.
	if lb, err := os.ReadFile(refPath + ".lock"); err == nil {
		if s := strings.TrimSpace(string(lb)); s == "" || s == in.New {
			os.Remove(refPath + ".lock")
		}
	}
	// Our index.lock, if the killed writer left it (proved by the record).
	l.removeIndexLockIfOurs(in.IndexLock)
	cur, err := l.ReadRef(in.Ref)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	if cur.String() == in.Old || (cur.IsZero() && in.Old == plumbing.ZeroHash.String()) {
		l.removeIntent() // the ref never moved; the work tree was not touched
		return nil
	}
	if in.CheckedOut && cur == newHash {
		if err := l.finishWorktree(&in); err != nil {
			return fmt.Errorf("finish interrupted write of %s: %w", in.Ref, err)
		}
	}
	l.removeIntent()
	return nil
}

// finishWorktree brings the intent's paths to the new commit, leaving
// alone any file whose content is neither the old nor the new version.
func (l *Repo) finishWorktree(in *intent) error {
	store := l.NewStore(false)
	oldTree := plumbing.ZeroHash
	if in.Old != plumbing.ZeroHash.String() && in.Old != "" {
		t, _, err := store.RootCommitInfo(plumbing.NewHash(in.Old))
		if err != nil {
			return err
		}
		oldTree = t
	}
	newTree, _, err := store.RootCommitInfo(plumbing.NewHash(in.New))
	if err != nil {
		return err
	}
	idx, idxTime, err := l.ReadIndex()
	if err != nil {
		return err
	}
	u := &worktreeUpdate{l: l, store: store, idx: idx, lockID: in.IndexLock, paths: in.Paths, target: map[string]TreeEntry{}, old: map[string]TreeEntry{}, skipped: map[string]bool{}, keep: setOf(in.Untracked)}
	for _, p := range in.Paths {
		oh, om := store.LookupPath(oldTree, p)
		nh, nm := store.LookupPath(newTree, p)
		u.old[p] = TreeEntry{Hash: oh, Mode: om}
		u.target[p] = TreeEntry{Hash: nh, Mode: nm}
		// Hash every file (no stat shortcut): it may have changed since.
		h, present, err := l.worktreeHash(idx, idxTime, p, false)
		if err != nil {
			u.skipped[p] = true
			continue
		}
		switch {
		case !present:
			// Missing: either we removed it already or had not written it.
		case h == oh || h == nh:
		default:
			u.skipped[p] = true // a user's edit: keep it
		}
	}
	return u.apply()
}

// dirEmpty reports whether dir is missing or has no entries.
func dirEmpty(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return true
	}
	defer f.Close()
	names, _ := f.Readdirnames(1)
	return len(names) == 0
}
