package gitstore

import (
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// bigTreeSize is the size from which a tree is kept in the Repo's
// bigTrees, shared by its Stores. A write reads the branch's root tree
// through one Store, builds the new one, and then keys its usage event
// through a snapshot of the new commit with a Store of its own: a flat
// 10,000-skill library's 380 KB root tree was read back from disk,
// inflated and parsed once more on every write (bench/README.md, "Scale").
// Smaller trees cost less to read than to keep.
const bigTreeSize = storedTreeSize

// bigTreeSlots bounds the cache: a long-running process (the MCP server,
// the worker) writes many root trees, and only the latest few are read
// again.
const bigTreeSlots = 4

// bigTrees holds the latest big trees this Repo decoded or wrote. Trees
// are immutable and named by their hash, so a cached one is right for
// every Store of the repository; a dry run's trees are never put here
// (they are not in the object store).
type bigTrees struct {
	mu    sync.Mutex
	order []plumbing.Hash // oldest first
	trees map[plumbing.Hash]*DecodedTree
}

func (c *bigTrees) get(h plumbing.Hash) (*DecodedTree, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.trees[h]
	return d, ok
}

func (c *bigTrees) put(h plumbing.Hash, d *DecodedTree) {
	if len(d.raw) < bigTreeSize {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.trees[h]; ok {
		return
	}
	if c.trees == nil {
		c.trees = map[plumbing.Hash]*DecodedTree{}
	}
	if len(c.order) == bigTreeSlots {
		delete(c.trees, c.order[0])
		c.order = append(c.order[:0], c.order[1:]...)
	}
	c.order = append(c.order, h)
	c.trees[h] = d
}
