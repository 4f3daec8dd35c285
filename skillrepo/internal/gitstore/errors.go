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

// LockedError names who holds the repository lock (or git's index.lock).
// It matches ErrLocked.
type LockedError struct {
	Holder string // "pid 123 on host h: skillrepo skill patch ...", or "" if unknown
	Path   string
	// PID is the holding process when known.
	PID int
	// hint replaces the default hint (index.lock has its own).
	hint string
}

func (e *LockedError) Error() string {
	if e.Holder == "" {
		return "library is locked by another process"
	}
	return "library is locked by " + e.Holder
}

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// Hint says what to do about it. The repository lock is an flock the
// kernel releases when its holder exits: deleting the file never helps
// (a second writer would lock a new file while the first still runs), so
// the hint names the process instead.
func (e *LockedError) Hint() string {
	if e.hint != "" {
		return e.hint
	}
	if e.PID != 0 {
		return fmt.Sprintf("wait for process %d to finish, then retry; the lock is released when that process exits (if it hangs, stop it with 'kill %d')", e.PID, e.PID)
	}
	return "wait for the other skillrepo command to finish, then retry; the lock is released when its process exits"
}
