package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// ErrNoChanges is returned by [Tx.Commit] when the staged changes leave the
// tree as it was.
var ErrNoChanges = errors.New("nothing to commit")

// UpdateOptions chooses the branch an [Repo.Update] writes.
type UpdateOptions struct {
	// Branch is the branch to write ("" = the main branch).
	Branch string
	// From creates Branch from this revision when it does not exist ("" =
	// the branch must exist, except the main branch of an empty repository).
	From string
	// DryRun computes everything, writes nothing: no object, ref, file or
	// index is touched, and the lock is not taken.
	DryRun bool
	// Reflog is the reflog message ("" = the last commit's subject).
	Reflog string

	// RecordsWorktree marks a write whose content was read from the work
	// tree (sync, init): there is no edit of the user's to protect.
	RecordsWorktree bool
}

// UpdateResult says what an Update did (or, with DryRun, would do).
type UpdateResult struct {
	Branch string
	// Old and New are the branch tip before and after; Old is zero when
	// the branch was created.
	Old, New plumbing.Hash
	// Commits are the new commits, oldest first.
	Commits []plumbing.Hash
	// Paths are the files whose content changed, sorted.
	Paths []string
	// CheckedOut is true when the branch is checked out: the work tree
	// and index were updated with it.
	CheckedOut bool
	DryRun     bool
}

// Change is a staged file: its new content (hash + mode), or a deletion.
type Change struct {
	Delete bool
	// Untrack, with Delete, keeps the work-tree file: the path leaves the
	// tree and the index only, as "git rm --cached" does (a file that
	// becomes ignored stays where its owner keeps it).
	Untrack bool
	Hash    plumbing.Hash
	Mode    filemode.FileMode
}

// Tx is one read-modify-write of a branch, handed to the function given to
// [Repo.Update]. Reads see the branch tip plus what was staged; writes
// are staged until [Tx.Commit]. A Tx is valid only inside that function.
type Tx struct {
	l       *Repo
	store   *Store
	branch  string
	tip     plumbing.Hash // the last commit of the series (zero: none yet)
	tree    plumbing.Hash // its tree, the library's view (at Repo.Prefix)
	root    plumbing.Hash // its whole tree (tree when there is no prefix)
	changes map[string]Change
	touched map[string]bool
	// untracked are the touched paths whose last change was an untrack.
	untracked map[string]bool
	extra     []plumbing.Hash
	commits   []plumbing.Hash
}

// Branch is the branch being written.
func (tx *Tx) Branch() string { return tx.branch }

// Base is the commit the next Commit will have as first parent (zero for
// the first commit of a new repository).
func (tx *Tx) Base() plumbing.Hash { return tx.tip }

// Store is the object store of this write: it reads the objects the
// write created as well as the repository's.
func (tx *Tx) Store() *Store { return tx.store }

// Tree is the tree of [Tx.Base] (what was committed, not what is staged),
// as the library sees it: the subtree at [Repo.Prefix].
func (tx *Tx) Tree() plumbing.Hash { return tx.tree }

// Staged yields each staged, uncommitted change (in no order).
func (tx *Tx) Staged() iter.Seq2[string, Change] {
	return func(yield func(string, Change) bool) {
		for p, c := range tx.changes {
			if !yield(p, c) {
				return
			}
		}
	}
}

// HasStaged reports whether anything is staged and not yet committed.
func (tx *Tx) HasStaged() bool { return len(tx.changes) > 0 }

// Stage stages a change of path p as is (p must be clean: see
// [Tx.WriteFile] for the checked form).
func (tx *Tx) Stage(p string, c Change) { tx.stage(p, c) }

