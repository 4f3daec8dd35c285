package gitstore

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// mktree makes a tree with git from entries (git sorts them) and returns
// its hash and bytes.
func (r *indexRepo) mktree(entries []TreeEntry) (plumbing.Hash, []byte) {
	r.t.Helper()
	var in strings.Builder
	for _, e := range entries {
		kind := "blob"
		if e.Mode == filemode.Dir {
			kind = "tree"
		}
		fmt.Fprintf(&in, "%06o %s %s\t%s\n", uint32(e.Mode), kind, e.Hash, e.Name)
	}
	h := plumbing.NewHash(strings.TrimSpace(gitStdin(r.t, r.dir, r.env, in.String(), "mktree")))
	data := []byte(gitIn(r.t, r.dir, r.env, false, "cat-file", "tree", h.String()))
	return h, data
}

// Names that sort differently as files and as folders: "foo" (a folder)
// sorts after "foo-bar" and "foo.txt", as if it were "foo/".
var trickyTreeNames = []string{"foo", "foo-bar", "foo.txt", "foo0", "a b", "Z", "é", "x"}

// Lookups find files and folders in git's order, and splicing changes into
// a tree gives exactly the tree git makes from the changed list.
func TestTreeSpliceMatchesGitMktree(t *testing.T) {
	r := newIndexRepo(t)
	blob := r.HashObject("a.txt")
	subTree, _ := r.mktree([]TreeEntry{{Name: "SKILL.md", Mode: filemode.Regular, Hash: blob}})
	base := []TreeEntry{}
	for i, n := range trickyTreeNames {
		e := TreeEntry{Name: n, Mode: filemode.Regular, Hash: blob}
		if i%2 == 0 {
			e.Mode, e.Hash = filemode.Dir, subTree
		}
		base = append(base, e)
	}
	_, raw := r.mktree(base)
	d, err := parseTree(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !d.sorted || !d.canonical {
		t.Fatalf("git's tree read as sorted=%v canonical=%v", d.sorted, d.canonical)
	}
	for _, want := range base {
		if got, ok := d.Find(want.Name); !ok || got != want {
			t.Errorf("find(%q) = %v %v, want %v", want.Name, got, ok, want)
		}
	}
	if _, ok := d.Find("fo"); ok {
		t.Error("found a name that is not there")
	}

	cases := []struct {
		name  string
		edits map[string]*TreeEntry
	}{
		{"replace a file", map[string]*TreeEntry{"foo.txt": {Name: "foo.txt", Mode: filemode.Executable, Hash: blob}}},
		{"add between", map[string]*TreeEntry{"foo-a": {Name: "foo-a", Mode: filemode.Dir, Hash: subTree}, "foo/": nil}},
		{"add a folder next to its file-like names", map[string]*TreeEntry{"foo.txt": nil, "fop": {Name: "fop", Mode: filemode.Regular, Hash: blob}}},
		{"folder becomes file", map[string]*TreeEntry{"foo": {Name: "foo", Mode: filemode.Regular, Hash: blob}}},
		{"remove all but one", func() map[string]*TreeEntry {
			m := map[string]*TreeEntry{}
			for _, n := range trickyTreeNames[1:] {
				m[n] = nil
			}
			return m
		}()},
		{"add at both ends", map[string]*TreeEntry{"0": {Name: "0", Mode: filemode.Regular, Hash: blob}, "zzz": {Name: "zzz", Mode: filemode.Dir, Hash: subTree}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var want []TreeEntry
			for _, e := range base {
				if _, edited := c.edits[e.Name]; !edited {
					want = append(want, e)
				}
			}
			for _, e := range c.edits {
				if e != nil {
					want = append(want, *e)
				}
			}
			wantHash, wantRaw := r.mktree(want)
			got := d.splice(c.edits)
			if !bytes.Equal(got, wantRaw) {
				t.Errorf("splice = %x\nwant %x", got, wantRaw)
			}
			if h := HashObject(plumbing.TreeObject, got); h != wantHash {
				t.Errorf("hash %s, git's %s", h, wantHash)
			}
		})
	}
	if got := d.splice(map[string]*TreeEntry{}); !bytes.Equal(got, raw) {
		t.Error("a splice without edits changed the tree")
	}
}

// A tree some other tool wrote out of order, or with a zero-padded mode,
// is still read right, and what we make from it is what git would make.
func TestTreeNonCanonicalInput(t *testing.T) {
	r := newIndexRepo(t)
	blob := r.HashObject("a.txt")
	sub, _ := r.mktree([]TreeEntry{{Name: "f", Mode: filemode.Regular, Hash: blob}})
	entry := func(mode, name string, h plumbing.Hash) []byte {
		return append([]byte(mode+" "+name+"\x00"), h[:]...)
	}
	cases := map[string][]byte{
		"unsorted":    bytes.Join([][]byte{entry("100644", "b", blob), entry("100644", "a", blob), entry("40000", "c", sub)}, nil),
		"zero-padded": bytes.Join([][]byte{entry("100644", "a", blob), entry("100644", "b", blob), entry("040000", "c", sub)}, nil),
	}
	for name, raw := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := parseTree(raw)
			if err != nil {
				t.Fatal(err)
			}
			if d.sorted && d.canonical {
				t.Fatal("not noticed")
			}
			for _, n := range []string{"a", "b", "c"} {
				if _, ok := d.Find(n); !ok {
					t.Errorf("find(%q) failed", n)
				}
			}
			got := d.splice(map[string]*TreeEntry{"b": nil, "d": {Name: "d", Mode: filemode.Regular, Hash: blob}})
			_, want := r.mktree([]TreeEntry{{Name: "a", Mode: filemode.Regular, Hash: blob}, {Name: "c", Mode: filemode.Dir, Hash: sub}, {Name: "d", Mode: filemode.Regular, Hash: blob}})
			if !bytes.Equal(got, want) {
				t.Errorf("splice = %q\nwant %q", got, want)
			}
		})
	}
}

