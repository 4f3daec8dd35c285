package skillrepo

import (
	"errors"
	"fmt"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// UnsafeTreeError refuses commits that came from elsewhere — a remote's
// main, a proposal branch — because one of their trees holds a path git
// itself refuses to check out: .git in any spelling a file system takes
// for it, "..", a symlink out of the library (docs/remote.md §9). Nothing
// was checked out and no branch moved. It matches ErrRefused.
type UnsafeTreeError struct {
	// From names where the commits came from ("origin/main", "proposal
	// p-…").
	From   string
	Commit Hash
	Path   string
	Reason string
}

func (e *UnsafeTreeError) Error() string {
	return fmt.Sprintf("refused %s: its commit %s has the path %q, %s; nothing was checked out and no branch moved",
		e.From, e.Commit, e.Path, e.Reason)
}

// Is makes errors.Is(err, ErrRefused) true.
func (e *UnsafeTreeError) Is(target error) bool { return target == ErrRefused }

// Hint says what to do.
func (e *UnsafeTreeError) Hint() string {
	return fmt.Sprintf("git refuses this tree too (git fsck --strict names it); ask whoever wrote %s to remove the path with a new commit", abbrev(e.Commit))
}

// checkIncoming checks the trees of commits (those reachable from the
// incoming tip and not from this clone's branch) before any of them is
// checked out or becomes a branch of ours.
func checkIncoming(store *gitstore.Store, from string, commits []Hash) error {
	c := store.NewTreeChecker()
	for _, h := range commits {
		tree, _, err := store.CommitInfo(h)
		if err != nil {
			return err
		}
		if err := c.Check(tree); err != nil {
			var ue *gitstore.UnsafePathError
			if errors.As(err, &ue) {
				return &UnsafeTreeError{From: from, Commit: h, Path: ue.Path, Reason: ue.Reason}
			}
			return fmt.Errorf("check %s's commit %s: %w", from, abbrev(h), err)
		}
	}
	return nil
}
