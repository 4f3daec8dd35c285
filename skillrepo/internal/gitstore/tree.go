package gitstore

// Trees are kept as the object's bytes plus where each entry starts, the
// way the index is (index.go): a flat library's root tree lists every
// skill (10,000 entries, 400 KB), and a write looks up and replaces one or
// two of them. A lookup is a binary search over the bytes; a new tree is
// the old bytes with the changed entries spliced in; only a caller that
// lists a whole tree pays for decoding every entry.

import (
	"bytes"
	"cmp"
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TreeEntry is one decoded tree entry.
type TreeEntry struct {
	Name string
	Mode filemode.FileMode
	Hash plumbing.Hash
}

// DecodedTree is a checked tree object. raw is never modified.
type DecodedTree struct {
	raw  []byte
	offs []uint32 // where each entry starts
	// sorted is false for a tree not in git's order (written by a broken
	// tool): lookups then scan, and new trees are sorted from scratch.
	sorted bool
	// canonical is false when some mode is not written as git writes it
	// (e.g. "040000"); such entries are re-encoded rather than copied, so
	// our trees pass git fsck --strict.
	canonical bool
	list      []TreeEntry // every entry, decoded on first use
	listOnce  sync.Once   // a cached tree is read by several goroutines
}

// parseTree checks a tree object and records where its entries start. b
// is kept: the caller must not modify it afterwards.
func parseTree(b []byte) (*DecodedTree, error) {
	d := &DecodedTree{raw: b, sorted: true, canonical: true}
	var prevName []byte
	var prevDir bool
	for off := 0; off < len(b); {
		sp := bytes.IndexByte(b[off:], ' ')
		nul := bytes.IndexByte(b[off:], 0)
		if sp <= 0 || nul < sp || off+nul+21 > len(b) {
			return nil, fmt.Errorf("malformed tree object")
		}
		mode := b[off : off+sp]
		m, ok := parseTreeMode(mode)
		if !ok {
			return nil, fmt.Errorf("malformed tree mode %q", mode)
		}
		if d.canonical && !canonicalMode(mode) {
			d.canonical = false
		}
		name := b[off+sp+1 : off+nul]
		dir := m == filemode.Dir
		if len(d.offs) > 0 && CompareTreeNames(prevName, prevDir, name, dir) >= 0 {
			d.sorted = false
		}
		prevName, prevDir = name, dir
		d.offs = append(d.offs, uint32(off))
		off += nul + 21
	}
	return d, nil
}

// parseTreeMode parses an octal mode (git's own parser accepts any
// number of digits; fsck flags the odd ones).
func parseTreeMode(b []byte) (filemode.FileMode, bool) {
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	var m uint32
	for _, c := range b {
		if c < '0' || c > '7' {
			return 0, false
		}
		m = m<<3 | uint32(c-'0')
	}
	return filemode.FileMode(m), true
}

func canonicalMode(m []byte) bool {
	switch string(m) {
	case "100644", "100755", "120000", "40000", "160000":
		return true
	}
	return false
}

// end is where entry i ends.
func (d *DecodedTree) end(i int) int {
	if i+1 < len(d.offs) {
		return int(d.offs[i+1])
	}
	return len(d.raw)
}

// parts returns entry i's mode, name and hash bytes (checked by parseTree).
func (d *DecodedTree) parts(i int) (mode, name, hash []byte) {
	e := d.raw[d.offs[i]:d.end(i)]
	sp := bytes.IndexByte(e, ' ')
	return e[:sp], e[sp+1 : len(e)-21], e[len(e)-20:]
}

func (d *DecodedTree) isDir(i int) bool {
	mode, _, _ := d.parts(i)
	m, _ := parseTreeMode(mode)
	return m == filemode.Dir
}

// at decodes entry i.
func (d *DecodedTree) at(i int) TreeEntry {
	mode, name, hash := d.parts(i)
	m, _ := parseTreeMode(mode)
	e := TreeEntry{Name: string(name), Mode: m}
	copy(e.Hash[:], hash)
	return e
}

// entries decodes every entry (once). The slice is shared.
func (d *DecodedTree) entries() []TreeEntry {
	d.listOnce.Do(func() {
		if len(d.offs) > 0 {
			d.list = make([]TreeEntry, len(d.offs))
			for i := range d.offs {
				d.list[i] = d.at(i)
			}
		}
	})
	return d.list
}

// index returns the position of the entry called name, or -1.
func (d *DecodedTree) index(name string) int {
	if !d.sorted {
		for i := range d.offs {
			if _, n, _ := d.parts(i); string(n) == name {
				return i
			}
		}
		return -1
	}
	// A folder sorts as if its name ended in "/", so the entry is at one
	// of two places, depending on whether it is a folder.
	for _, dir := range []bool{false, true} {
		i := sort.Search(len(d.offs), func(i int) bool {
			_, n, _ := d.parts(i)
			return CompareTreeNames(n, d.isDir(i), name, dir) >= 0
		})
		if i < len(d.offs) {
			if _, n, _ := d.parts(i); string(n) == name {
				return i
			}
		}
	}
	return -1
}

func (d *DecodedTree) Find(name string) (TreeEntry, bool) {
	if i := d.index(name); i >= 0 {
		return d.at(i), true
	}
	return TreeEntry{}, false
}

// splice returns the tree with the named entries replaced, added or (nil)
// removed, in git's order; nil when nothing is left.
func (d *DecodedTree) splice(edits map[string]*TreeEntry) []byte {
	add := make([]TreeEntry, 0, len(edits))
	for _, e := range edits {
		if e != nil {
			add = append(add, *e)
		}
	}
	sortTreeEntries(add)
	if !d.sorted || !d.canonical {
		all := add
		for _, e := range d.entries() {
			if _, edited := edits[e.Name]; !edited {
				all = append(all, e)
			}
		}
		sortTreeEntries(all)
		return encodeTree(all)
	}
	out := make([]byte, 0, len(d.raw)+len(add)*64)
	j := 0
	for i := range d.offs {
		_, name, _ := d.parts(i)
		dir := d.isDir(i)
		for ; j < len(add) && CompareTreeNames(add[j].Name, add[j].Mode == filemode.Dir, name, dir) < 0; j++ {
			out = appendTreeEntry(out, add[j])
		}
		if _, edited := edits[string(name)]; edited {
			continue
		}
		out = append(out, d.raw[d.offs[i]:d.end(i)]...)
	}
	for ; j < len(add); j++ {
		out = appendTreeEntry(out, add[j])
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// CompareTreeNames orders tree entries the way git does: a folder sorts
// as if its name ended in "/".
func CompareTreeNames[A, B ~string | ~[]byte](a A, aDir bool, b B, bDir bool) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	// The names agree up to the shorter one: compare the next byte, a
	// folder's name going on with '/' and a file's ending.
	var ca, cb byte
	if len(a) > n {
		ca = a[n]
	} else if aDir {
		ca = '/'
	}
	if len(b) > n {
		cb = b[n]
	} else if bDir {
		cb = '/'
	}
	return cmp.Compare(ca, cb)
}

func TreeEntryLess(a, b TreeEntry) bool {
	return CompareTreeNames(a.Name, a.Mode == filemode.Dir, b.Name, b.Mode == filemode.Dir) < 0
}

// sortTreeEntries sorts entries in git's order.
func sortTreeEntries(entries []TreeEntry) {
	sort.Slice(entries, func(i, j int) bool { return TreeEntryLess(entries[i], entries[j]) })
}

// encodeTree encodes entries, which must be in git's order (see
// sortTreeEntries); git fsck --strict accepts the result.
func encodeTree(entries []TreeEntry) []byte {
	b := make([]byte, 0, len(entries)*48)
	for _, e := range entries {
		b = appendTreeEntry(b, e)
	}
	return b
}

func appendTreeEntry(b []byte, e TreeEntry) []byte {
	b = strconv.AppendUint(b, uint64(e.Mode), 8)
	b = append(b, ' ')
	b = append(b, e.Name...)
	b = append(b, 0)
	return append(b, e.Hash[:]...)
}
