package gitstore

// The work tree and the index are updated for the touched paths only, the
// way git checkout would update them, so that "git status" is clean after a
// write. The index is read and written with git's protocol: index.lock
// created exclusively, written, fsynced and renamed over .git/index. The
// cache-tree extension is dropped on rewrite (git rebuilds it), which is
// what makes editing entries behind git's back safe.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// worktreeUpdate is a checked plan to bring paths to a new tree.
type worktreeUpdate struct {
	l     *Repo
	store *Store
	idx   *Index
	// target entries per path; zero hash = delete.
	paths   []string
	target  map[string]TreeEntry
	old     map[string]TreeEntry
	skipped map[string]bool // recovery only: user edits left alone
	// userStaged: recovery only: index entries the user staged since
	userStaged map[string]bool
	same       map[string]bool // work tree already holds the target: index only
	keep       map[string]bool // untracked: the index entry goes, the file stays
	// lock is index.lock, taken before the ref moved (nil: taken when
	// the index is written).
	lock *indexLock
	// lockID is the identity to take index.lock with when lock is nil
	// (recovery reuses the interrupted write's, which its record names).
	lockID *lockID

	testOnlyCrash func(step string) error
}

func (l *Repo) indexPath() string { return filepath.Join(l.GitDir, "index") }

// indexLoad is a loadIndex running in a goroutine.
type indexLoad struct {
	done chan struct{}
	idx  *Index
	err  error
}

// PrefetchIndex starts reading .git/index in a goroutine, to be ready
// when the command first asks for it: a project's 5 MB index costs a few
// milliseconds to map and scan (bench/prefix.sh), which then run beside
// the command's other work (opening the library, the write's lock,
// recovery and checks). loadIndex reads only files and immutable fields
// of l; the next ReadIndex waits for it, and checks the file is still the
// one it read. A second call while one is pending does nothing.
func (l *Repo) PrefetchIndex() {
	if l.indexLoad != nil {
		return
	}
	ld := &indexLoad{done: make(chan struct{})}
	l.indexLoad = ld
	go func() {
		defer close(ld.done)
		ld.idx, ld.err = l.loadIndex()
	}()
}

// ReadIndex decodes .git/index (an empty index when there is none) and
// returns its modification time (for git's racy-clean rule).
func (l *Repo) ReadIndex() (*Index, time.Time, error) {
	if ld := l.indexLoad; ld != nil {
		// A prefetch becomes the cache; the check below still asks
		// whether the file is the one it read. A failed one is read
		// again below, which reports the error.
		l.indexLoad = nil
		<-ld.done
		if ld.err == nil && ld.idx.src != nil {
			l.indexCache = &indexCache{idx: ld.idx}
		}
	}
	// One decode per command: the lookup hint and the write both need it.
	if c := l.indexCache; c != nil {
		if fi, err := os.Stat(l.indexPath()); err == nil && sameFile(c.idx.src, fi) {
			return c.idx.clone(), fi.ModTime(), nil
		}
	}
	idx, err := l.loadIndex()
	if err != nil {
		return nil, time.Time{}, err
	}
	if idx.src == nil {
		return idx, time.Time{}, nil
	}
	l.indexCache = &indexCache{idx: idx}
	return idx.clone(), idx.src.ModTime(), nil
}

