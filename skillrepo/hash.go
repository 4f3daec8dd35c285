package skillrepo

import "github.com/go-git/go-git/v5/plumbing"

// Hash is a git object id. It is go-git's type under our name, so that the
// packages above this one (the CLI, review, curator) never import go-git:
// this package is its only importer.
type Hash = plumbing.Hash

// ZeroHash is the zero object id (no commit).
var ZeroHash = plumbing.ZeroHash

// NewHash parses a 40-hex object id (an invalid string gives a
// meaningless hash; check with IsHash first).
func NewHash(s string) Hash { return plumbing.NewHash(s) }

// IsHash reports whether s is a full 40-hex object id.
func IsHash(s string) bool { return plumbing.IsHash(s) }
