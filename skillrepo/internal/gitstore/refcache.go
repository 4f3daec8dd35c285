package gitstore

import (
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// RefCache keeps what [Repo.ListRefs] read from loose ref files, for a
// process that lists the same refs again and again (the ui server lists
// its 1,000 proposal refs on every page: open, read and close of each file
// were half of the overview's CPU; bench/README.md, "skillrepo ui"). A
// file's value is reused only while a stat of it gives the same device,
// inode, size, modification and change time as when it was read; git
// replaces a ref by renaming a new file over it (a new inode and change
// time), and a writer that rewrites the file in place changes its times.
// A file changed less than settle before it was read is not kept (its
// times may not yet differ from those of a change in the same clock tick,
// git's "racy" case), so it is read again until it has settled. Where
// the platform's stat gives no change time nothing is kept. Safe for
// concurrent use; give one to the Repos a process opens with
// [Options].Refs.
type RefCache struct {
	mu     sync.Mutex
	roots  map[string]map[string]cachedRef // listing root -> file -> value
	settle time.Duration
	hits   int // values reused (tests)
}

type cachedRef struct {
	stamp refStamp
	hash  plumbing.Hash
}

// NewRefCache returns an empty cache.
func NewRefCache() *RefCache {
	return &RefCache{roots: map[string]map[string]cachedRef{}, settle: 2 * time.Second}
}

// refListing is one listing of a root through the cache: what it finds
// replaces what the cache held for the root, so deleted refs drop out.
type refListing struct {
	c    *RefCache
	root string
	old  map[string]cachedRef
	new  map[string]cachedRef
	now  time.Time
	hits int
}

func (c *RefCache) listing(root string) *refListing {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return &refListing{c: c, root: root, old: c.roots[root], new: map[string]cachedRef{}, now: time.Now()}
}

// read returns the ref file p's hash (ok false: not a hash), from the
// cache when its stamp is unchanged.
func (r *refListing) read(p string) (h plumbing.Hash, ok bool, err error) {
	if r == nil {
		return readRefHash(p)
	}
	st, stamped := statRef(p)
	if stamped {
		if c, hit := r.old[p]; hit && c.stamp == st {
			r.new[p] = c
			r.hits++
			return c.hash, true, nil
		}
	}
	if h, ok, err = readRefHash(p); err != nil || !ok {
		return h, ok, err
	}
	if stamped && st.settled(r.now, r.c.settle) {
		r.new[p] = cachedRef{stamp: st, hash: h}
	}
	return h, true, nil
}

// done keeps the listing's values for the next one.
func (r *refListing) done() {
	if r == nil {
		return
	}
	r.c.mu.Lock()
	defer r.c.mu.Unlock()
	r.c.roots[r.root] = r.new
	r.c.hits += r.hits
}