// loadIndex reads and decodes .git/index, with the stat data of the file
// it read (no index: an empty one with none).
func (l *Repo) loadIndex() (*Index, error) {
	f, err := os.Open(l.indexPath())
	if errors.Is(err, fs.ErrNotExist) {
		return &Index{Version: 2}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	b, mapping, err := readIndexBytes(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	idx, link, err := decodeIndexFile(b)
	if err == nil && link != nil {
		tree := idx.cacheTree // the split file's extensions are the index's
		// Merging copies the split index's entries (the merged index
		// holds the shared index's mapping); mapping stays live until
		// the line below.
		if idx, err = l.mergeSharedIndex(idx, link); err == nil {
			idx.cacheTree = tree
		}
	}
	if err == nil && idx.mapping == nil {
		idx.mapping = mapping
	}
	var ie *IndexError
	if errors.As(err, &ie) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", l.indexPath(), err)
	}
	idx.src = fi
	return idx, nil
}

// sameFile reports whether fi is still the file a was (nil: no file).
func sameFile(a, fi os.FileInfo) bool {
	return a != nil && os.SameFile(a, fi) && a.ModTime().Equal(fi.ModTime()) && a.Size() == fi.Size()
}

// writeIndex replaces .git/index through index.lock, as git does: held is
// the index.lock the write holds, and keeps (nil: take it now, waiting for
// a git command that holds it, and release it when done). git honours index.lock,
// not our lock: a git add or checkout may have rewritten the index since
// we read it. Under index.lock it is read again if so, and our edits
// (whole paths) are put on top of what git wrote, which is kept.
func (l *Repo) writeIndex(idx *Index, held *indexLock, id *lockID) error {
	k := held
	if k == nil {
		if id == nil {
			id = newLockID()
		}
		var err error
		if k, err = l.takeIndexLock(id); err != nil {
			return err
		}
		defer k.release()
	}
	cur, statErr := os.Stat(l.indexPath())
	if changed := (idx.src == nil) != (statErr != nil) || (statErr == nil && idx.src != nil && !sameFile(idx.src, cur)); changed {
		fresh, err := l.loadIndex()
		if err != nil {
			return err
		}
		fresh.edits = idx.edits
		idx = fresh
	}
	write, err := l.indexWriter(idx)
	if err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	if err := k.replaceIndex(write); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

// prepareWorktree checks that no path holds an uncommitted change (in the
// index idx or the work tree) and returns the update that brings them to
// newTree. A path whose work tree content already equals the target is not
// dirty (the same edit made twice loses nothing).
//
// keep are the paths being untracked: their files are never touched, so
// they are never dirty.
func (l *Repo) prepareWorktree(store *Store, idx *Index, idxTime time.Time, oldTree, newTree plumbing.Hash, paths, keep []string, fromWorktree bool) (*worktreeUpdate, error) {
	// A path outside a sparse checkout is refused first: its absence from
	// the work tree is git's doing, not a deletion (sparse.go).
	if err := l.checkSparse(paths); err != nil {
		return nil, err
	}
	u := &worktreeUpdate{l: l, store: store, idx: idx, paths: paths, target: map[string]TreeEntry{}, old: map[string]TreeEntry{}, same: map[string]bool{}, keep: setOf(keep)}
	for _, p := range paths {
		oh, om := store.LookupPath(oldTree, p)
		nh, nm := store.LookupPath(newTree, p)
		u.old[p] = TreeEntry{Mode: om, Hash: oh}
		u.target[p] = TreeEntry{Mode: nm, Hash: nh}
	}
	// A tracked symlink this update removes (the tree makes it a folder)
	// is not a folder to refuse: apply removes it before it writes under
	// its path, and its own dirty check below keeps a person's change.
	removedLink := func(q string) bool {
		o, ok := u.old[q]
		return ok && o.Mode == filemode.Symlink && u.target[q].Hash.IsZero() && !u.keep[q]
	}
	var dirty []string
	for _, p := range paths {
		oh, om, nh, nm := u.old[p].Hash, u.old[p].Mode, u.target[p].Hash, u.target[p].Mode
		// Whatever tree this came from, a path git would refuse to check
		// out never reaches the disk (treecheck.go).
		if err := VerifyPath(p, nm); err != nil {
			return nil, err
		}
		if nm == filemode.Symlink && !fromWorktree {
			target, err := store.Blob(nh)
			if err != nil {
				return nil, err
			}
			if why := CheckSymlink(p, string(target)); why != "" {
				return nil, &UnsafePathError{Path: p, Reason: why}
			}
		}
		if err := l.checkInsideRoot(p, removedLink); err != nil {
			return nil, err
		}
		if underRemoved(p, removedLink) {
			continue // what the work tree shows there is the link's target's
		}
		if h, present, err := l.WorktreeHash(idx, idxTime, p); err == nil && present && h == nh && !nh.IsZero() {
			if fi, err := os.Lstat(filepath.Join(l.Root, filepath.FromSlash(p))); err == nil && ModeOf(fi) == nm {
				u.same[p] = true
			}
		}
		if !fromWorktree && !u.keep[p] && l.pathDirty(idx, idxTime, p, oh, om, nh) {
			dirty = append(dirty, p)
		}
	}
	if len(dirty) > 0 {
		return nil, &DirtyError{Paths: dirty}
	}
	return u, nil
}

// pathDirty reports whether p holds a change that is in neither the old
// nor the new tree.
func (l *Repo) pathDirty(idx *Index, idxTime time.Time, p string, oh plumbing.Hash, om filemode.FileMode, nh plumbing.Hash) bool {
	// Staged: the index entry differs from the old tree.
	if e, ok := idx.lookup(p); ok {
		if e.Hash != oh && e.Hash != nh {
			return true
		}
	} else if !oh.IsZero() {
		// "git rm --cached" of a tracked path: a staged deletion.
		if _, err := os.Lstat(filepath.Join(l.Root, filepath.FromSlash(p))); err == nil {
			return true
		}
	}
	h, present, err := l.WorktreeHash(idx, idxTime, p)
	if err != nil {
		return true // unreadable: never risk it
	}
	switch {
	case !present:
		// Deleted by the user: dirty unless we delete it too, or it was
		// never there.
		return !oh.IsZero() && !nh.IsZero()
	case h == oh || h == nh:
		return false
	}
	return true
}

// WorktreeHash returns the blob hash of the work tree file at p, using the
// index's stat data to avoid reading it when git would.
//
// The hash is of what git add would store: the content after the
// end-of-line conversion of p (convert.go), so a CRLF work tree under
// core.autocrlf=true matches its LF blob. A path whose conversion runs a
// filter gives its raw content's hash unless it is the checked-out form
// of the LFS pointer the index holds: a write to it is refused anyway
// (refuseUnconverted).
func (l *Repo) WorktreeHash(idx *Index, idxTime time.Time, p string) (plumbing.Hash, bool, error) {
	return l.worktreeHash(idx, idxTime, p, true)
}

// worktreeHash is WorktreeHash; useStat false hashes the file even when
// its index entry's stat data matches.
func (l *Repo) worktreeHash(idx *Index, idxTime time.Time, p string, useStat bool) (plumbing.Hash, bool, error) {
	full := filepath.Join(l.Root, filepath.FromSlash(p))
	fi, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
		return plumbing.ZeroHash, false, nil
	}
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	if fi.IsDir() {
		return plumbing.ZeroHash, true, nil // a directory where a file goes: dirty
	}
	if e, ok := idx.lookup(p); ok && useStat {
		if int64(e.Size) == fi.Size()&0xffffffff && e.modTime().Equal(fi.ModTime()) && fi.ModTime().Before(idxTime) {
			return e.Hash, true, nil
		}
	}
	var data []byte
	if fi.Mode()&os.ModeSymlink != 0 {
		t, err := os.Readlink(full)
		if err != nil {
			return plumbing.ZeroHash, true, err
		}
		data = []byte(t)
	} else {
		if data, err = os.ReadFile(full); err != nil {
			return plumbing.ZeroHash, true, err
		}
		if data, _, err = l.cleanWorktree(idx, p, data); err != nil {
			return plumbing.ZeroHash, true, err
		}
	}
	return HashObject(plumbing.BlobObject, data), true, nil
}

func isNotDir(err error) bool {
	return err != nil && errors.Is(err, syscall.ENOTDIR)
}

// apply writes the target content of each path (temp file in
// .git/skillrepo/tmp, then rename) or removes it, then rewrites the index
// entries of those paths with fresh stat data.
func (u *worktreeUpdate) apply() error {
	tmpDir := filepath.Join(u.l.repoStateDir(), "tmp")
	if err := os.MkdirAll(tmpDir, 0o755); err != nil {
		return err
	}
	u.renameMoves() // moved files: rename, no rewrite (worktree_moves.go)
	// Removals first: a folder the new tree makes a file or symlink (or a
	// symlink it makes a folder) is gone before its path is written.
	paths := slices.Clone(attributesFirst(u.paths))
	sort.SliceStable(paths, func(i, j int) bool { return u.target[paths[i]].Hash.IsZero() && !u.target[paths[j]].Hash.IsZero() })
	for _, p := range paths {
		if u.skipped[p] || u.same[p] {
			continue
		}
		t := u.target[p]
		full := filepath.Join(u.l.Root, filepath.FromSlash(p))
		if t.Hash.IsZero() {
			if u.keep[p] {
				continue // untracked: the index entry goes, the file stays
			}
			if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) && !isNotDir(err) {
				return fmt.Errorf("remove %s: %w", p, err)
			}
			removeEmptyParents(u.l.Root, filepath.Dir(full))
			u.attributesWritten(p)
			continue
		}
		data, err := u.store.Blob(t.Hash)
		if err != nil {
			return err
		}
		if t.Mode != filemode.Symlink {
			data = u.l.smudgeFor(p, data)
		}
		if err := writeWorktreeFile(tmpDir, full, data, t.Mode, u.l.syncFile); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
		u.attributesWritten(p)
		if u.testOnlyCrash != nil {
			if err := u.testOnlyCrash("file"); err != nil {
				return err
			}
		}
	}
	if err := u.updateIndex(); err != nil {
		return err
	}
	u.syncDirs()
	return nil
}

