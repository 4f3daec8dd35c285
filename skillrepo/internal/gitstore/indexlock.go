package gitstore

// index.lock is git's lock on the index. git commit -a takes it before
// it reads the work tree and holds it through its hooks until HEAD moved;
// a plain git commit takes it only to refresh the index, then runs its
// pre-commit hook holding nothing, and moves HEAD only if it still holds
// the commit it read as it started. Every write takes index.lock before
// it reads HEAD, the branch and the index, and keeps it until the new
// index is in place and the ref moved (tx.go, land), so it serialises
// with git commit -a and git switch; and before it starts, it waits for a
// plain git commit running in the work tree to finish (waitForGitCommits),
// instead of moving the branch under it.
//
// A lock file is only ever removed when it is provably ours. Our
// index.lock holds a random nonce and nothing else, from the instant it
// exists (it is a temp file holding the nonce, hard-linked into place, so
// creation and content are one atomic step) to the instant it is removed
// (the new index is written to a temp file and renamed over the index
// while the lock is held, never written into the lock). The intent record,
// written before the lock is taken, names the nonce, so recovery can tell
// our lock from any other at every instant of a crash. Any other
// index.lock belongs to a git command (or something we cannot identify):
// we wait for it as long as for our own lock, then report it, and never
// remove it.

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// lockID identifies a lock file of ours: its exact content.
type lockID struct {
	Nonce string `json:"nonce"`
}

func newLockID() *lockID {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return &lockID{Nonce: "skillrepo index lock " + hex.EncodeToString(b[:]) + "\n"}
}

// indexLock is our hold on .git/index.lock.
type indexLock struct {
	l    *Repo
	path string
	id   *lockID
	// done: released; nothing left to remove.
	done bool
}

