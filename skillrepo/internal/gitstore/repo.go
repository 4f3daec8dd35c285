package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Repo is an open git repository with a work tree: the object store, the
// refs, the index and the work tree files, written with git's own
// protocols (see doc.go). A Repo is not safe for concurrent use by several
// goroutines (go-git's repository is not); processes are serialised by
// [Repo.Lock].
type Repo struct {
	// Root is the work tree; GitDir its .git directory.
	Root, GitDir string
	// DefaultBranch is the branch an unborn repository gets on its first
	// write (and the one Update writes when given no branch).
	DefaultBranch string
	// Prefix is the folder of the work tree this Repo reads and writes
	// (slash-separated, "" = the whole tree; prefix.go): a library kept
	// in a folder of a project's repository. Trees a [Store] returns and
	// the paths a [Tx] takes are relative to it; the engine maps them to
	// the whole tree, and never touches a path outside it.
	Prefix string

	repo    *git.Repository
	storage *filesystem.Storage

	getenv      func(string) string
	warn        func(string)
	clock       func() time.Time
	lockTimeout time.Duration
	command     string
	identity    [2]string
	// identityWarned: the stand-in identity was reported (Signatures).
	identityWarned bool
	indexCache     *indexCache
	// indexLoad is a read of .git/index a write started ahead of its
	// first use (worktree.go); ReadIndex takes it over.
	indexLoad *indexLoad
	// conv is the end-of-line conversion's config and attributes
	// (convert.go), read on first use; a write reads them anew.
	conv *converter
	// packs reads packed objects (opened on first use, closed by Close).
	packs *packReader
	loose looseReaders // reused by readLoose
	// refs keeps listed loose refs across Repos (Options.Refs; nil: none).
	refs *RefCache
	// procRoot and procMine are the work tree's real path and this
	// process with those it runs under, for the /proc scans of
	// gitreaders_linux.go (set once, by procOnce).
	procOnce sync.Once
	procRoot string
	procMine map[int]bool
	// big is the latest big trees read or written, for every Store
	// (treecache.go).
	big bigTrees
	// objMu guards loose, packs and the go-git storer behind readObject
	// and hasObject: a snapshot's fs.FS is read by lint's workers at once,
	// and the reused readers would otherwise hand one goroutine another's
	// bytes ("malformed loose object").
	objMu sync.Mutex
	// shallow is .git/shallow's commits (shallow.go), read once.
	shallow     map[plumbing.Hash]bool
	shallowOnce sync.Once

	// maintenance says when a write starts git gc (maintenance.go).
	maintenance maintenancePolicy

	// deferSync: inside a write whose durability comes from two barriers
	// (see Update), per-file fsyncs are skipped.
	deferSync bool
	// fsyncs counts the per-file and per-folder fsyncs of this Repo's
	// writes (what the barrier form saves; tests check it).
	fsyncs int

	// testOnlyCrashAt stops a write at this step (see testOnlyCrash).
	testOnlyCrashAt string
	// testOnlyBeforeIndexLock runs just before a write takes index.lock
	// (a test plays a concurrent git there).
	testOnlyBeforeIndexLock func()
	// testOnlyBeforeWorktree runs after a write's checks, just before it
	// writes the work tree (a test plays a failing file system there).
	testOnlyBeforeWorktree func()
}

// Options are the process-level inputs of a repository; zero values mean
// the real environment and clock.
type Options struct {
	Getenv      func(string) string
	Now         func() time.Time
	LockTimeout time.Duration
	// DefaultBranch is Repo.DefaultBranch ("" = "main").
	DefaultBranch string
	// Warn reports what went wrong after a write landed (nil: standard
	// error, as "warning: …").
	Warn func(msg string)
	// Prefix is Repo.Prefix ("" = the whole work tree).
	Prefix string
	// Refs, when set, keeps loose refs as listed for the next listing
	// (a long-running reader's Repos share one; [RefCache]).
	Refs *RefCache
}

