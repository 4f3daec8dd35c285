// Package graph is the domain's room for commit ancestry and tree
// merges (docs/architecture.md §1), read from the engine's store and
// never written: the merge base, the commits one tip has that another
// lacks, the files trees differ in, and their three-way merge.
//
// Approving a proposal is a three-way merge of trees (docs/architecture.md §3, docs/git-format.md §8):
// go-git only fast-forwards, so the merge base, the per-path merge and the
// merge commit are ours. The merge base is found by git's own walk
// ("paint down to common": both tips are walked newest first until every
// path from them meets), which visits only the commits since the fork.
// The trees are compared level by level by hash, so a 10,000-skill tree
// costs the directories that differ, not the whole tree.

package graph

import (
	"bytes"
	"container/heap"
	"math"
	"strconv"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/merge"
)

// commitMeta is what ancestry walks need from a commit.
type commitMeta struct {
	parents []gitstore.Hash
	time    int64 // committer time, seconds
}

// Graph reads commit headers, caching them for one operation. It is
// not safe for concurrent use.
type Graph struct {
	store *gitstore.Store
	metas map[gitstore.Hash]commitMeta
}

// New is a graph over store.
func New(store *gitstore.Store) *Graph {
	return &Graph{store: store, metas: map[gitstore.Hash]commitMeta{}}
}

func (h *Graph) meta(c gitstore.Hash) (commitMeta, error) {
	if m, ok := h.metas[c]; ok {
		return m, nil
	}
	raw, err := h.store.RawCommit(c)
	if err != nil {
		return commitMeta{}, err
	}
	m := commitMeta{}
	for _, line := range bytes.Split(raw, []byte("\n")) {
		if len(line) == 0 {
			break
		}
		switch {
		case bytes.HasPrefix(line, []byte("parent ")) && len(line) >= 47:
			m.parents = append(m.parents, gitstore.NewHash(string(line[7:47])))
		case bytes.HasPrefix(line, []byte("committer ")):
			// "committer Name <email> 1764500000 +0000"
			f := strings.Fields(string(line[bytes.LastIndexByte(line, '>')+1:]))
			if len(f) > 0 {
				m.time, _ = strconv.ParseInt(f[0], 10, 64)
			}
		}
	}
	h.metas[c] = m
	return m, nil
}

// Paint flags of the merge-base walk.
const (
	fromOurs uint8 = 1 << iota
	fromTheirs
	stale
	found
)

// MergeBase returns the best common ancestor of a and b (zero when they
// share no history) and the commits reachable from b but not from a (b's
// own commits since the fork, newest first). When there are several best
// ancestors (criss-cross merges) the first one met is used.
func (h *Graph) MergeBase(a, b gitstore.Hash) (base gitstore.Hash, onlyB []gitstore.Hash, err error) {
	if a == b {
		return a, nil, nil
	}
	w := &paintWalk{h: h, flags: map[gitstore.Hash]uint8{}}
	if err := w.paint(a, fromOurs); err != nil {
		return gitstore.ZeroHash, nil, err
	}
	if err := w.paint(b, fromTheirs); err != nil {
		return gitstore.ZeroHash, nil, err
	}
	var bases []gitstore.Hash
	for w.hasNonStale() {
		c := heap.Pop(&w.q).(queued).hash
		f := w.flags[c] & (fromOurs | fromTheirs | stale)
		switch {
		case f == fromOurs|fromTheirs:
			if w.flags[c]&found == 0 {
				w.flags[c] |= found
				bases = append(bases, c)
			}
			f |= stale
		case f == fromTheirs:
			onlyB = append(onlyB, c)
		}
		if err := w.paintParents(c, f); err != nil {
			return gitstore.ZeroHash, nil, err
		}
	}
	// A commit first reached from b alone can still be an ancestor of a
	// through a common ancestor the walk left in the queue (commit times
	// tie). Finish painting down to the oldest such commit, then keep only
	// commits a cannot reach. (With clock skew this may keep a commit a can
	// reach, as git rev-list may.)
	if len(onlyB) > 0 {
		oldest := int64(math.MaxInt64)
		for _, c := range onlyB {
			oldest = min(oldest, h.metas[c].time)
		}
		for w.q.Len() > 0 && w.q[0].time >= oldest {
			c := heap.Pop(&w.q).(queued).hash
			if err := w.paintParents(c, w.flags[c]&(fromOurs|fromTheirs|stale)); err != nil {
				return gitstore.ZeroHash, nil, err
			}
		}
	}
	kept := onlyB[:0]
	for _, c := range onlyB {
		if w.flags[c]&fromOurs == 0 {
			kept = append(kept, c)
		}
	}
	if len(bases) == 0 {
		return gitstore.ZeroHash, kept, nil
	}
	best, err := h.removeRedundant(bases)
	if err != nil {
		return gitstore.ZeroHash, nil, err
	}
	return best[0], kept, nil
}