// Malformed trees are errors, never panics.
func TestTreeMalformed(t *testing.T) {
	var h plumbing.Hash
	for name, raw := range map[string]string{
		"no space":    "100644a\x00" + string(h[:]),
		"no nul":      "100644 a",
		"short hash":  "100644 a\x00abc",
		"bad mode":    "10x644 a\x00" + string(h[:]),
		"empty mode":  " a\x00" + string(h[:]),
		"nul in mode": "100\x00644 a" + string(h[:]),
	} {
		if _, err := parseTree([]byte(raw)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzParseTree(f *testing.F) {
	var h plumbing.Hash
	f.Add([]byte("100644 a\x00" + string(h[:]) + "40000 b\x00" + string(h[:])))
	f.Add([]byte("40000 foo\x00" + string(h[:]) + "100644 foo-bar\x00" + string(h[:])))
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, err := parseTree(raw)
		if err != nil {
			return
		}
		for _, e := range d.entries() {
			if _, ok := d.Find(e.Name); !ok {
				t.Errorf("entry %q not found", e.Name)
			}
		}
		out := d.splice(map[string]*TreeEntry{"new": {Name: "new", Mode: filemode.Regular, Hash: h}})
		d2, err := parseTree(out)
		if err != nil {
			t.Fatalf("spliced tree does not parse: %v", err)
		}
		if d.sorted && !d2.sorted {
			t.Error("splice broke the order")
		}
		if _, ok := d2.Find("new"); !ok {
			t.Error("added entry not found")
		}
	})
}

// One store's reads may run on several goroutines at once (a snapshot's
// fs.FS under lint's parallel checks): the tree cache and each cached
// tree's decoded entries are shared safely (go test -race checks it).
func TestStoreReadsInParallel(t *testing.T) {
	l, _ := newTestRepo(t)
	head, err := l.ResolveBranch("main")
	if err != nil {
		t.Fatal(err)
	}
	s := l.NewStore(true)
	root, _, err := s.CommitInfo(head)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(tree plumbing.Hash, prefix string, out *[]string) error
	walk = func(tree plumbing.Hash, prefix string, out *[]string) error {
		entries, err := s.Tree(tree)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.Mode == ModeDir {
				if err := walk(e.Hash, prefix+e.Name+"/", out); err != nil {
					return err
				}
				continue
			}
			b, err := s.Blob(e.Hash)
			if err != nil {
				return err
			}
			*out = append(*out, fmt.Sprintf("%s%s %d", prefix, e.Name, len(b)))
		}
		return nil
	}
	const n = 8
	got := make([][]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = walk(root, "", &got[i])
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if len(got[i]) == 0 || !slices.Equal(got[i], got[0]) {
			t.Fatalf("walk %d saw %v, walk 0 %v", i, got[i], got[0])
		}
	}
}
