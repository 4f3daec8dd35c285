package gitstore

// The intent record makes a write survive a crash at any instant (see
// doc.go for the ordering argument). It is written, fsynced, before the
// work tree, the index or the ref changes, and removed once all three
// agree. The next command that takes the repository lock finds a leftover
// record and brings the paths it names in line with the ref: back to the
// old version when the ref never moved, on to the new one when it did,
// never overwriting content that is neither the old nor the new version (a
// user's edit made after the crash).

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
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// intentVersion 2: a write to the checked-out branch updates the work
// tree and index before it moves the ref (version 1 after it).
const intentVersion = 2

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
	// CheckedOut: the branch was checked out, so the work tree and index
	// of Paths may hold the new version (or, before version 2, the old).
	// IndexLock identifies the index.lock this write holds: recovery
	// removes that lock file and no other.
	IndexLock *lockID `json:"index_lock,omitempty"`
	// FromWorktree: the write recorded the work tree (sync, init), so
	// its files were the source and never written. Undoing it resets
	// the index of Paths only: putting the old version back in the
	// files would erase what the person wrote (or, for the first
	// commit, delete every file it imported).
	FromWorktree bool      `json:"from_worktree,omitempty"`
	PID          int       `json:"pid"`
	Created      time.Time `json:"created"`
}

// maxIntentFile bounds the intent record (a bulk move of a thousand
// skills names a few MB of paths).
const maxIntentFile = 64 << 20

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

	b, err := boundedread.ReadFile(l.intentPath(), maxIntentFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var notRegular *boundedread.NotRegularError
	var tooLarge *boundedread.TooLargeError
	if errors.As(err, &notRegular) || errors.As(err, &tooLarge) {
		// Not a record of ours (ours is a regular file, published by a
		// rename): set it aside, where a person can look at it, rather
		// than fail every command or read a FIFO forever.
		aside := l.intentPath() + ".not-ours-" + time.Now().UTC().Format("20060102T150405")
		if rerr := os.Rename(l.intentPath(), aside); rerr != nil {
			return fmt.Errorf("read intent record: %w (and moving it aside failed: %v)", err, rerr)
		}
		l.warn(fmt.Sprintf("%v: moved aside to %s", err, aside))
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
	head, err := l.HeadBranch()
	if err != nil {
		return err
	}
	// The work tree and index are ours to bring back in line only while
	// the branch is still checked out.
	checkedOut := in.CheckedOut && BranchRef(head) == in.Ref
	store := l.NewStore(false)
	var err2 error
	switch {
	case cur.String() == in.Old || (cur.IsZero() && in.Old == plumbing.ZeroHash.String()):
		// The ref never moved. Since version 2 a write updates the work
		// tree and index before it moves the ref: put back what it wrote.
		if checkedOut && in.Version >= 2 {
			err2 = l.syncPaths(store, l.commitRoot(store, in.New), l.commitRoot(store, in.Old), in.Paths, nil, in.FromWorktree, nil, in.IndexLock)
		}
	case checkedOut && cur == newHash:
		err2 = l.syncPaths(store, l.commitRoot(store, in.Old), l.commitRoot(store, in.New), in.Paths, in.Untracked, false, nil, in.IndexLock)
	}
	var le *LockedError
	if errors.As(err2, &le) {
		return err2 // a git command holds index.lock: the next command retries
	}
	if err2 != nil {
		// Never wedge: a record recovery cannot carry out would fail
		// every later command. The branch is right; what may be off is
		// the work tree and index of these paths, which git can set.
		l.warn(fmt.Sprintf("could not bring the work tree in line with %s after an interrupted write (%v); 'git status' shows what differs, and 'git checkout HEAD -- %s' sets those paths to the branch (it overwrites them)",
			strings.TrimPrefix(in.Ref, "refs/heads/"), err2, strings.Join(shellQuoteAll(firstN(in.Paths, 5)), " ")))
	}
	l.removeIntent()
	return nil
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// shellQuoteAll quotes each path for a command line a person copies.
func shellQuoteAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if strings.ContainsAny(p, " '\"$`\\*?[]()&;|<>") {
			p = "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
		}
		out[i] = p
	}
	return out
}

// commitRoot is the whole tree of commit h (a hash in text; zero or empty:
// the empty tree, as for the first commit's parent). An unreadable commit
// is the zero hash too: its paths are then treated as absent.
func (l *Repo) commitRoot(store *Store, h string) plumbing.Hash {
	if h == "" || h == plumbing.ZeroHash.String() {
		return plumbing.ZeroHash
	}
	t, _, err := store.RootCommitInfo(plumbing.NewHash(h))
	if err != nil {
		return plumbing.ZeroHash
	}
	return t
}

// syncPaths brings paths of the work tree and index from the version in
// tree from to the version in tree to, leaving alone any file, and any
// index entry, that holds neither (a user's edit, or what they staged).
// indexOnly leaves every file alone and sets the index entries only,
// without stat data, so git hashes the files again. held is the
// index.lock the caller holds (nil: take it with id, which may be nil
// for a new one).
func (l *Repo) syncPaths(store *Store, from, to plumbing.Hash, paths, keep []string, indexOnly bool, held *indexLock, id *lockID) error {
	idx, idxTime, err := l.ReadIndex()
	if err != nil {
		return err
	}
	u := &worktreeUpdate{l: l, store: store, idx: idx, lock: held, lockID: id, paths: paths, target: map[string]TreeEntry{}, old: map[string]TreeEntry{}, skipped: map[string]bool{}, userStaged: map[string]bool{}, keep: setOf(keep)}
	for _, p := range paths {
		oh, om := store.LookupPath(from, p)
		nh, nm := store.LookupPath(to, p)
		u.old[p] = TreeEntry{Hash: oh, Mode: om}
		u.target[p] = TreeEntry{Hash: nh, Mode: nm}
		if e, ok := idx.lookup(p); ok && e.Hash != oh && e.Hash != nh {
			u.userStaged[p] = true // staged by the user since: theirs
		}
		if indexOnly {
			u.skipped[p] = true // the file was the write's source: the person's
			continue
		}
		// Hash every file (no stat shortcut): it may have changed since.
		h, present, err := l.worktreeHash(idx, idxTime, p, false)
		if err != nil {
			u.skipped[p] = true
			continue
		}
		switch {
		case !present:
			// Missing: either removed already or not written yet.
		case h.IsZero():
			u.skipped[p] = true // a folder where the file goes: the user's
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
