package gitstore

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TestBigTreesShared: a big tree one Store wrote or read is served to the
// Repo's other Stores (a write's usage event reads the new root tree
// through a snapshot of its own), a dry run's tree never is, small trees
// are not kept, and the cache holds the latest bigTreeSlots trees.
func TestBigTreesShared(t *testing.T) {
	l, _ := newTestRepo(t)
	blob := plumbing.NewHash(strings.Repeat("ab", 20))
	tree := func(n int, tag string) []byte {
		var entries []TreeEntry
		for i := 0; i < n; i++ {
			entries = append(entries, TreeEntry{Name: fmt.Sprintf("%s-%05d", tag, i), Mode: filemode.Regular, Hash: blob})
		}
		return encodeTree(entries)
	}
	// gone removes a tree's loose file: only the cache can then serve it.
	gone := func(s *Store, h plumbing.Hash) {
		t.Helper()
		if err := os.Remove(s.objectPath(h)); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name   string
		data   []byte
		dryRun bool
		shared bool
	}{
		{"big tree written", tree(3000, "a"), false, true},
		{"small tree written", tree(3, "b"), false, false},
		{"big tree of a dry run", tree(3000, "c"), true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := l.NewStore(c.dryRun)
			h, err := w.Put(plumbing.TreeObject, c.data)
			if err != nil {
				t.Fatal(err)
			}
			if !c.dryRun {
				gone(w, h)
			}
			d, err := l.NewStore(false).Decoded(h)
			if shared := err == nil; shared != c.shared {
				t.Fatalf("another store read the tree: %v (err %v), want %v", shared, err, c.shared)
			}
			if err == nil {
				if _, ok := d.Find("a-01234"); !ok || len(d.offs) != 3000 {
					t.Fatalf("shared tree: %d entries, a-01234 found %v; want 3000 and true", len(d.offs), ok)
				}
			}
		})
	}
}

// TestBigTreesBounded: the cache keeps the latest bigTreeSlots big trees.
func TestBigTreesBounded(t *testing.T) {
	l, _ := newTestRepo(t)
	blob := plumbing.NewHash(strings.Repeat("cd", 20))
	var hs []plumbing.Hash
	for k := 0; k <= bigTreeSlots; k++ {
		var entries []TreeEntry
		for i := 0; i < 3000; i++ {
			entries = append(entries, TreeEntry{Name: fmt.Sprintf("t%d-%05d", k, i), Mode: filemode.Regular, Hash: blob})
		}
		w := l.NewStore(false)
		h, err := w.Put(plumbing.TreeObject, encodeTree(entries))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(w.objectPath(h)); err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	for k, h := range hs {
		_, err := l.NewStore(false).Decoded(h)
		if kept, want := err == nil, k > 0; kept != want {
			t.Errorf("tree %d of %d: kept %v (err %v), want %v", k, len(hs), kept, err, want)
		}
	}
}
