package gitstore

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// A submodule is a gitlink in the tree (mode 160000, the hash of a commit
// in another repository), a folder with its own .git in the work tree and
// an entry in .gitmodules. Moving or deleting one the way git does
// (git mv / git rm) rewrites .gitmodules and moves the submodule's
// repository; a move of its parent's files alone would leave the gitlink
// behind, so a restored or deleted skill would keep a stray folder.
// We refuse instead (docs/git-format.md), before anything is staged.

// firstSubmodule returns the path of the first gitlink below dir of tree
// ("" for the root), or "" when there is none.
func (store *Store) firstSubmodule(tree plumbing.Hash, dir string) (string, error) {
	sub := tree
	if dir != "" {
		sub = store.Subtree(tree, dir)
	}
	if sub.IsZero() {
		return "", nil
	}
	entries, err := store.Tree(sub)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		p := e.Name
		if dir != "" {
			p = dir + "/" + e.Name
		}
		switch e.Mode {
		case filemode.Submodule:
			return p, nil
		case filemode.Dir:
			if found, err := store.firstSubmodule(tree, p); err != nil || found != "" {
				return found, err
			}
		}
	}
	return "", nil
}

// RefuseSubmodules fails with a *StateError (matching ErrConflict) when
// the folder dir holds a submodule at the transaction's last commit; verb
// says what the caller was about to do ("archive", "delete").
func (tx *Tx) RefuseSubmodules(dir, verb string) error {
	p, err := tx.store.firstSubmodule(tx.tree, strings.TrimSuffix(dir, "/"))
	if err != nil || p == "" {
		return err
	}
	return submoduleRefusal(verb, dir, p)
}

// submoduleRefusal is the refusal to verb target, which is, or holds, the
// submodule at p.
func submoduleRefusal(verb, target, p string) error {
	return &StateError{
		State: fmt.Sprintf("cannot %s %s: %s is a git submodule, which skillrepo does not move or delete", verb, target, p),
		Fix:   fmt.Sprintf("move it out with 'git mv %s <path>' or remove it with 'git rm %s' (which also updates .gitmodules), commit, and run the command again", p, p),
	}
}