// Open opens the git repository whose work tree is root (.git must be a
// directory there). It does not recover an interrupted write: call
// [Repo.Recover].
func Open(root string, opts Options) (*Repo, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.LockTimeout == 0 {
		opts.LockTimeout = DefaultLockTimeout
	}
	if opts.Warn == nil {
		opts.Warn = func(msg string) { fmt.Fprintln(os.Stderr, "warning: "+msg) }
	}
	if opts.DefaultBranch == "" {
		opts.DefaultBranch = "main"
	}
	gitDir := filepath.Join(root, ".git")
	st := filesystem.NewStorageWithOptions(idxBufferedFS{osfs.New(gitDir)}, cache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: true})
	repo, err := git.Open(st, osfs.New(root))
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("open git repository %s: %w", gitDir, err)
	}
	return &Repo{
		Root: root, GitDir: gitDir, DefaultBranch: opts.DefaultBranch, Prefix: opts.Prefix,
		repo: repo, storage: st,
		getenv: opts.Getenv, warn: opts.Warn, clock: opts.Now, lockTimeout: opts.LockTimeout,
		command:     commandLine(),
		maintenance: defaultMaintenance,
		refs:        opts.Refs,
	}, nil
}

// Close releases the repository's open files.
func (l *Repo) Close() error {
	if l.packs != nil {
		l.packs.close()
		l.packs = nil
	}
	if l.storage != nil {
		err := l.storage.Close()
		l.storage = nil
		return err
	}
	return nil
}

// StateDir is the per-clone state directory of the library at Prefix:
// .git/skillrepo for the whole tree, .git/skillrepo/<prefix hash>/ for a
// folder (prefix.go), so two libraries in one repository keep apart.
func (l *Repo) StateDir() string {
	if l.Prefix == "" {
		return l.repoStateDir()
	}
	return filepath.Join(l.repoStateDir(), PrefixStateName(l.Prefix))
}

// repoStateDir is .git/skillrepo: the repository lock, the intent record
// and temp files, shared by every library of the repository (they share
// its refs and index).
func (l *Repo) repoStateDir() string { return filepath.Join(l.GitDir, "skillrepo") }

// Now is the repository's clock (fixed by --now in tests).
func (l *Repo) Now() time.Time { return l.clock() }

// Getenv reads the process environment the repository was opened with.
func (l *Repo) Getenv(k string) string { return l.getenv(k) }

// ResolveBranch returns the tip of branch (a short name such as "main" or
// "proposals/r-1", or a full ref name).
func (l *Repo) ResolveBranch(branch string) (plumbing.Hash, error) {
	return l.ReadRef(BranchRef(branch))
}

// BranchRef is the full ref name of a branch ("main" is refs/heads/main; a
// name starting with refs/ is kept).
func BranchRef(branch string) string {
	if strings.HasPrefix(branch, "refs/") {
		return branch
	}
	return "refs/heads/" + branch
}

// ResolveRev resolves a branch name, a full ref, a (full) commit hash or
// any revision git's syntax names (HEAD~2).
func (l *Repo) ResolveRev(rev string) (plumbing.Hash, error) {
	if plumbing.IsHash(rev) {
		return plumbing.NewHash(rev), nil
	}
	if h, err := l.ReadRef(BranchRef(rev)); err == nil {
		return h, nil
	} else if !errors.Is(err, ErrNotFound) {
		return plumbing.ZeroHash, err
	}
	h, err := l.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("revision %q: %w", rev, ErrNotFound)
	}
	return *h, nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}

// IsRepository reports whether root/.git is a complete repository: HEAD
// and config written, objects/ and refs/ there ('git init' killed midway
// leaves some of them; [Init] completes it).
func IsRepository(root string) bool {
	dot := filepath.Join(root, ".git")
	for _, f := range []string{"HEAD", "config"} {
		if fi, err := os.Stat(filepath.Join(dot, f)); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
			return false
		}
	}
	for _, d := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(dot, d)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}
