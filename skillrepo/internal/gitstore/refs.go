package gitstore

// Refs are read and written here with git's own protocol, not go-git's
// (docs/git-format.md §3; github.com/go-git/go-git/issues/2399): an
// update creates "<ref>.lock" exclusively, writes and fsyncs the new value
// there, compares the current value (loose, then packed-refs) with the
// expected old one while holding the lock, and renames the lock over the
// ref. Git and other skillrepo processes see the old value or the new one,
// never a half-written file, and a rejected compare-and-swap leaves
// nothing behind. Listing skips ".lock" files.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// RefMovedError is a compare-and-swap that found the ref elsewhere. It
// matches ErrConflict.
type RefMovedError struct {
	Ref           string
	Want, Current plumbing.Hash
}

func (e *RefMovedError) Error() string {
	return fmt.Sprintf("%s moved: expected %s, found %s", e.Ref, ShortHash(e.Want), ShortHash(e.Current))
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *RefMovedError) Is(target error) bool { return target == ErrConflict }

func ShortHash(h plumbing.Hash) string {
	if h.IsZero() {
		return "(none)"
	}
	return h.String()[:12]
}

func (l *Repo) refPath(name string) string {
	return filepath.Join(l.GitDir, filepath.FromSlash(name))
}

// ReadRef returns the commit a ref (e.g. "refs/heads/main") points to. It
// returns an error wrapping ErrNotFound when the ref does not exist.
func (l *Repo) ReadRef(name string) (plumbing.Hash, error) {
	b, err := readRefFile(l.refPath(name))
	if err == nil {
		s := strings.TrimSpace(string(b))
		if strings.HasPrefix(s, "ref: ") {
			return l.ReadRef(strings.TrimPrefix(s, "ref: "))
		}
		if !plumbing.IsHash(s) {
			return plumbing.ZeroHash, fmt.Errorf("ref %s holds %q, not a hash", name, s)
		}
		return plumbing.NewHash(s), nil
	}
	if !errors.Is(err, fs.ErrNotExist) && !isDirError(err) {
		return plumbing.ZeroHash, fmt.Errorf("read ref %s: %w", name, err)
	}
	packed, err := l.packedRefs()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if h, ok := packed[name]; ok {
		return h, nil
	}
	return plumbing.ZeroHash, fmt.Errorf("ref %s: %w", name, ErrNotFound)
}

func isDirError(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "is a directory")
}

func (l *Repo) packedRefs() (map[string]plumbing.Hash, error) {
	out := map[string]plumbing.Hash{}
	f, err := os.Open(filepath.Join(l.GitDir, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read packed-refs: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		h, name, ok := strings.Cut(line, " ")
		if ok && plumbing.IsHash(h) {
			out[name] = plumbing.NewHash(h)
		}
	}
	return out, sc.Err()
}

// UpdateRef moves ref name from old to new, atomically and only if it still
// points at old (zero old: the ref must not exist). It appends a reflog
// entry as git does. Errors: *RefMovedError (ErrConflict) when the ref
// moved; ErrConflict when another process holds "<ref>.lock".
func (l *Repo) UpdateRef(name string, new, old plumbing.Hash, reflogMsg string) error {
	if !strings.HasPrefix(name, "refs/") {
		return fmt.Errorf("update ref %s: not under refs/", name)
	}
	if err := l.checkNotCheckedOutElsewhere(name); err != nil {
		return err
	}
	path := l.refPath(name)
	unlock, err := l.lockRefFile(path)
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			unlock()
		}
	}()
	lockPath := path + ".lock"
	if err := l.writeDurable(lockPath, []byte(new.String()+"\n")); err != nil {
		return fmt.Errorf("update ref %s: %w", name, err)
	}
	cur, err := l.ReadRef(name)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	if cur != old {
		return &RefMovedError{Ref: name, Want: old, Current: cur}
	}
	if err := os.Rename(lockPath, path); err != nil {
		return fmt.Errorf("update ref %s: %w", name, err)
	}
	committed = true
	l.syncDir(filepath.Dir(path))
	l.appendReflog(name, old, new, reflogMsg)
	return nil
}

// lockRefFile creates "<path>.lock" exclusively and returns a function that
// removes it.
func (l *Repo) lockRefFile(path string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	lockPath := path + ".lock"
	f, err := os.OpenFile(lockPath, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%s is locked by another git process (%s exists): %w", strings.TrimPrefix(path, l.GitDir+string(filepath.Separator)), lockPath, ErrConflict)
		}
		return nil, err
	}
	f.Close()
	return func() { os.Remove(lockPath) }, nil
}

// DeleteRef removes ref name if it points at old (zero old: whatever it
// points at), from the loose file and from packed-refs.
func (l *Repo) DeleteRef(name string, old plumbing.Hash) error {
	if err := l.checkNotCheckedOutElsewhere(name); err != nil {
		return err
	}
	path := l.refPath(name)
	unlock, err := l.lockRefFile(path)
	if err != nil {
		return err
	}
	defer unlock()
	cur, err := l.ReadRef(name)
	if err != nil {
		return err
	}
	if !old.IsZero() && cur != old {
		return &RefMovedError{Ref: name, Want: old, Current: cur}
	}
	packed, err := l.packedRefs()
	if err != nil {
		return err
	}
	if _, ok := packed[name]; ok {
		if err := l.rewritePackedRefs(func(n string) bool { return n != name }); err != nil {
			return err
		}
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete ref %s: %w", name, err)
	}
	os.Remove(filepath.Join(l.GitDir, "logs", filepath.FromSlash(name)))
	// Leave no empty directories behind (git would stumble on a branch
	// "proposals" if "refs/heads/proposals/" lingered empty).
	for dir := filepath.Dir(path); dir != filepath.Join(l.GitDir, "refs"); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			break
		}
	}
	return nil
}