// Update runs fn as one atomic write of a branch. Under the library lock it
// reads the branch tip, lets fn read and stage changes and commit them (one
// or more [Tx.Commit] calls), then moves the branch ref once by
// compare-and-swap and, when the branch is checked out, updates the work
// tree and index for the touched paths only. If fn returns an error nothing
// is written (the objects it created are unreachable and harmless). If the
// ref moved under us (a concurrent git command), fn runs again on the new
// tip: twice without git's lock, then once more holding index.lock from
// before it reads the branch, so that no git commit (which needs that
// lock) can move the branch under it and a person committing in a loop
// cannot starve the write (holdIndexLock).
//
// Errors: *DirtyError (ErrConflict) when a touched path holds an
// uncommitted edit; *LockedError (ErrLocked); *RefMovedError (ErrConflict)
// after the retries; ErrNotFound when the branch does not exist and From is
// empty; whatever fn returns.
func (l *Repo) Update(ctx context.Context, opts UpdateOptions, fn func(tx *Tx) error) (*UpdateResult, error) {
	if opts.Branch == "" {
		opts.Branch = l.DefaultBranch
	}
	// The index is read beside the lock, recovery and the first checks
	// (so the unmerged check comes after fn: updateOnce).
	l.PrefetchIndex()
	if !opts.DryRun {
		unlock, err := l.Lock(ctx)
		if err != nil {
			return nil, err
		}
		defer unlock()
		if err := l.RecoverLocked(); err != nil {
			return nil, err
		}
	}
	var lastErr error
	for attempt := 0; attempt <= optimisticAttempts; attempt++ {
		var held *indexLock
		if !opts.DryRun {
			// A person's commit in progress lands first (gitreaders_linux.go).
			if err := l.waitForGitCommits(ctx); err != nil {
				return nil, err
			}
			if attempt == optimisticAttempts {
				var err error
				if held, err = l.holdIndexLock(ctx, BranchRef(opts.Branch)); err != nil {
					return nil, err
				}
			}
		}
		res, err := l.updateOnce(ctx, opts, fn, held)
		if held != nil && !held.done && !errors.Is(err, errTestOnlyCrash) {
			// The write stopped before it landed anything: only the
			// lock and its record are left to take back.
			held.release()
			l.removeIntent()
		}
		var moved *RefMovedError
		if errors.As(err, &moved) {
			lastErr = err
			continue
		}
		if err == nil && !opts.DryRun && len(res.Commits) > 0 {
			l.maintain() // maintenance.go: keep loose objects bounded
		}
		return res, err
	}
	return nil, lastErr
}

// optimisticAttempts is how many times a write runs without holding
// index.lock while it builds its objects, before its last attempt holds
// it throughout. Building without it keeps the person's git commands
// free to run meanwhile; the last attempt guarantees progress.
const optimisticAttempts = 2

// holdIndexLock takes index.lock for a write's whole last attempt, from
// before it reads the branch. The intent record naming the lock is
// written first, as land does, so that a crash while the write builds
// its objects leaves a lock recovery can prove is ours and remove: the
// record moves nothing (old and new are the branch's current tip). Once
// the lock is held, a git commit already past its own use of the lock
// (a plain commit running its pre-commit hook) is waited for: no new one
// can start.
func (l *Repo) holdIndexLock(ctx context.Context, ref string) (*indexLock, error) {
	cur, err := l.ReadRef(ref)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	in := &intent{Ref: ref, Old: cur.String(), New: cur.String(), IndexLock: newLockID()}
	if err := l.writeIntent(in); err != nil {
		return nil, err
	}
	held, err := l.takeIndexLock(in.IndexLock)
	if err != nil {
		l.removeIntent()
		return nil, err
	}
	if err := l.waitForGitCommits(ctx); err != nil {
		held.release()
		l.removeIntent()
		return nil, err
	}
	return held, nil
}