// attributesWritten drops the cached lines of a .gitattributes file just
// written or removed: the files it governs are written after it and
// converted by its new lines, as git checkout does.
func (u *worktreeUpdate) attributesWritten(p string) {
	if d, ok := isAttributesFile(p); ok {
		u.l.converter().attrs.forget(d)
	}
}

// attributesFirst orders paths with the .gitattributes files first
// (shallowest first), so the files they govern are converted by the
// attributes being written.
func attributesFirst(paths []string) []string {
	var attrs, rest []string
	for _, p := range paths {
		if _, ok := isAttributesFile(p); ok {
			attrs = append(attrs, p)
		} else {
			rest = append(rest, p)
		}
	}
	if len(attrs) == 0 {
		return paths
	}
	sort.SliceStable(attrs, func(i, j int) bool { return strings.Count(attrs[i], "/") < strings.Count(attrs[j], "/") })
	return append(attrs, rest...)
}

// maxDirSyncs bounds the directory fsyncs of one work-tree update. A
// file's own content is fsynced before its rename; the rename itself is
// made durable by syncing the folder, which a normal write (a few paths)
// does. A bulk move (a curator run archiving a thousand skills) would pay
// a thousand folder syncs; there we rely on the file system journaling
// metadata in order (ext4, xfs), so the renames are durable no later than
// the removal of the intent record that follows them.
const maxDirSyncs = 64