// takeIndexLock creates index.lock holding id's nonce, waiting up to the
// lock timeout while another process holds it. Error: *LockedError
// (ErrLocked) naming the lock when it is still held.
func (l *Repo) takeIndexLock(id *lockID) (*indexLock, error) {
	if l.testOnlyBeforeIndexLock != nil {
		l.testOnlyBeforeIndexLock()
	}
	path := l.indexPath() + ".lock"
	tmpDir := filepath.Join(l.repoStateDir(), "tmp")
	if err := os.MkdirAll(tmpDir, 0o755); err != nil {
		return nil, fmt.Errorf("take %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(tmpDir, "index-lock-")
	if err != nil {
		return nil, fmt.Errorf("take %s: %w", path, err)
	}
	_, err = tmp.WriteString(id.Nonce)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	defer os.Remove(tmp.Name())
	if err != nil {
		return nil, fmt.Errorf("take %s: %w", path, err)
	}
	deadline := time.Now().Add(l.lockTimeout)
	// git holds index.lock for milliseconds and never waits for it: poll
	// soon at first, or a person's git loop takes it back every time.
	for wait := time.Millisecond; ; wait = min(2*wait, 25*time.Millisecond) {
		err := os.Link(tmp.Name(), path)
		if err == nil {
			return &indexLock{l: l, path: path, id: id}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("take %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			return nil, indexLockedError(path)
		}
		time.Sleep(wait)
	}
}

// indexLockedError describes an index.lock held by someone else.
func indexLockedError(path string) error {
	holder := "a git command (" + path + " exists"
	if fi, err := os.Stat(path); err == nil {
		holder += ", since " + fi.ModTime().UTC().Format(time.RFC3339)
	}
	holder += ")"
	return &LockedError{Path: path, Holder: holder,
		hint: "wait for the git command running in this repository to finish, then retry; if no git process is running, git says to remove " + path + " by hand"}
}

// release removes the lock (it is ours: nobody else removes it).
func (k *indexLock) release() {
	if k == nil || k.done {
		return
	}
	k.done = true
	os.Remove(k.path)
}

// replaceIndex writes the new index to a temp file, syncs it and renames
// it over the index while the lock is held (which it keeps).
func (k *indexLock) replaceIndex(write func(w io.Writer) error) error {
	tmpDir := filepath.Join(k.l.repoStateDir(), "tmp")
	f, err := os.CreateTemp(tmpDir, "index-")
	if err != nil {
		return err
	}
	err = write(f)
	if err == nil {
		err = k.l.syncFile(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), k.l.indexPath())
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// removeIndexLockIfOurs removes the index.lock a killed write of ours
// left, when it holds exactly the nonce the intent record names.
func (l *Repo) removeIndexLockIfOurs(id *lockID) {
	if id == nil || id.Nonce == "" {
		return
	}
	path := l.indexPath() + ".lock"
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(id.Nonce)) {
		return
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != id.Nonce {
		return
	}
	os.Remove(path)
}

// settledHead reads, while the write holds index.lock, the branch HEAD
// names ("" when detached) and the index, once they belong together.
//
// git switch writes the new index, releases index.lock and only then
// points HEAD at the new branch; in between, HEAD still names the branch
// being left while the index already holds the other one. A write that
// trusted HEAD there would put its files into the wrong branch's index.
// git checkout and git commit record the tree the index holds (the root of
// its cache tree); when that tree is not HEAD's, and the index was written
// a moment ago, a git command is between the two steps: wait for HEAD to
// follow. An index whose tree stays apart from HEAD's (git reset --soft,
// which leaves staged changes) is older than that moment, and accepted:
// the write's per-path checks protect what it stages.
//
// The tree check cannot see a switch between two branches at one commit
// (git switch -c x; git switch main): the index agrees with both. So when
// the index was written a moment ago, the git commands that move HEAD
// after writing the index (git switch, checkout, reset, …) still running
// in the work tree are waited for first. The write holds index.lock: none
// can write the index again, so once they are gone HEAD is what they
// left. Without that wait, a write to main while HEAD still named x moved
// main's ref only, git then pointed HEAD at main with the index of main's
// old tip, and the write showed as a staged deletion that the person's
// next commit recorded (issue 40 item 5).
func (l *Repo) settledHead(store *Store) (head string, idx *Index, idxTime time.Time, err error) {
	if fi, err := os.Stat(l.indexPath()); err == nil && time.Since(fi.ModTime()) <= indexSettleTime {
		if err := l.waitForGitSwitches(); err != nil {
			return "", nil, time.Time{}, err
		}
	}
	wait := time.Millisecond
	for {
		// One read of HEAD gives both the branch and its commit, read
		// before the index: a HEAD that moves after it is seen on the
		// next round.
		var tip Hash
		if head, tip, err = l.readHead(); err != nil {
			return "", nil, time.Time{}, err
		}
		if idx, idxTime, err = l.ReadIndex(); err != nil {
			return "", nil, time.Time{}, err
		}
		if idx.cacheTree.IsZero() || idx.src == nil || time.Since(idx.src.ModTime()) > indexSettleTime {
			return head, idx, idxTime, nil
		}
		if tip.IsZero() {
			return head, idx, idxTime, nil // an unborn branch: no tree to agree with
		}
		if root, _, err := store.RootCommitInfo(tip); err != nil || root == idx.cacheTree {
			return head, idx, idxTime, nil
		}
		time.Sleep(wait)
		wait = min(2*wait, 16*time.Millisecond)
	}
}

// indexSettleTime bounds how long after a git command wrote the index
// settledHead waits for HEAD to agree with it.
const indexSettleTime = time.Second

// readHead reads HEAD once: the branch it names ("" when detached) and
// the commit it resolves to (zero when the branch is unborn).
func (l *Repo) readHead() (branch string, commit Hash, err error) {
	b, err := os.ReadFile(filepath.Join(l.GitDir, "HEAD"))
	if err != nil {
		return "", ZeroHash, fmt.Errorf("read HEAD: %w", err)
	}
	s := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(s, "ref: "); ok {
		h, err := l.ReadRef(ref)
		if errors.Is(err, ErrNotFound) {
			err = nil
		}
		return strings.TrimPrefix(ref, "refs/heads/"), h, err
	}
	if !IsHash(s) {
		return "", ZeroHash, fmt.Errorf("read HEAD: %q is neither a ref nor a commit", s)
	}
	return "", NewHash(s), nil
}
