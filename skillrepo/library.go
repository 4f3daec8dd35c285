package skillrepo

import (
	"context"
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

// Library is an open skills library: a directory that is also a git work
// tree, with .skillrepo/config.yaml. A Library is not safe for concurrent
// use by several goroutines (go-git's repository is not); processes are
// serialised by [Library.Lock].
type Library struct {
	// Root is the work tree; GitDir its .git directory.
	Root, GitDir string
	// Config is .skillrepo/config.yaml as read at Open.
	Config Config

	repo    *git.Repository
	storage *filesystem.Storage

	getenv      func(string) string
	clock       func() time.Time
	lockTimeout time.Duration
	command     string
	identity    [2]string
	indexCache  *indexCache
	// packs reads packed objects (opened on first use, closed by Close).
	packs *packReader
	loose looseReaders // reused by readLoose
	// objMu guards loose, packs and the go-git storer behind readObject
	// and hasObject: a snapshot's fs.FS is read by lint's workers at once,
	// and the reused readers would otherwise hand one goroutine another's
	// bytes ("malformed loose object").
	objMu sync.Mutex

	// readOnly: write no cache (OpenOptions.ReadOnly).
	readOnly bool
	// maintenance says when a write starts git gc (maintenance.go).
	maintenance maintenancePolicy

	// deferSync: inside a write whose durability comes from two barriers
	// (see Update), per-file fsyncs are skipped.
	deferSync bool
	// fsyncs counts the per-file and per-folder fsyncs of this Library's
	// writes (what the barrier form saves; tests check it).
	fsyncs int

	// testOnlyCrashAt stops a write at this step (see testOnlyCrash).
	testOnlyCrashAt string
	// testOnlyBeforeIndexLock runs just before writeIndex takes
	// index.lock (a test plays a concurrent git there).
	testOnlyBeforeIndexLock func()
}

// OpenOptions are the process-level inputs of a library; zero values mean
// the real environment and clock.
type OpenOptions struct {
	Getenv      func(string) string
	Now         func() time.Time
	LockTimeout time.Duration
	// SkipRecovery opens without completing an interrupted write (for
	// read-only inspection of a broken library).
	SkipRecovery bool
	// ReadOnly opens for a dry run: no recovery and no cache written
	// (history, owners), so nothing under the library changes. Writes
	// through the library are still possible; the caller does not make
	// them.
	ReadOnly bool
}

func (o *OpenOptions) fill() {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.LockTimeout == 0 {
		o.LockTimeout = DefaultLockTimeout
		if d, err := time.ParseDuration(o.Getenv("SKILLREPO_LOCK_TIMEOUT")); err == nil && d >= 0 {
			o.LockTimeout = d
		}
	}
}

// Open opens the library whose work tree contains dir (dir itself or a
// parent). When the previous writer crashed mid-write, Open completes or
// discards its intent record first (see doc.go). Errors: ErrNotLibrary
// (with a hint to run init) when there is no git repository or no
// .skillrepo/config.yaml.
func Open(dir string, opts OpenOptions) (*Library, error) {
	opts.fill()
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	root, err := findRoot(abs)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(ConfigPath))); err != nil {
		return nil, withHint(fmt.Errorf("%s: %w (no %s)", root, ErrNotLibrary, ConfigPath), "run 'skillrepo init "+dir+"' to turn this folder into a library")
	}
	l, err := openAt(root, opts)
	if err != nil {
		return nil, err
	}
	if !opts.SkipRecovery && !opts.ReadOnly {
		if err := l.recoverIfNeeded(context.Background()); err != nil {
			l.Close()
			return nil, err
		}
	}
	return l, nil
}

func openAt(root string, opts OpenOptions) (*Library, error) {
	opts.fill()
	gitDir := filepath.Join(root, ".git")
	fi, err := os.Stat(gitDir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (no .git)", root, ErrNotLibrary)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: .git is a file (a linked worktree or submodule); open the main work tree instead", root)
	}
	st := filesystem.NewStorageWithOptions(idxBufferedFS{osfs.New(gitDir)}, cache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: true})
	repo, err := git.Open(st, osfs.New(root))
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("open git repository %s: %w", gitDir, err)
	}
	cfg, err := loadConfig(root)
	if err != nil {
		st.Close()
		return nil, err
	}
	return &Library{
		Root: root, GitDir: gitDir, Config: cfg,
		repo: repo, storage: st,
		getenv: opts.Getenv, clock: opts.Now, lockTimeout: opts.LockTimeout,
		command: commandLine(), readOnly: opts.ReadOnly,
		maintenance: defaultMaintenance,
	}, nil
}

// findRoot walks up from dir to the directory holding .git.
func findRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", withHint(fmt.Errorf("%s: %w (no git repository here or above)", dir, ErrNotLibrary), "run 'skillrepo init' in the skills folder")
		}
		d = parent
	}
}

// Close releases the repository's open files.
func (l *Library) Close() error {
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

// StateDir is the per-clone state directory, .git/skillrepo.
func (l *Library) StateDir() string { return filepath.Join(l.GitDir, "skillrepo") }

// MainBranch is the branch agents read skills from ("main").
func (l *Library) MainBranch() string { return l.Config.MainBranch }

// Now is the library's clock (fixed by --now in tests).
func (l *Library) Now() time.Time { return l.clock() }

func (l *Library) now() time.Time { return l.clock() }

// Getenv reads the process environment the library was opened with.
func (l *Library) Getenv(k string) string { return l.getenv(k) }

// ResolveBranch returns the tip of branch (a short name such as "main" or
// "proposals/r-1", or a full ref name).
func (l *Library) ResolveBranch(branch string) (plumbing.Hash, error) {
	return l.ReadRef(branchRef(branch))
}

func branchRef(branch string) string {
	if strings.HasPrefix(branch, "refs/") {
		return branch
	}
	return "refs/heads/" + branch
}

// resolveRev resolves a branch name, a full ref or a (full) commit hash.
func (l *Library) resolveRev(rev string) (plumbing.Hash, error) {
	if plumbing.IsHash(rev) {
		return plumbing.NewHash(rev), nil
	}
	if h, err := l.ReadRef(branchRef(rev)); err == nil {
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