// paintWalk is the state of one merge-base walk: paint flags and the queue
// of commits to visit, newest first.
type paintWalk struct {
	h     *Graph
	flags map[gitstore.Hash]uint8
	q     commitQueue
}

// paint adds flags f to commit c and queues it when that is news.
func (w *paintWalk) paint(c gitstore.Hash, f uint8) error {
	if w.flags[c]&f == f {
		return nil
	}
	m, err := w.h.meta(c)
	if err != nil {
		return err
	}
	w.flags[c] |= f
	heap.Push(&w.q, queued{c, m.time})
	return nil
}

func (w *paintWalk) paintParents(c gitstore.Hash, f uint8) error {
	m, err := w.h.meta(c)
	if err != nil {
		return err
	}
	for _, p := range m.parents {
		if err := w.paint(p, f); err != nil {
			return err
		}
	}
	return nil
}

func (w *paintWalk) hasNonStale() bool {
	for _, c := range w.q {
		if w.flags[c.hash]&stale == 0 {
			return true
		}
	}
	return false
}

// removeRedundant drops the candidates that are ancestors of another: the
// walk can meet an older common ancestor before a newer one when commit
// times tie or lie.
func (h *Graph) removeRedundant(bases []gitstore.Hash) ([]gitstore.Hash, error) {
	var best []gitstore.Hash
	for i, c := range bases {
		redundant := false
		for j, d := range bases {
			if i == j {
				continue
			}
			r, err := h.reaches(d, c)
			if err != nil {
				return nil, err
			}
			if r {
				redundant = true
				break
			}
		}
		if !redundant {
			best = append(best, c)
		}
	}
	return best, nil
}

// reaches reports whether target is an ancestor of from. It walks the
// whole history below from when it must (commit times can lie, so no
// cut-off is safe); it runs only when the walk met several candidates.
func (h *Graph) reaches(from, target gitstore.Hash) (bool, error) {
	seen := map[gitstore.Hash]bool{from: true}
	todo := []gitstore.Hash{from}
	for len(todo) > 0 {
		c := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if c == target {
			return true, nil
		}
		m, err := h.meta(c)
		if err != nil {
			return false, err
		}
		for _, p := range m.parents {
			if !seen[p] {
				seen[p] = true
				todo = append(todo, p)
			}
		}
	}
	return false, nil
}

type queued struct {
	hash gitstore.Hash
	time int64
}

// commitQueue pops the newest commit first.
type commitQueue []queued