// updateOnce is one attempt of Update. held, when not nil, is index.lock
// taken for this attempt (holdIndexLock); land uses it and releases it.
func (l *Repo) updateOnce(ctx context.Context, opts UpdateOptions, fn func(tx *Tx) error, held *indexLock) (_ *UpdateResult, retErr error) {
	ref := BranchRef(opts.Branch)
	l.conv = nil // config and attributes are read anew for each write
	// Settings git would apply and we cannot read (an include we do not
	// follow, a file that does not parse) could change what is stored.
	if err := l.converter().cfg.err; err != nil {
		return nil, err
	}
	// States git supports that we refuse rather than guess at (gitstate.go).
	if err := l.checkNoOperationInProgress(); err != nil {
		return nil, err
	}
	if err := l.checkNotCheckedOutElsewhere(ref); err != nil {
		return nil, err
	}
	old, err := l.ReadRef(ref)
	created := false
	var base plumbing.Hash
	switch {
	case err == nil:
		base = old
	case errors.Is(err, ErrNotFound) && opts.From != "":
		base, err = l.ResolveRev(opts.From)
		if err != nil {
			return nil, fmt.Errorf("create branch %s from %s: %w", opts.Branch, opts.From, err)
		}
		created = true
	case errors.Is(err, ErrNotFound) && opts.Branch == l.DefaultBranch && l.IsUnborn():
		created = true
	default:
		return nil, fmt.Errorf("branch %s: %w", opts.Branch, err)
	}
	// Durability: either every object, the intent record, the ref and each
	// work-tree file and the index are fsynced as they are written, or
	// (Linux, one file system) none is and two syncfs barriers order them:
	// the first after the objects (written by fn) and the intent record,
	// before the ref moves; the second after the work tree and index,
	// before the record is removed. The crash argument in doc.go holds for
	// both.
	if !opts.DryRun && l.canBarrier() {
		l.deferSync = true
		defer func() { l.deferSync = false }()
	}
	store := l.NewStore(opts.DryRun)
	tx := &Tx{l: l, store: store, branch: opts.Branch, tip: base, changes: map[string]Change{}, touched: map[string]bool{}}
	if !base.IsZero() {
		if tx.root, _, err = store.RootCommitInfo(base); err != nil {
			return nil, err
		}
		tx.tree = store.libraryTree(tx.root)
	}
	baseTree, baseRoot := tx.tree, tx.root
	if err := fn(tx); err != nil {
		return nil, err
	}
	// fn's objects are unreachable if this refuses, as after a dirty
	// path's refusal (prepareWorktree).
	if err := l.checkUnmerged(); err != nil {
		return nil, err
	}
	if len(tx.changes) > 0 || len(tx.extra) > 0 {
		return nil, fmt.Errorf("internal error: staged changes were not committed")
	}
	res := &UpdateResult{Branch: opts.Branch, Old: old, New: tx.tip, Commits: tx.commits, DryRun: opts.DryRun}
	if len(tx.commits) == 0 {
		return res, nil
	}
	// Paths whose content really changed between the old and new tip.
	for p := range tx.touched {
		a, _ := store.LookupPath(baseTree, p)
		b, _ := store.LookupPath(tx.tree, p)
		if a != b {
			res.Paths = append(res.Paths, p)
		}
	}
	sort.Strings(res.Paths)
	// The work tree, index and intent record speak repository paths.
	repoPaths := l.rootPaths(res.Paths)
	var untracked []string
	for _, p := range res.Paths {
		if tx.untracked[p] {
			untracked = append(untracked, p)
		}
	}
	keep := l.rootPaths(untracked)
	// A path whose conversion runs a program (an LFS filter) is not ours
	// to write, on any branch (convert.go).
	if err := l.refuseUnconverted(repoPaths); err != nil {
		return nil, err
	}
	if opts.DryRun {
		// The same checks as a write, without the lock: what the write
		// would refuse, the dry run refuses.
		head, err := l.HeadBranch()
		if err != nil {
			return nil, err
		}
		if res.CheckedOut = head == opts.Branch; res.CheckedOut {
			idx, idxTime, err := l.ReadIndex()
			if err != nil {
				return nil, err
			}
			if _, err := l.prepareWorktree(store, idx, idxTime, baseRoot, tx.root, repoPaths, keep, opts.RecordsWorktree); err != nil {
				return nil, err
			}
		}
		return res, nil
	}
	store.Sync()
	msg := opts.Reflog
	if msg == "" {
		msg = "skillrepo: " + l.commitSubject(store, tx.tip)
	}
	if err := l.testOnlyCrash("objects"); err != nil {
		return nil, err
	}
	return l.land(store, res, landing{ref: ref, old: old, created: created, msg: msg, baseRoot: baseRoot, newRoot: tx.root, paths: repoPaths, keep: keep, fromWorktree: opts.RecordsWorktree, held: held})
}

// landing is what a write lands once its objects are built: the ref's
// move from old to the result's New, and the paths of the work tree and
// index that change with it.
type landing struct {
	ref               string
	old               plumbing.Hash
	created           bool
	msg               string
	baseRoot, newRoot plumbing.Hash // whole trees, before and after
	paths             []string      // repository paths
	keep              []string      // of paths, those untracked: the files stay
	fromWorktree      bool
	// held is index.lock when the write already holds it (its last
	// attempt: holdIndexLock); land takes it otherwise.
	held *indexLock
}

