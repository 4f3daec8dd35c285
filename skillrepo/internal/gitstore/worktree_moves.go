package gitstore

import (
	"os"
	"path"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// renameMoves carries out moved files by renaming them in the work tree
// instead of writing them anew. A move (archive, restore, a curator run
// archiving a thousand skills) deletes a file at one path and writes the
// same blob, same mode, at another; writing it means a temp file and an
// fsync per file, which made a thousand-skill archive cost seconds on a
// real disk. A rename needs neither: the bytes are already there.
//
// Only a source whose work tree file still holds exactly the old blob is
// renamed (hashed here, not trusted from stat data), each source at most
// once, and the destination must be absent. Every path it handles is
// marked same, so apply leaves it to the index update; a source it renamed
// away is then already gone when apply removes it. A crash halfway leaves
// some files moved and some not, which recovery completes like any other
// partial update (it rewrites the recorded paths to the new version).
func (u *worktreeUpdate) renameMoves() {
	// Sources: paths being deleted, by blob and base name.
	type key struct {
		hash plumbing.Hash
		mode filemode.FileMode
		base string
	}
	sources := map[key][]string{}
	for _, p := range u.paths {
		if u.skipped[p] || u.keep[p] || !u.target[p].Hash.IsZero() || u.old[p].Hash.IsZero() {
			continue
		}
		o := u.old[p]
		if o.Mode != filemode.Regular && o.Mode != filemode.Executable {
			continue
		}
		k := key{o.Hash, o.Mode, path.Base(p)}
		sources[k] = append(sources[k], p)
	}
	if len(sources) == 0 {
		return
	}
	if u.same == nil {
		u.same = map[string]bool{} // recovery builds updates without it
	}
	for _, p := range u.paths {
		t := u.target[p]
		if u.skipped[p] || u.same[p] || t.Hash.IsZero() {
			continue
		}
		k := key{t.Hash, t.Mode, path.Base(p)}
		cands := sources[k]
		if len(cands) == 0 {
			continue
		}
		src := cands[len(cands)-1]
		if !u.l.convIdentity(src) || !u.l.convIdentity(p) {
			continue // converted content: written the usual way (convert.go)
		}
		sources[k] = cands[:len(cands)-1]
		from := filepath.Join(u.l.Root, filepath.FromSlash(src))
		to := filepath.Join(u.l.Root, filepath.FromSlash(p))
		data, err := os.ReadFile(from)
		if err != nil || HashObject(plumbing.BlobObject, data) != t.Hash {
			continue // changed or gone: apply writes it the usual way
		}
		if _, err := os.Lstat(to); err == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			continue
		}
		if os.Rename(from, to) == nil {
			u.same[p] = true // apply's removal of src then finds it gone and prunes the folders
		}
	}
}