func (q commitQueue) Len() int           { return len(q) }
func (q commitQueue) Less(i, j int) bool { return q[i].time > q[j].time }
func (q commitQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)        { *q = append(*q, x.(queued)) }
func (q *commitQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// DifferingFiles returns the files of each tree that lie in directories
// whose hashes are not equal in all of them: exactly what a merge or a
// diff needs (a subtree equal everywhere is skipped unread, and the store
// decodes each tree once, so proposals forked from the same main share
// the work).
func DifferingFiles(store *gitstore.Store, roots ...gitstore.Hash) ([]merge.Tree, error) {
	out := make([]merge.Tree, len(roots))
	for i := range out {
		out[i] = merge.Tree{}
	}
	var walk func(dir string, trees []gitstore.Hash) error
	walk = func(dir string, trees []gitstore.Hash) error {
		if allEqual(trees) {
			return nil
		}
		// Tree entries are sorted in git's order, so one merge pass over
		// the lists pairs them up without building maps: a flat library's
		// 10,000-entry root costs comparisons, not allocations.
		lists := make([][]gitstore.TreeEntry, len(trees))
		for i, t := range trees {
			var err error
			if lists[i], err = store.Tree(t); err != nil {
				return err
			}
		}
		idx := make([]int, len(trees))
		cur := make([]*gitstore.TreeEntry, len(trees))
		for {
			var least *gitstore.TreeEntry
			for i, l := range lists {
				if idx[i] < len(l) && (least == nil || gitstore.TreeEntryLess(l[idx[i]], *least)) {
					least = &l[idx[i]]
				}
			}
			if least == nil {
				return nil
			}
			key := *least
			same := true
			for i, l := range lists {
				cur[i] = nil
				// Not less than the least: the same name and kind.
				if idx[i] < len(l) && !gitstore.TreeEntryLess(key, l[idx[i]]) {
					cur[i] = &l[idx[i]]
					idx[i]++
				}
				same = same && cur[i] != nil && cur[i].Hash == key.Hash && cur[i].Mode == key.Mode
			}
			if same {
				continue
			}
			p := key.Name
			if dir != "" {
				p = dir + "/" + key.Name
			}
			if key.Mode != gitstore.ModeDir {
				for i, e := range cur {
					if e != nil {
						out[i][p] = merge.Entry{ID: e.Hash.String(), Mode: merge.Mode(e.Mode)}
					}
				}
				continue
			}
			subtrees := make([]gitstore.Hash, len(trees))
			for i, e := range cur {
				if e != nil {
					subtrees[i] = e.Hash
				}
			}
			if err := walk(p, subtrees); err != nil {
				return err
			}
		}
	}
	if err := walk("", roots); err != nil {
		return nil, err
	}
	return out, nil
}

func allEqual(hs []gitstore.Hash) bool {
	for _, h := range hs[1:] {
		if h != hs[0] {
			return false
		}
	}
	return true
}

// blobReader adapts the object store to merge.BlobReader.
type blobReader struct{ store *gitstore.Store }

func (b blobReader) ReadBlob(id string) ([]byte, error) {
	return b.store.Blob(gitstore.NewHash(id))
}

// MergeTrees merges theirs into ours from base, all given as root trees.
func MergeTrees(store *gitstore.Store, base, ours, theirs gitstore.Hash, labels merge.Labels) (merge.TreeResult, error) {
	trees, err := DifferingFiles(store, base, ours, theirs)
	if err != nil {
		return merge.TreeResult{}, err
	}
	return merge.MergeTrees(trees[0], trees[1], trees[2], blobReader{store}, labels)
}

// Incoming returns the commits reachable from theirs and not from ours
// (every ancestor of theirs when ours is zero): what a remote's main or a
// proposal brings that this clone has not checked.
func (h *Graph) Incoming(ours, theirs gitstore.Hash) ([]gitstore.Hash, error) {
	if !ours.IsZero() {
		_, only, err := h.MergeBase(ours, theirs)
		return only, err
	}
	var out []gitstore.Hash
	seen := map[gitstore.Hash]bool{theirs: true}
	for queue := []gitstore.Hash{theirs}; len(queue) > 0; {
		c := queue[0]
		queue = queue[1:]
		out = append(out, c)
		_, parents, err := h.store.CommitInfo(c)
		if err != nil {
			return nil, err
		}
		for _, p := range parents {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return out, nil
}
