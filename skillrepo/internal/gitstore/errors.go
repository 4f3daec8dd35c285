package gitstore

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Functions document which they return; callers test them
// with errors.Is.
var (
	// ErrNotFound: a file, ref or object does not exist.
	ErrNotFound = errors.New("not found")
	// ErrExists: a write would replace something that exists.
	ErrExists = errors.New("already exists")
	// ErrConflict: nothing was written because it would overwrite an
	// uncommitted edit, a ref moved under us, or a merge does not apply.
	ErrConflict = errors.New("conflict")
	// ErrLocked: another process holds the repository lock.
	ErrLocked = errors.New("library is locked")
)

// DirtyError is returned when a write would touch paths that hold
// uncommitted changes. Nothing was written. It matches ErrConflict.
type DirtyError struct {
	Paths []string // slash paths relative to the work tree root
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

// LockedError names who holds the repository lock. It matches ErrLocked.
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
