package skillrepo

import "github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"

// Hash is a git object id (go-git's type, through the engine), so that the
// packages above this one (the CLI, review, curator) never import go-git.
type Hash = gitstore.Hash

// ZeroHash is the zero object id (no commit).
var ZeroHash = gitstore.ZeroHash

// NewHash parses a 40-hex object id (an invalid string gives a
// meaningless hash; check with IsHash first).
func NewHash(s string) Hash { return gitstore.NewHash(s) }

// IsHash reports whether s is a full 40-hex object id.
func IsHash(s string) bool { return gitstore.IsHash(s) }
