// Package statefile is how skillrepo keeps a state file of its own (a
// queue entry, a goal, review counters, the curator's schedule and runs,
// the usage sidecar, the remote's record), so a hardening lands once
// (docs/architecture.md §1):
//
//   - A read is bounded and of a regular file only (internal/boundedread):
//     a FIFO named like a state file would hang a hook, a link to
//     /dev/zero fill the memory.
//   - Read-modify-write runs under an exclusive lock on a file beside it
//     (gofrs/flock; only this package and the git engine take locks).
//   - A write replaces the file whole (internal/atomicfile).
//   - A file that does not parse is never trusted: it is reported as a
//     *CorruptError and, where the caller says so, set aside under a
//     .corrupt-<time> suffix so a person can look at it.
//   - A file of a newer schema version is neither read as ours nor
//     written over (*VersionError).
package statefile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// CorruptError is a state file that cannot be trusted: it does not parse
// or is not whole.
type CorruptError struct {
	Path string
	// SetAside is where the file was moved, "" when it was left in place.
	SetAside string
	Err      error
}

func (e *CorruptError) Error() string {
	if e.SetAside != "" {
		return fmt.Sprintf("%s is corrupt (%v); it was moved to %s", e.Path, e.Err, e.SetAside)
	}
	return fmt.Sprintf("%s is corrupt: %v", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// VersionError is a state file, or a value to write, of a schema version
// newer than the code knows.
type VersionError struct {
	Path           string
	Version, Known int
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("%s has version %d; this skillrepo knows up to %d", e.Path, e.Version, e.Known)
}

// lockFile returns the lock at path, refusing a path that exists and is
// not a regular file: opening a FIFO waits for a writer.
func lockFile(path string) (*flock.Flock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("lock %s: %w", path, &boundedread.NotRegularError{Path: path, Mode: fi.Mode()})
	}
	return flock.New(path), nil
}

// Lock waits for the exclusive lock on path (its folder is made when
// missing); call unlock to release it. The lock file is never removed or
// written: another program may hold it too.
func Lock(path string) (unlock func(), err error) {
	l, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	if err := l.Lock(); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { l.Unlock() }, nil
}

// TryLock takes the lock on path if nobody holds it; ok is false when
// someone does. unlock may be called more than once.
func TryLock(path string) (unlock func(), ok bool, err error) {
	l, err := lockFile(path)
	if err == nil {
		if ok, err = l.TryLock(); err != nil {
			err = fmt.Errorf("lock %s: %w", path, err)
		}
	}
	if err != nil || !ok {
		return nil, false, err
	}
	return func() { l.Unlock() }, true, nil
}

// LockContext waits for the lock on path until ctx ends; the error then
// wraps ctx's.
func LockContext(ctx context.Context, path string) (unlock func(), err error) {
	l, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	ok, err := l.TryLockContext(ctx, 10*time.Millisecond)
	if err == nil && !ok {
		err = ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { l.Unlock() }, nil
}

// Held reports whether someone holds the lock on path (a missing lock
// file is not held; nothing is created).
func Held(path string) bool {
	if _, err := os.Stat(path); err != nil {
		return false
	}
	unlock, ok, err := TryLock(path)
	if ok {
		unlock()
	}
	return err == nil && !ok
}

// SetAside moves the file at path out of the way, to
// path.corrupt-<time>, and returns where.
func SetAside(path string, now time.Time) (string, error) {
	aside := path + ".corrupt-" + now.UTC().Format("20060102T150405.000000000")
	if err := os.Rename(path, aside); err != nil {
		return "", fmt.Errorf("set aside %s: %w", path, err)
	}
	return aside, nil
}

// File is one JSON state file holding a T.
type File[T any] struct {
	Path string
	// LockPath is the lock that Update holds; "" is Path + ".lock".
	LockPath string
	// Limit bounds a read; a larger file is refused.
	Limit int64
	// Version is the schema version the code writes, in the file's
	// top-level "version": a file or value with a higher one is refused.
	// 0: the file has no version (a format we share with another
	// program).
	Version int
	Perm    os.FileMode
	// Sync fsyncs a write before the rename: state someone relies on.
	// Without, a power cut may lose the write, never cut it short.
	Sync bool
	// Check refuses a value that parses but is not whole (a goal without
	// its status); the file then counts as corrupt.
	Check func(*T) error
	// Reset makes Update set a corrupt file aside and start afresh (a
	// cache or a hint, worth less than the hook that would fail on it).
	Reset bool
	// LockWait bounds Update's wait for the lock (0: until it is free),
	// for a file whose update may be skipped rather than wait behind a
	// stuck holder (the remote's record, written beside a sync).
	LockWait time.Duration
}

func (f File[T]) lockPath() string {
	if f.LockPath != "" {
		return f.LockPath
	}
	return f.Path + ".lock"
}

// versionOf reads a JSON object's top-level "version".
func versionOf(data []byte) (int, error) {
	var probe struct {
		Version int `json:"version"`
	}
	err := json.Unmarshal(data, &probe)
	return probe.Version, err
}

// Read reads the file. A missing file is an error wrapping
// fs.ErrNotExist; one that is not a regular file or is over Limit is
// refused (a *boundedread.NotRegularError or *boundedread.TooLargeError:
// not ours to move); one that does not parse is a *CorruptError (left in
// place); one of a newer version a *VersionError.
func (f File[T]) Read() (T, error) {
	var v T
	data, err := boundedread.ReadFile(f.Path, f.Limit)
	if err != nil {
		return v, err
	}
	if f.Version > 0 {
		n, err := versionOf(data)
		if err != nil {
			return v, &CorruptError{Path: f.Path, Err: err}
		}
		if n > f.Version {
			return v, &VersionError{Path: f.Path, Version: n, Known: f.Version}
		}
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return v, &CorruptError{Path: f.Path, Err: err}
	}
	if f.Check != nil {
		if err := f.Check(&v); err != nil {
			return v, &CorruptError{Path: f.Path, Err: err}
		}
	}
	return v, nil
}

// Load is Read that sets a corrupt file aside (the *CorruptError says
// where), so the next write starts afresh and the file is kept for a
// person to look at.
func (f File[T]) Load() (T, error) {
	v, err := f.Read()
	var ce *CorruptError
	if errors.As(err, &ce) {
		aside, aerr := SetAside(f.Path, time.Now())
		if aerr != nil {
			return v, fmt.Errorf("%w; %w", err, aerr)
		}
		ce.SetAside = aside
	}
	return v, err
}

// Write replaces the file with v (its folder is made when missing). It
// takes no lock: a read-modify-write goes through Update.
func (f File[T]) Write(v T) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", f.Path, err)
	}
	data = append(data, '\n')
	if f.Version > 0 {
		if n, err := versionOf(data); err == nil && n > f.Version {
			return &VersionError{Path: f.Path, Version: n, Known: f.Version}
		}
	}
	return WriteFile(f.Path, data, f.Perm, f.Sync)
}

