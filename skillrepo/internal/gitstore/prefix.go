package gitstore

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// A Repo with a Prefix is a library kept in a folder of a project's
// repository. The library sees only the subtree at the prefix: a Store's
// CommitInfo returns that subtree, a Tx reads and stages paths relative to
// it, and a write builds new trees along the prefix path, copying every
// sibling entry of the project as bytes. The work tree and index are
// updated for the written paths only, so a project's uncommitted edit
// elsewhere is never included, touched or a reason to refuse.

// CleanPrefix checks a library prefix: a clean, relative, slash-separated
// folder path that does not go through .git ("" is the whole tree).
func CleanPrefix(p string) (string, error) {
	if p == "" || p == "." {
		return "", nil
	}
	c, err := CleanPath(p)
	if err != nil {
		return "", fmt.Errorf("library folder %q: %w", p, err)
	}
	return c, nil
}

// PrefixStateName is the folder under .git/skillrepo holding the state of
// the library at prefix: a hash, so any folder name fits and two
// libraries never share one.
func PrefixStateName(prefix string) string {
	sum := sha256.Sum256([]byte(prefix))
	return hex.EncodeToString(sum[:8])
}

// RepoPath maps a library path to its path in the repository (what the
// index and the work tree use).
func (l *Repo) RepoPath(p string) string {
	if l.Prefix == "" {
		return p
	}
	return l.Prefix + "/" + p
}

// libraryTree is the library's view of a root tree: its subtree at the
// prefix (zero when the commit has no such folder).
func (s *Store) libraryTree(root plumbing.Hash) plumbing.Hash {
	if s.l.Prefix == "" {
		return root
	}
	return s.Subtree(root, s.l.Prefix)
}

// RootCommitInfo is CommitInfo with the commit's whole tree, whatever the
// prefix (a record commit that keeps another commit's tree).
func (s *Store) RootCommitInfo(h plumbing.Hash) (tree plumbing.Hash, parents []plumbing.Hash, err error) {
	if b, ok := s.pending[h]; ok {
		return parseCommitHeader(b)
	}
	b, err := s.l.readObject(plumbing.CommitObject, h)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	return parseCommitHeader(b)
}

// withSubtree returns root with the folder at dir replaced by sub (zero:
// removed), storing the trees along the path; every other entry is copied
// from root as bytes.
func (s *Store) withSubtree(root plumbing.Hash, dir string, sub plumbing.Hash) (plumbing.Hash, error) {
	d, err := s.Decoded(root)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	name, rest, nested := strings.Cut(dir, "/")
	child := sub
	if nested {
		var base plumbing.Hash
		if e, ok := d.Find(name); ok && e.Mode == filemode.Dir {
			base = e.Hash
		}
		if child, err = s.withSubtree(base, rest, sub); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	edits := map[string]*TreeEntry{name: nil}
	if !child.IsZero() {
		edits[name] = &TreeEntry{Name: name, Mode: filemode.Dir, Hash: child}
	} else if _, ok := d.Find(name); !ok {
		return root, nil
	}
	data := d.splice(edits)
	if len(data) == 0 {
		return plumbing.ZeroHash, nil
	}
	return s.Put(plumbing.TreeObject, data)
}

// rootPaths maps library paths to repository paths.
func (l *Repo) rootPaths(paths []string) []string {
	if l.Prefix == "" {
		return paths
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = path.Join(l.Prefix, p)
	}
	return out
}

// SameOutsidePrefix reports whether commits a and b (zero: the empty
// tree) hold the same files outside the prefix: b's whole tree is a's with
// only the prefix folder changed.
func (s *Store) SameOutsidePrefix(a, b plumbing.Hash) (bool, error) {
	var ra, rb plumbing.Hash
	var err error
	if !a.IsZero() {
		if ra, _, err = s.RootCommitInfo(a); err != nil {
			return false, err
		}
	}
	if !b.IsZero() {
		if rb, _, err = s.RootCommitInfo(b); err != nil {
			return false, err
		}
	}
	if s.l.Prefix == "" {
		return true, nil
	}
	want, err := s.withSubtree(ra, s.l.Prefix, s.libraryTree(rb))
	if err != nil {
		return false, err
	}
	return want == rb, nil
}