// rewritePackedRefs keeps the lines of packed-refs whose ref keep accepts
// (with their peeled "^" lines), through packed-refs.lock and a rename.
func (l *Repo) rewritePackedRefs(keep func(name string) bool) error {
	path := filepath.Join(l.GitDir, "packed-refs")
	unlock, err := l.lockRefFile(path)
	if err != nil {
		return err
	}
	defer unlock()
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read packed-refs: %w", err)
	}
	var out bytes.Buffer
	dropping := false
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line == "" {
			continue
		}
		if line[0] == '^' {
			if !dropping {
				out.WriteString(line)
			}
			continue
		}
		if line[0] != '#' {
			_, name, _ := strings.Cut(strings.TrimRight(line, "\n"), " ")
			dropping = !keep(name)
			if dropping {
				continue
			}
		}
		out.WriteString(line)
	}
	if err := writeSynced(path+".lock", out.Bytes()); err != nil {
		return err
	}
	return os.Rename(path+".lock", path)
}

// ListRefs returns every ref whose name starts with prefix (e.g.
// "refs/heads/proposals/"), loose refs overriding packed ones.
func (l *Repo) ListRefs(prefix string) (map[string]plumbing.Hash, error) {
	packed, err := l.packedRefs()
	if err != nil {
		return nil, err
	}
	out := map[string]plumbing.Hash{}
	for n, h := range packed {
		if strings.HasPrefix(n, prefix) {
			out[n] = h
		}
	}
	// Walk only the folder the prefix names ("refs/heads/proposals/"
	// walks refs/heads/proposals): the other namespaces — rejected
	// proposals, curator runs, remote-tracking refs — can hold thousands
	// of loose refs a listing of proposals need not open.
	root := filepath.Join(l.GitDir, "refs")
	if dir := path.Dir(prefix + "x"); strings.HasPrefix(dir, "refs/") && !strings.Contains(dir, "..") {
		root = filepath.Join(l.GitDir, filepath.FromSlash(dir))
	}
	listing := l.refs.listing(root)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || strings.HasSuffix(p, ".lock") {
			return nil
		}
		rel, _ := filepath.Rel(l.GitDir, p)
		name := filepath.ToSlash(rel)
		if !strings.HasPrefix(name, prefix) {
			return nil
		}
		h, ok, err := listing.read(p)
		if err != nil {
			return nil // vanished under us: a concurrent delete
		}
		if ok {
			out[name] = h
		}
		return nil
	})
	if err == nil {
		listing.done()
	}
	return out, err
}

// readRefHash reads a loose ref file; ok false when it holds no hash (a
// symbolic ref).
func readRefHash(p string) (plumbing.Hash, bool, error) {
	b, err := readRefFile(p)
	if err != nil {
		return plumbing.Hash{}, false, err
	}
	if s := strings.TrimSpace(string(b)); plumbing.IsHash(s) {
		return plumbing.NewHash(s), true, nil
	}
	return plumbing.Hash{}, false, nil
}

func (l *Repo) appendReflog(name string, old, new plumbing.Hash, msg string) {
	if msg == "" {
		return
	}
	_, committer, err := l.Signatures()
	if err != nil {
		return
	}
	p := filepath.Join(l.GitDir, "logs", filepath.FromSlash(name))
	if os.MkdirAll(filepath.Dir(p), 0o755) != nil {
		return
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	when := committer.When
	if when.IsZero() {
		when = time.Now()
	}
	fmt.Fprintf(f, "%s %s %s <%s> %d %s\t%s\n", old, new, committer.Name, committer.Email, when.Unix(), when.Format("-0700"), oneLine(msg))
}

// HeadBranch returns the branch HEAD names ("main"), or "" when HEAD is
// detached.
func (l *Repo) HeadBranch() (string, error) {
	b, err := os.ReadFile(filepath.Join(l.GitDir, "HEAD"))
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	s := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(s, "ref: refs/heads/"); ok {
		return ref, nil
	}
	return "", nil
}

// writeDurable is writeSynced, except inside a write that ends with a
// durability barrier (see barrier_linux.go), where the barrier syncs it.
func (l *Repo) writeDurable(path string, data []byte) error {
	if l.deferSync {
		return os.WriteFile(path, data, 0o644)
	}
	l.fsyncs++
	return writeSynced(path, data)
}

// syncFile fsyncs f, except inside a write that ends with a durability
// barrier.
func (l *Repo) syncFile(f *os.File) error {
	if l.deferSync {
		return nil
	}
	l.fsyncs++
	return f.Sync()
}

// syncDir is the package's syncDir, deferred to the barrier the same way.
func (l *Repo) syncDir(dir string) {
	if !l.deferSync {
		l.fsyncs++
		syncDir(dir)
	}
}

// writeSynced writes data to path (created or truncated), fsyncs and closes.
func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir fsyncs a directory so a rename in it survives power loss. Best
// effort: some file systems refuse it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// oneLine folds a reflog message onto one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