// land moves the branch and, when it is checked out, its work tree and
// index, in the order that lets no git command see one without the other
// (doc.go, "The write path"): under git's index.lock, taken first, it
// reads HEAD, the branch and the index and checks they belong together;
// writes the touched files and the index; and only then moves the ref.
// git commit reads HEAD before the index and takes index.lock before it
// moves HEAD, so it sees the old branch with the old index, or the new
// branch with the new index, never the new branch with the old index
// (whose commit would undo this write).
func (l *Repo) land(store *Store, res *UpdateResult, w landing) (_ *UpdateResult, retErr error) {
	// The record says whether the branch looks checked out; it is
	// written and made durable before index.lock is taken, so the
	// barrier's time is not spent holding git's lock. Decided again
	// under the lock, it is rewritten in the rare case HEAD moved.
	head, err := l.HeadBranch()
	if err != nil {
		return nil, err
	}
	in := &intent{Ref: w.ref, Old: w.old.String(), New: res.New.String(), Paths: w.paths, Untracked: w.keep, IndexLock: newLockID(), CheckedOut: head == res.Branch, FromWorktree: w.fromWorktree}
	if w.held != nil {
		in.IndexLock = w.held.id
	}
	if err := l.writeIntent(in); err != nil {
		return nil, err
	}
	if l.deferSync {
		if err := l.barrier(); err != nil {
			l.removeIntent()
			return nil, fmt.Errorf("sync before writing %s: %w", w.ref, err)
		}
	}
	ilock := w.held
	if ilock == nil {
		if ilock, err = l.takeIndexLock(in.IndexLock); err != nil {
			l.removeIntent()
			return nil, err
		}
	}
	defer func() {
		if !errors.Is(retErr, errTestOnlyCrash) { // a crash leaves it
			ilock.release()
		}
	}()
	// Nothing is written yet: a refusal from here on only removes the
	// intent record.
	refuse := func(err error) (*UpdateResult, error) {
		l.removeIntent()
		return nil, err
	}
	head, idx, idxTime, err := l.settledHead(store)
	if err != nil {
		return refuse(err)
	}
	if cur, err := l.ReadRef(w.ref); err != nil && !errors.Is(err, ErrNotFound) {
		return refuse(err)
	} else if cur != oldOrZero(w.old, w.created) {
		return refuse(&RefMovedError{Ref: w.ref, Want: w.old, Current: cur})
	}
	res.CheckedOut = head == res.Branch
	var wt *worktreeUpdate
	if res.CheckedOut {
		if wt, err = l.prepareWorktree(store, idx, idxTime, w.baseRoot, w.newRoot, w.paths, w.keep, w.fromWorktree); err != nil {
			return refuse(err)
		}
		wt.lock = ilock
	}
	if in.CheckedOut != res.CheckedOut {
		// From here the work tree and index may hold the new version
		// before the ref does: recovery puts them back if the ref never
		// moves (intent.go).
		in.CheckedOut = res.CheckedOut
		if err := l.writeIntent(in); err != nil {
			return refuse(err)
		}
		if l.deferSync {
			if err := l.barrier(); err != nil {
				return refuse(fmt.Errorf("sync before writing %s: %w", w.ref, err))
			}
		}
	}
	if err := l.testOnlyCrash("intent"); err != nil {
		return nil, err
	}
	if wt != nil {
		wt.testOnlyCrash = l.testOnlyCrash
		if l.testOnlyBeforeWorktree != nil {
			l.testOnlyBeforeWorktree()
		}
		if err := wt.apply(); errors.Is(err, errTestOnlyCrash) {
			return nil, err
		} else if err != nil {
			return nil, l.unland(store, w, ilock, fmt.Errorf("update the work tree: %w", err))
		}
	}
	if err := l.testOnlyCrash("index"); err != nil {
		return nil, err
	}
	if err := l.UpdateRef(w.ref, res.New, oldOrZero(w.old, w.created), w.msg); err != nil {
		if wt == nil {
			return refuse(err)
		}
		return nil, l.unland(store, w, ilock, err)
	}
	if err := l.testOnlyCrash("ref"); err != nil {
		return nil, err
	}
	// A git command that read HEAD or the branch before the move must
	// not act on it once it gets index.lock (gitreaders_linux.go).
	l.waitForGitReaders()
	ilock.release()
	// From here the write has landed: whatever fails, the caller gets the
	// result, never a conflict (an agent that retries on a conflict would
	// apply its change twice).
	if l.deferSync {
		if err := l.barrier(); err != nil {
			// The intent record stays: the next command redoes the work
			// tree, which is idempotent.
			return res, fmt.Errorf("branch %s is at %s, but the sync after it failed: %w", res.Branch, ShortHash(res.New), err)
		}
	}
	l.removeIntent()
	if head == "" {
		// Not an error (the branch has the write), but the person looking
		// at the work tree would not see it anywhere.
		l.warn(fmt.Sprintf("HEAD is detached, so the work tree does not show this write: it went to branch %s (now %s); 'git switch %s' to see it", res.Branch, ShortHash(res.New), res.Branch))
	}
	return res, nil
}

