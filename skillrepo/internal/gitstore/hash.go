package gitstore

import (
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Hash is a git object id. It is go-git's type under our name, so that the
// packages above this one never import go-git: this package is its only
// importer.
type Hash = plumbing.Hash

// ZeroHash is the zero object id (no commit).
var ZeroHash = plumbing.ZeroHash

// NewHash parses a 40-hex object id (an invalid string gives a
// meaningless hash; check with IsHash first).
func NewHash(s string) Hash { return plumbing.NewHash(s) }

// IsHash reports whether s is a full 40-hex object id.
func IsHash(s string) bool { return plumbing.IsHash(s) }

// FileMode is a tree entry's mode.
type FileMode = filemode.FileMode

// The tree entry modes git writes.
const (
	ModeRegular    = filemode.Regular
	ModeExecutable = filemode.Executable
	ModeSymlink    = filemode.Symlink
	ModeDir        = filemode.Dir
	ModeSubmodule  = filemode.Submodule
)

// Signature is a commit's author or committer.
type Signature = object.Signature

// Commit is a decoded commit (read only).
type Commit = object.Commit

// ObjectType is a git object's type.
type ObjectType = plumbing.ObjectType

// The object types.
const (
	BlobObject   = plumbing.BlobObject
	TreeObject   = plumbing.TreeObject
	CommitObject = plumbing.CommitObject
)
