package skillrepo

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Functions document which they return; callers test them
// with errors.Is.
var (
	// ErrNotFound: a skill, file, branch or proposal does not exist.
	ErrNotFound = errors.New("not found")
	// ErrExists: a create would replace something that exists.
	ErrExists = errors.New("already exists")
	// ErrConflict: nothing was written because it would overwrite an
	// uncommitted edit, a ref moved under us, or a merge does not apply.
	ErrConflict = errors.New("conflict")
	// ErrLocked: another process holds the library lock.
	ErrLocked = errors.New("library is locked")
	// ErrRefused: a guard refused the write (pinned, user-owned, ...).
	ErrRefused = errors.New("refused")
	// ErrNotLibrary: the directory is not a skillrepo library.
	ErrNotLibrary = errors.New("not a skillrepo library")
)

// DirtyError is returned when a write would touch paths that hold
// uncommitted changes. Nothing was written. It matches ErrConflict.
type DirtyError struct {
	Paths []string // slash paths relative to the library root
}

func (e *DirtyError) Error() string {
	return fmt.Sprintf("uncommitted changes would be overwritten: %s", strings.Join(e.Paths, ", "))
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *DirtyError) Is(target error) bool { return target == ErrConflict }

// Hint says how to keep the edit.
func (e *DirtyError) Hint() string {
	return "commit the edit with 'skillrepo sync' (or git commit), or discard it with 'git checkout -- <path>', then retry"
}

// LockedError names who holds the library lock. It matches ErrLocked.
type LockedError struct {
	Holder string // "pid 123 on host h: skillrepo skill patch ...", or "" if unknown
	Path   string
}

func (e *LockedError) Error() string {
	if e.Holder == "" {
		return "library is locked by another process"
	}
	return "library is locked by " + e.Holder
}

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// Hint says what to do about it.
func (e *LockedError) Hint() string {
	return fmt.Sprintf("wait for it to finish; if that process is gone, remove %s", e.Path)
}

// RefusedError is a guard's refusal with the reason a caller (or a model)
// can act on. It matches ErrRefused.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return e.Reason }

// Is makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

func refusedf(format string, args ...any) error {
	return &RefusedError{Reason: fmt.Sprintf(format, args...)}
}

// hintError wraps an error with a hint for the CLI.
type hintError struct {
	err  error
	hint string
}

func (e *hintError) Error() string { return e.err.Error() }
func (e *hintError) Unwrap() error { return e.err }
func (e *hintError) Hint() string  { return e.hint }

func withHint(err error, hint string) error { return &hintError{err: err, hint: hint} }
