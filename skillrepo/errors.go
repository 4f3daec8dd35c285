package skillrepo

import (
	"errors"
	"fmt"

	"github.com/skillrepo/skillrepo/overlap"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// Sentinel errors. Functions document which they return; callers test them
// with errors.Is. The git-level ones are the engine's (package gitstore).
var (
	// ErrNotFound: a skill, file, branch or proposal does not exist.
	ErrNotFound = gitstore.ErrNotFound
	// ErrExists: a create would replace something that exists.
	ErrExists = gitstore.ErrExists
	// ErrConflict: nothing was written because it would overwrite an
	// uncommitted edit, a ref moved under us, or a merge does not apply.
	ErrConflict = gitstore.ErrConflict
	// ErrLocked: another process holds the library lock.
	ErrLocked = gitstore.ErrLocked
	// ErrRefused: a guard refused the write (pinned, user-owned, ...).
	ErrRefused = errors.New("refused")
	// ErrOwnershipUnknown: who owns a skill cannot be read, because the
	// history stops short of its creation (a shallow clone). Writes that
	// need ownership fail closed; reads show it as unknown
	// ([Owners.ForDisplay]).
	ErrOwnershipUnknown = errors.New("ownership is unknown")
	// ErrNotLibrary: the directory is not a skillrepo library.
	ErrNotLibrary = errors.New("not a skillrepo library")
	// ErrNoChanges is returned by writeTx.Commit when the staged changes
	// leave the tree as it was.
	ErrNoChanges = gitstore.ErrNoChanges
)

// DirtyError is returned when a write would touch paths that hold
// uncommitted changes. Nothing was written. It matches ErrConflict.
type DirtyError = gitstore.DirtyError

// LockedError names who holds the library lock. It matches ErrLocked.
type LockedError = gitstore.LockedError

// RefMovedError: the branch moved under a write, after the retries.
type RefMovedError = gitstore.RefMovedError

// DefaultLockTimeout is how long a writer waits for another one.
const DefaultLockTimeout = gitstore.DefaultLockTimeout

// RefusedError is a guard's refusal with the reason a caller (or a model)
// can act on. It matches ErrRefused.
type RefusedError struct {
	Reason string
	// Guard names the write policy's rule that refused (GuardSecret, …;
	// "" for the engine's own refusals).
	Guard string
	// Duplicates are the existing skills a refused create overlaps
	// (GuardDuplicate), most similar first.
	Duplicates []overlap.Match
}

func (e *RefusedError) Error() string { return e.Reason }

// Is makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

func refusedf(format string, args ...any) error {
	return &RefusedError{Reason: fmt.Sprintf(format, args...)}
}

// HintError is an error with a hint: what to do about it, which the
// CLI prints after the error and a tool result carries as "hint". It is
// the one wrapper of its kind (errors of their own that know their hint,
// such as *GateError, have a Hint method too).
type HintError struct {
	Err  error
	hint string
}

func (e *HintError) Error() string { return e.Err.Error() }
func (e *HintError) Unwrap() error { return e.Err }

// Hint is what to do about the error.
func (e *HintError) Hint() string { return e.hint }

// WithHint wraps err with a hint.
func WithHint(err error, hint string) error { return &HintError{Err: err, hint: hint} }
