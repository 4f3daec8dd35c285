package skillrepo

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// MergeReview lands a finished review's proposal branch on the main branch
// as a merge commit (first parent main, second the proposal tip) and
// deletes the branch. It merges per path: a path the proposal changed is
// taken when main still has it as it was at base (the commit the review
// forked from) or already has the proposal's version; any other path is a
// conflict, and then nothing is written and the proposal stays for a
// person to approve.
//
// This is the review's interim landing step until proposal approval (the
// proposals issue, with line-level three-way merges) is on main. Errors:
// ErrConflict (wrapped) listing the paths; those of [Library.Update].
func (l *Library) MergeReview(ctx context.Context, branch string, base plumbing.Hash, prov Provenance) (plumbing.Hash, error) {
	ref := branchRef(branch)
	tip, err := l.ReadRef(ref)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("merge %s: %w", branch, err)
	}
	store := newObjectStore(l, true)
	baseTree, _, err := store.commitInfo(base)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("merge %s: %w", branch, err)
	}
	tipTree, _, err := store.commitInfo(tip)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("merge %s: %w", branch, err)
	}
	changed := map[string]treeEntry{}
	if err := diffTrees(store, baseTree, tipTree, "", changed); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("merge %s: %w", branch, err)
	}
	paths := make([]string, 0, len(changed))
	for p := range changed {
		paths = append(paths, p)
	}
	sort.Strings(paths)

	if prov.Origin == "" {
		prov.Origin = OriginBackgroundReview
	}
	res, err := l.Update(ctx, UpdateOptions{}, func(tx *Tx) error {
		var conflicts []string
		for _, p := range paths {
			want := changed[p]
			was, wasMode := l.lookupPath(store, baseTree, p)
			now, nowMode, _ := tx.stat(p)
			switch {
			case now == was && nowMode == wasMode:
				if want.Hash.IsZero() {
					tx.stage(p, change{del: true})
				} else {
					tx.stage(p, change{hash: want.Hash, mode: want.Mode})
				}
			case now == want.Hash && (want.Hash.IsZero() || nowMode == want.Mode):
				// main already has the proposal's version
			default:
				conflicts = append(conflicts, p)
			}
		}
		if len(conflicts) > 0 {
			return fmt.Errorf("%s changed on %s since the review started: %s: %w", strings.Join(conflicts, ", "), l.MainBranch(), "approve the proposal with 'skillrepo proposal approve' instead", ErrConflict)
		}
		tx.AddParent(tip)
		m := Message{Subject: fmt.Sprintf("review: merge proposal %s", strings.TrimPrefix(branch, "proposals/"))}
		m.Add(TrailerAction, "merge")
		m.Add(TrailerApprovedBy, "auto (review.write_approval is false)")
		prov.addTrailers(&m)
		_, err := tx.Commit(m)
		return err
	})
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("merge %s: %w", branch, err)
	}
	// The merge commit keeps the proposal's commits reachable; the branch
	// itself has done its job. A failure here leaves a merged branch
	// behind, which is harmless.
	_ = l.DeleteRef(ref, tip)
	return res.New, nil
}

// diffTrees records in out every file that differs between trees a and b
// (below prefix): b's entry, or a zero-hash entry for a file b lacks.
func diffTrees(store *objectStore, a, b plumbing.Hash, prefix string, out map[string]treeEntry) error {
	if a == b {
		return nil
	}
	ea, err := store.tree(a)
	if err != nil {
		return err
	}
	eb, err := store.tree(b)
	if err != nil {
		return err
	}
	byName := func(es []treeEntry) map[string]treeEntry {
		m := make(map[string]treeEntry, len(es))
		for _, e := range es {
			m[e.Name] = e
		}
		return m
	}
	ma, mb := byName(ea), byName(eb)
	names := map[string]bool{}
	for n := range ma {
		names[n] = true
	}
	for n := range mb {
		names[n] = true
	}
	for n := range names {
		x, inA := ma[n]
		y, inB := mb[n]
		p := prefix + n
		dirA, dirB := inA && x.Mode == filemode.Dir, inB && y.Mode == filemode.Dir
		switch {
		case inA && inB && x.Hash == y.Hash && x.Mode == y.Mode:
		case dirA || dirB:
			var ta, tb plumbing.Hash
			if dirA {
				ta = x.Hash
			} else if inA {
				out[p] = treeEntry{Name: n} // a file replaced by a folder
			}
			if dirB {
				tb = y.Hash
			} else if inB {
				out[p] = y
			}
			if err := diffTrees(store, ta, tb, p+"/", out); err != nil {
				return err
			}
		case inB:
			out[p] = y
		default:
			out[p] = treeEntry{Name: n}
		}
	}
	return nil
}