// unland puts the work tree and index paths of a write whose ref did not
// move back to the old version (keeping any file that holds neither
// version), removes the intent record, and returns cause. If that fails
// too, the record stays for the next command's recovery, which does the
// same.
func (l *Repo) unland(store *Store, w landing, held *indexLock, cause error) error {
	if err := l.syncPaths(store, w.newRoot, w.baseRoot, w.paths, nil, w.fromWorktree, held, nil); err != nil {
		return fmt.Errorf("%w (and putting the work tree back failed: %v; the next skillrepo command finishes it)", cause, err)
	}
	l.removeIntent()
	return cause
}

// testOnlyCrash stops a write at a named step, as a crash would, when a
// test set testOnlyCrashAt (in-package tests only).
func (l *Repo) testOnlyCrash(step string) error {
	if l.testOnlyCrashAt != "" && l.testOnlyCrashAt == step {
		return errTestOnlyCrash
	}
	return nil
}

var errTestOnlyCrash = errors.New("test-only crash")

func oldOrZero(old plumbing.Hash, created bool) plumbing.Hash {
	if created {
		return plumbing.ZeroHash
	}
	return old
}

func (l *Repo) IsUnborn() bool {
	_, err := l.ReadRef(BranchRef(l.DefaultBranch))
	return errors.Is(err, ErrNotFound)
}

func (l *Repo) commitSubject(store *Store, h plumbing.Hash) string {
	if b, ok := store.pending[h]; ok {
		return firstMessageLine(b)
	}
	c, err := l.CommitObject(h)
	if err != nil {
		return h.String()
	}
	return strings.SplitN(c.Message, "\n", 2)[0]
}

func firstMessageLine(commit []byte) string {
	s := string(commit)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[i+2:]
	}
	return strings.SplitN(s, "\n", 2)[0]
}

// LookupPath finds a file path in a tree: its hash and mode (zero when
// absent or a directory).
func (store *Store) LookupPath(tree plumbing.Hash, p string) (plumbing.Hash, filemode.FileMode) {
	cur := tree
	for {
		name, rest, nested := strings.Cut(p, "/")
		e, ok, err := store.Entry(cur, name)
		if err != nil || !ok {
			return plumbing.ZeroHash, 0
		}
		if !nested {
			if e.Mode == filemode.Dir {
				return plumbing.ZeroHash, 0
			}
			return e.Hash, e.Mode
		}
		if e.Mode != filemode.Dir {
			return plumbing.ZeroHash, 0
		}
		cur, p = e.Hash, rest
	}
}

// Subtree returns the tree hash at dir ("" = root), zero when absent.
func (store *Store) Subtree(tree plumbing.Hash, dir string) plumbing.Hash {
	if dir == "" || dir == "." {
		return tree
	}
	cur := tree
	for _, name := range strings.Split(dir, "/") {
		e, ok, err := store.Entry(cur, name)
		if err != nil || !ok || e.Mode != filemode.Dir {
			return plumbing.ZeroHash
		}
		cur = e.Hash
	}
	return cur
}

// maxNameBytes is the longest file or folder name file systems take
// (NAME_MAX on Linux and macOS).
const maxNameBytes = 255