// WriteFile replaces the file at path with data, made whole elsewhere
// (its folder is made when missing); see File for perm and sync.
func WriteFile(path string, data []byte, perm os.FileMode, sync bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := atomicfile.Write(path, data, perm, sync); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Update runs fn on the file's value under its lock and writes the result
// unless fn fails. A missing file starts as the zero value; a corrupt one
// is refused and left as it is (with Reset set aside, and started
// afresh); a newer one is refused.
func (f File[T]) Update(fn func(*T) error) (T, error) {
	lock := Lock
	if f.LockWait > 0 {
		lock = func(path string) (func(), error) {
			ctx, cancel := context.WithTimeout(context.Background(), f.LockWait)
			defer cancel()
			return LockContext(ctx, path)
		}
	}
	unlock, err := lock(f.lockPath())
	if err != nil {
		return *new(T), err
	}
	defer unlock()
	read := f.Read
	if f.Reset {
		read = f.Load
	}
	v, err := read()
	var ce *CorruptError
	if errors.Is(err, fs.ErrNotExist) || (errors.As(err, &ce) && ce.SetAside != "") {
		v, err = *new(T), nil
	}
	if err != nil {
		return v, err
	}
	if err := fn(&v); err != nil {
		return v, err
	}
	return v, f.Write(v)
}