func (u *worktreeUpdate) syncDirs() {
	if u.l.deferSync {
		return // the barrier after the update covers them
	}
	dirs := map[string]bool{}
	for _, p := range u.paths {
		dirs[filepath.Dir(filepath.Join(u.l.Root, filepath.FromSlash(p)))] = true
		if len(dirs) > maxDirSyncs {
			return
		}
	}
	for d := range dirs {
		if exists(d) {
			u.l.syncDir(d)
		}
	}
}

func (u *worktreeUpdate) updateIndex() error {
	for _, p := range u.paths {
		if u.userStaged[p] {
			continue
		}
		t := u.target[p]
		if t.Hash.IsZero() {
			u.idx.remove(p)
			continue
		}
		var fi os.FileInfo
		if !u.skipped[p] {
			fi, _ = os.Lstat(filepath.Join(u.l.Root, filepath.FromSlash(p)))
		}
		u.idx.set(newIndexEntry(p, t.Hash, t.Mode, fi))
	}
	return u.l.writeIndex(u.idx, u.lock, u.lockID)
}

// writeWorktreeFile atomically replaces full with data: temp file, fsync,
// chmod, rename. A symlink entry becomes a symlink.
func writeWorktreeFile(tmpDir, full string, data []byte, mode filemode.FileMode, sync func(*os.File) error) error {
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	if mode == filemode.Symlink {
		tmp := filepath.Join(tmpDir, fmt.Sprintf("link-%d-%d", os.Getpid(), time.Now().UnixNano()))
		if err := os.Symlink(string(data), tmp); err != nil {
			return err
		}
		if err := os.Rename(tmp, full); err != nil {
			os.Remove(tmp)
			return err
		}
		return nil
	}
	f, err := os.CreateTemp(tmpDir, "file-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	perm := os.FileMode(0o644)
	if mode == filemode.Executable {
		perm = 0o755
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = sync(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, full)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// checkInsideRoot refuses a path whose parent folders in the work tree go
// through a symlink: writing there could land outside the library. A
// symlink the same update removes (removed reports it by its repository
// path) is not gone through: apply removes it first.
func (l *Repo) checkInsideRoot(p string, removed func(string) bool) error {
	dir := l.Root
	parts := strings.Split(p, "/")
	for i, part := range parts[:len(parts)-1] {
		dir = filepath.Join(dir, part)
		fi, err := os.Lstat(dir)
		if err != nil {
			return nil // missing: we create real folders
		}
		if fi.Mode()&os.ModeSymlink != 0 && removed(strings.Join(parts[:i+1], "/")) {
			return nil // removed before anything is written under it
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s: the folder %s is a symlink in the work tree; refusing to write through it", p, dir)
		}
	}
	return nil
}

// underRemoved reports whether a parent folder of p is a symlink the
// update removes.
func underRemoved(p string, removed func(string) bool) bool {
	for i := range len(p) {
		if p[i] == '/' && removed(p[:i]) {
			return true
		}
	}
	return false
}

// removeEmptyParents removes dir and its parents while they are empty
// folders, stopping at root. A file where a folder was expected (a
// refused write of a/b.md/x.md, rolled back, asks for a/b.md) stays:
// os.Remove alone would unlink it.
func removeEmptyParents(root, dir string) {
	for dir != root && strings.HasPrefix(dir, root) {
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// ModeOf is the tree mode git records for a work-tree file.
func ModeOf(fi os.FileInfo) filemode.FileMode {
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return filemode.Symlink
	case fi.Mode()&0o111 != 0:
		return filemode.Executable
	}
	return filemode.Regular
}

func setOf(paths []string) map[string]bool {
	m := make(map[string]bool, len(paths))
	for _, p := range paths {
		m[p] = true
	}
	return m
}