// CleanPath checks a slash path of a write: relative, clean, no name git
// refuses to check out (.git in any case or file system's spelling:
// CheckName), no name longer than a file system takes.
func CleanPath(p string) (string, error) {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return "", fmt.Errorf("invalid path %q", p)
	}
	c := path.Clean(p)
	if c != p || c == "." || strings.HasPrefix(c, "../") || c == ".." {
		return "", fmt.Errorf("invalid path %q", p)
	}
	for _, seg := range strings.Split(c, "/") {
		if why := CheckName(seg, filemode.Regular); why != "" {
			return "", fmt.Errorf("invalid path %q: %s", p, why)
		}
		if len(seg) > maxNameBytes {
			// The work tree could not hold it: say so, rather than fail
			// to look at the file and call it an uncommitted edit.
			return "", fmt.Errorf("invalid path %q: the name %.40q… is %d bytes; file systems allow %d", p, seg, len(seg), maxNameBytes)
		}
	}
	return c, nil
}

// ReadFile returns the content of path as staged, else at the tip. Error:
// fs.ErrNotExist (wrapped) when absent.
func (tx *Tx) ReadFile(p string) ([]byte, error) {
	h, _, ok := tx.Stat(p)
	if !ok {
		return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	return tx.store.Blob(h)
}

// Exists reports whether path is a file (staged or at the tip).
func (tx *Tx) Exists(p string) bool {
	_, _, ok := tx.Stat(p)
	return ok
}

// IsDir reports whether dir holds any file.
func (tx *Tx) IsDir(dir string) bool {
	files, _ := tx.List(dir)
	return len(files) > 0
}

func (tx *Tx) Stat(p string) (plumbing.Hash, filemode.FileMode, bool) {
	if c, ok := tx.changes[p]; ok {
		return c.Hash, c.Mode, !c.Delete
	}
	h, m := tx.store.LookupPath(tx.tree, p)
	return h, m, !h.IsZero()
}

// List returns the files below dir ("" = all), sorted, as staged.
func (tx *Tx) List(dir string) ([]string, error) {
	prefix := ""
	if dir != "" && dir != "." {
		prefix = strings.TrimSuffix(dir, "/") + "/"
	}
	set := map[string]bool{}
	if sub := tx.store.Subtree(tx.tree, strings.TrimSuffix(prefix, "/")); !sub.IsZero() {
		if err := tx.store.WalkTree(sub, strings.TrimSuffix(prefix, "/"), func(p string, _ plumbing.Hash, _ filemode.FileMode) error {
			set[p] = true
			return nil
		}); err != nil {
			return nil, err
		}
	}
	for p, c := range tx.changes {
		if strings.HasPrefix(p, prefix) {
			set[p] = !c.Delete
		}
	}
	var out []string
	for p, ok := range set {
		if ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// WalkTree calls fn for every file below tree, with paths prefixed by dir.
func (store *Store) WalkTree(tree plumbing.Hash, dir string, fn func(p string, h plumbing.Hash, m filemode.FileMode) error) error {
	entries, err := store.Tree(tree)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := e.Name
		if dir != "" {
			p = dir + "/" + e.Name
		}
		if e.Mode == filemode.Dir {
			if err := store.WalkTree(e.Hash, p, fn); err != nil {
				return err
			}
			continue
		}
		if e.Mode == filemode.Submodule {
			continue
		}
		if err := fn(p, e.Hash, e.Mode); err != nil {
			return err
		}
	}
	return nil
}

// WriteFile stages path with data (mode 0644, or 0755 when executable),
// given as a work-tree file's content: what is stored is what git add
// would store for it (line endings cleaned under core.autocrlf or a text
// attribute).
func (tx *Tx) WriteFile(p string, data []byte, executable bool) error {
	c, err := CleanPath(p)
	if err != nil {
		return err
	}
	// A folder of the path that is a file: the tree cannot hold both,
	// and writing it would replace the file with a folder (issue 40 item 6).
	for d := path.Dir(c); d != "." && d != "/"; d = path.Dir(d) {
		if _, m, ok := tx.Stat(d); ok && m != filemode.Dir {
			return fmt.Errorf("write %s: %s is a file, not a folder", c, d)
		}
	}
	if bytes.IndexByte(data, '\r') >= 0 {
		// Stored as git add stores it: the line endings cleaned as the
		// path's attributes and core.autocrlf say (convert.go), keeping
		// CRLFs the branch's blob already has (text=auto).
		data = tx.l.converter().forPath(tx.l.RepoPath(c)).clean(data, func() []byte {
			if h, _, ok := tx.Stat(c); ok {
				b, _ := tx.store.Blob(h)
				return b
			}
			return nil
		})
	}
	h, err := tx.store.Put(plumbing.BlobObject, data)
	if err != nil {
		return err
	}
	mode := filemode.Regular
	if executable {
		mode = filemode.Executable
	}
	tx.stage(c, Change{Hash: h, Mode: mode})
	return nil
}

func (tx *Tx) stage(p string, c Change) {
	tx.changes[p] = c
	tx.touched[p] = true
	if c.Delete && c.Untrack {
		if tx.untracked == nil {
			tx.untracked = map[string]bool{}
		}
		tx.untracked[p] = true
	} else {
		delete(tx.untracked, p)
	}
}

// Remove stages the deletion of a file. Removing a missing file is an
// error wrapping fs.ErrNotExist; a submodule (a gitlink) is refused as
// [Tx.RemoveAll] refuses one.
func (tx *Tx) Remove(p string) error {
	_, m, ok := tx.Stat(p)
	if !ok {
		return fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	if m == filemode.Submodule {
		return submoduleRefusal("remove", p, p)
	}
	tx.stage(p, Change{Delete: true})
	return nil
}

// RemoveAll stages the deletion of every file below dir. A folder holding
// a submodule is refused (see [Tx.RefuseSubmodules]).
func (tx *Tx) RemoveAll(dir string) error {
	if err := tx.RefuseSubmodules(dir, "delete"); err != nil {
		return err
	}
	files, err := tx.List(dir)
	if err != nil {
		return err
	}
	for _, f := range files {
		tx.stage(f, Change{Delete: true})
	}
	return nil
}

// Move stages moving every file below from to the same place below to,
// keeping content and mode (git log --follow sees a rename). The
// destination must hold no file, the source no submodule.
func (tx *Tx) Move(from, to string) error {
	if _, err := CleanPath(to); err != nil {
		return err
	}
	if err := tx.RefuseSubmodules(from, "move"); err != nil {
		return err
	}
	files, err := tx.List(from)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("move %s: %w", from, fs.ErrNotExist)
	}
	if tx.IsDir(to) {
		return fmt.Errorf("move %s to %s: destination %w", from, to, ErrExists)
	}
	for _, f := range files {
		h, m, _ := tx.Stat(f)
		tx.stage(to+strings.TrimPrefix(f, from), Change{Hash: h, Mode: m})
		tx.stage(f, Change{Delete: true})
	}
	return nil
}

// AddParent makes the next Commit a merge with h as an extra parent.
func (tx *Tx) AddParent(h plumbing.Hash) { tx.extra = append(tx.extra, h) }

// Commit records what is staged as one commit on top of the series and
// returns its hash. Error: ErrNoChanges when the tree is unchanged and no
// extra parent was added.
func (tx *Tx) Commit(msg string) (plumbing.Hash, error) { return tx.commit(msg, false, nil) }

// CommitEmpty is Commit, recording a commit even when the tree is
// unchanged (the evidence-only commits of adopt and disown).
func (tx *Tx) CommitEmpty(msg string) (plumbing.Hash, error) { return tx.commit(msg, true, nil) }

// Author names who wrote a commit when that is not the person running the
// command: a program acting for them (an agent's model). The person stays
// the committer, so git log --author tells the two apart.
type Author struct{ Name, Email string }

// CommitAs is Commit (CommitEmpty when allowEmpty) with author as the
// commit's author; the author date and the committer are the person's as
// usual.
func (tx *Tx) CommitAs(msg string, author Author, allowEmpty bool) (plumbing.Hash, error) {
	return tx.commit(msg, allowEmpty, &author)
}

func (tx *Tx) commit(msg string, allowEmpty bool, as *Author) (plumbing.Hash, error) {
	newTree, err := tx.buildTree(tx.tree, "", tx.changes)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if !allowEmpty && newTree == tx.tree && len(tx.extra) == 0 && !tx.tip.IsZero() {
		tx.changes = map[string]Change{}
		return plumbing.ZeroHash, ErrNoChanges
	}
	newRoot := newTree
	if tx.l.Prefix != "" {
		if newRoot, err = tx.store.withSubtree(tx.root, tx.l.Prefix, newTree); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	if newRoot.IsZero() {
		// An empty library is still a commit: store the empty tree.
		if newRoot, err = tx.store.Put(plumbing.TreeObject, nil); err != nil {
			return plumbing.ZeroHash, err
		}
		if tx.l.Prefix == "" {
			newTree = newRoot
		}
	}
	author, committer, err := tx.l.Signatures()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if as != nil {
		author.Name, author.Email = as.Name, as.Email
	}
	var parents []plumbing.Hash
	if !tx.tip.IsZero() {
		parents = append(parents, tx.tip)
	}
	parents = append(parents, tx.extra...)
	h, err := tx.store.Put(plumbing.CommitObject, EncodeCommit(newRoot, parents, author, committer, msg))
	if err != nil {
		return plumbing.ZeroHash, err
	}
	tx.tip, tx.tree, tx.root = h, newTree, newRoot
	tx.changes = map[string]Change{}
	tx.extra = nil
	tx.commits = append(tx.commits, h)
	return h, nil
}

// buildTree applies changes (paths relative to this tree) to the tree at
// base and stores the trees that changed. It returns the zero hash for a
// tree left empty (git does not store empty directories). The untouched
// entries of each level are copied from base as bytes.
func (tx *Tx) buildTree(base plumbing.Hash, dir string, changes map[string]Change) (plumbing.Hash, error) {
	if len(changes) == 0 {
		return base, nil
	}
	d, err := tx.store.Decoded(base)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	// edits: the new entry of each changed name at this level, nil for a
	// removed one; everything else is copied from base (tree.go).
	edits := map[string]*TreeEntry{}
	current := func(name string) (TreeEntry, bool) {
		if e, ok := edits[name]; ok {
			if e == nil {
				return TreeEntry{}, false
			}
			return *e, true
		}
		return d.Find(name)
	}
	sub := map[string]map[string]Change{}
	for p, c := range changes {
		name, rest, nested := strings.Cut(p, "/")
		if nested {
			if sub[name] == nil {
				sub[name] = map[string]Change{}
			}
			sub[name][rest] = c
			continue
		}
		if c.Delete {
			if e, ok := current(name); ok && e.Mode != filemode.Dir {
				edits[name] = nil
			}
			continue
		}
		edits[name] = &TreeEntry{Name: name, Mode: c.Mode, Hash: c.Hash}
	}
	for name, subChanges := range sub {
		var childBase plumbing.Hash
		e, ok := current(name)
		if ok && e.Mode == filemode.Dir {
			childBase = e.Hash
		}
		h, err := tx.buildTree(childBase, path.Join(dir, name), subChanges)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if h.IsZero() {
			if ok && e.Mode == filemode.Dir {
				edits[name] = nil
			}
			continue
		}
		edits[name] = &TreeEntry{Name: name, Mode: filemode.Dir, Hash: h}
	}
	data := d.splice(edits)
	if len(data) == 0 {
		return plumbing.ZeroHash, nil
	}
	return tx.store.Put(plumbing.TreeObject, data)
}

// FastForward moves the series to to, a descendant commit whose tree is
// tree (the library's view), without making a commit; paths are the files
// that differ between the two trees, so the work tree update touches
// exactly those. With a prefix, a commit that also changes files outside
// it is refused: the update would leave them stale in the work tree.
func (tx *Tx) FastForward(to, tree plumbing.Hash, paths []string) error {
	if len(tx.changes) > 0 {
		return fmt.Errorf("internal error: fast-forward with staged changes")
	}
	root, _, err := tx.store.RootCommitInfo(to)
	if err != nil {
		return err
	}
	if tx.l.Prefix != "" {
		want, err := tx.store.withSubtree(tx.root, tx.l.Prefix, tree)
		if err != nil {
			return err
		}
		if want != root {
			return fmt.Errorf("fast-forward to %s: it changes files outside the library folder %s: %w", ShortHash(to), tx.l.Prefix, ErrConflict)
		}
	}
	for _, p := range paths {
		tx.touched[p] = true
	}
	tx.tip, tx.tree, tx.root = to, tree, root
	tx.commits = append(tx.commits, to)
	return nil
}
