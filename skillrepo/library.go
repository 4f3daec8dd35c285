package skillrepo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/catalog"
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// Library is an open skills library: a directory that is also a git work
// tree, with .skillrepo/config.yaml. The git repository (objects, refs,
// index, work tree, lock, recovery) is the engine's [gitstore.Repo], held
// privately: the packages above reach it only through the Library's
// domain verbs. A Library is not safe for concurrent use by several
// goroutines; processes are serialised by its lock ([Library.Lock]).
type Library struct {
	repo *gitstore.Repo
	// Root is the library's folder (the one holding .skillrepo). It is
	// the repository's work tree (Repo.Root) unless the library is a
	// folder of a project's repository (a prefix library, Repo.Prefix
	// set; see docs/project-libraries.md).
	Root string
	// Config is .skillrepo/config.yaml as read at Open (with the
	// defaults of any key that has a problem: see configErr).
	Config config.Config
	// held are the settings whose remote change waits for the person
	// (config_hold.go); Config holds their confirmed values.
	held []config.Held
	// configErr is the config's problems (a *config.Error), nil when it
	// has none: every write refuses with it (config_hold.go).
	configErr error

	// readOnly: write no cache (OpenOptions.ReadOnly).
	readOnly bool
	// reporter hears about long work (OpenOptions.Progress; progress.go).
	reporter Progress
	// opts are the options it was opened with (a memory folder beside
	// the library is opened with them too).
	opts OpenOptions
	// catalog is the skill catalogue (catalog.go).
	catalog catalog.Cache
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
	// Progress, when set, hears about long work (a large import, building
	// the history index); see [Progress].
	Progress Progress
	// ReadOnly opens for a dry run: no recovery and no cache written
	// (history, owners), so nothing under the library changes. Writes
	// through the library are still possible; the caller does not make
	// them.
	ReadOnly bool
	// Warn reports a problem the command goes on despite: a write that
	// landed with its work-tree update deferred to the next command, a
	// config key with a problem (its default is used); nil: standard
	// error.
	Warn func(msg string)
	// Memo, when set, keeps what reads computed for the next library
	// opened with the same memo (a server opens one per request); see
	// [Memo]. Nil: nothing is kept beyond the library.
	Memo *Memo
}

// fill sets the defaults. A malformed $SKILLREPO_LOCK_TIMEOUT is refused,
// never ignored: a typo would otherwise silently wait the default.
func (o *OpenOptions) fill() error {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.LockTimeout == 0 {
		o.LockTimeout = DefaultLockTimeout
		if v := o.Getenv("SKILLREPO_LOCK_TIMEOUT"); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return WithHint(fmt.Errorf("SKILLREPO_LOCK_TIMEOUT=%q is not a duration", v), "set it to a Go duration such as 30s, 500ms or 2m (0 tries once, without waiting), or unset it for the default of "+DefaultLockTimeout.String())
			}
			if d == 0 {
				d = time.Nanosecond // 0 means "do not wait", not "the default"
			}
			o.LockTimeout = d
		}
	}
	return nil
}

// Open opens the library [findLibrary] finds for dir: the one holding dir
// (dir itself or a parent), else the only library of dir's project. When
// the previous writer crashed mid-write, Open completes or discards its
// intent record first (see doc.go). Errors: ErrNotLibrary (with a hint)
// when there is no git repository or no library to use.
func Open(dir string, opts OpenOptions) (*Library, error) {
	if err := opts.fill(); err != nil {
		return nil, err
	}
	loc, err := findLibrary(dir)
	if err != nil {
		return nil, err
	}
	root, libRoot := loc.Top, loc.Library
	prefix, err := libraryPrefix(root, libRoot)
	if err != nil {
		return nil, err
	}
	l, err := openAt(root, prefix, opts)
	if err != nil {
		return nil, err
	}
	if prefix != "" {
		// A library in a project: the project's index is large, and a
		// skill lookup (the index hint) or a write will read it.
		l.repo.PrefetchIndex()
	}
	if !opts.SkipRecovery && !opts.ReadOnly {
		if err := l.repo.Recover(context.Background()); err != nil {
			l.repo.Close()
			return nil, err
		}
	}
	return l, nil
}

// configMissing reports whether the checked-out commit has the library
// config that the work tree lacks, and whether the work tree is a sparse
// checkout (which would have left it out; otherwise it was deleted).
func configMissing(root string, opts OpenOptions) (inHead, sparse bool) {
	repo, err := gitstore.Open(root, gitstore.Options{Getenv: opts.Getenv, Now: opts.Now})
	if err != nil {
		return false, false
	}
	defer repo.Close()
	head, err := repo.ResolveRev("HEAD")
	if err != nil {
		return false, false
	}
	store := repo.NewStore(true)
	tree, _, err := store.CommitInfo(head)
	if err != nil {
		return false, false
	}
	h, _ := store.LookupPath(tree, config.Path)
	return !h.IsZero(), repo.SparseCheckout()
}

// openAt opens the library at prefix ("" = the whole tree) of the work
// tree root.
func openAt(root, prefix string, opts OpenOptions) (*Library, error) {
	if err := opts.fill(); err != nil {
		return nil, err
	}
	gitDir := filepath.Join(root, ".git")
	fi, err := os.Stat(gitDir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (no .git)", root, ErrNotLibrary)
	}
	if !fi.IsDir() {
		if prefix != "" {
			return nil, WithHint(fmt.Errorf("%s: a library in a folder of a linked worktree or submodule (.git is a file) is not supported yet: %w", root, ErrRefused),
				"run skillrepo in the repository's main work tree")
		}
		return nil, fmt.Errorf("%s: .git is a file (a linked worktree or submodule); open the main work tree instead", root)
	}
	libRoot := filepath.Join(root, filepath.FromSlash(prefix))
	cfg, err := config.Read(libRoot)
	var problems *config.Error
	if err != nil && !errors.As(err, &problems) {
		return nil, err
	}
	repo, err := gitstore.Open(root, gitstore.Options{Getenv: opts.Getenv, Now: opts.Now, LockTimeout: opts.LockTimeout, DefaultBranch: cfg.MainBranch, Warn: opts.Warn, Prefix: prefix, Refs: opts.Memo.refCache()})
	if err != nil {
		return nil, err
	}
	settleMainBranch(repo, &cfg, libRoot)
	l := &Library{repo: repo, Root: libRoot, Config: cfg, readOnly: opts.ReadOnly, reporter: opts.Progress, opts: opts}
	if problems != nil {
		l.configErr = problems
		warnConfig(problems, opts.Warn)
	}
	// A remote's change to a setting that decides where data goes waits
	// for the person (config_hold.go).
	if err := l.applyHeld(); err != nil {
		repo.Close()
		return nil, err
	}
	return l, nil
}

// settleMainBranch settles the main branch of a config that does not
// name one. Left out, main_branch means "main"; but in a repository that
// has a master and no main (a project on master with a hand-written
// config), writes would fork a new main from HEAD that neither the work
// tree nor git status shows: a skill reported written, yet invisible to
// the agent. There master is the main branch. It is not the checked-out
// branch, which would move the library's main each time the person
// switches. A config that names main_branch is taken as written.
func settleMainBranch(repo *gitstore.Repo, cfg *config.Config, libRoot string) {
	const fallback = "master"
	if cfg.MainBranch == fallback {
		return
	}
	if _, err := repo.ReadRef(gitstore.BranchRef(cfg.MainBranch)); !errors.Is(err, gitstore.ErrNotFound) {
		return
	}
	if _, err := repo.ReadRef(gitstore.BranchRef(fallback)); err != nil {
		return
	}
	if config.SetsKey(libRoot, "main_branch") {
		return
	}
	cfg.MainBranch = fallback
	repo.DefaultBranch = fallback
}

// refNamespace is where the library keeps refs of its own (curator
// runs): refs/skillrepo/ for a library that is the whole repository,
// refs/skillrepo/<prefix hash>/ for a folder of a project's repository.
func (l *Library) refNamespace() string {
	if l.repo.Prefix == "" {
		return "refs/skillrepo/"
	}
	return "refs/skillrepo/" + gitstore.PrefixStateName(l.repo.Prefix) + "/"
}

// PrefixStateName is the folder under .git/skillrepo that holds the state
// of the library at prefix (a folder of a project's repository).
func PrefixStateName(prefix string) string { return gitstore.PrefixStateName(prefix) }

// Close releases the library's open files.
func (l *Library) Close() error { return l.repo.Close() }

// now is the library's clock (the real time, or --now's in tests).
func (l *Library) now() time.Time { return l.repo.Now() }

// Lock takes the library's write lock, as every writer does, waiting up
// to the lock timeout (OpenOptions.LockTimeout, $SKILLREPO_LOCK_TIMEOUT),
// and returns the function that releases it. Error: *LockedError
// (ErrLocked) on timeout. A caller holding it must not write through the
// library (the lock is not reentrant); it is for holding writers off.
func (l *Library) Lock(ctx context.Context) (unlock func(), err error) {
	if err := l.writable(); err != nil {
		return nil, err
	}
	return l.repo.Lock(ctx)
}

// CutAt reports whether the history read here stops at commit h:
// the library is a shallow clone and h's parents are not in it.
func (room History) CutAt(h Hash) bool {
	l := room.l
	return l.repo.IsShallow(h)
}

// MainBranch is the branch agents read skills from ("main").
func (l *Library) MainBranch() string { return l.Config.MainBranch }

func branchRef(branch string) string { return gitstore.BranchRef(branch) }

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}
