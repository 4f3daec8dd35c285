// Package indexfile keeps package overlap's stored index of one tree's
// active skills in a per-clone cache file (the domain's duplicate check
// uses .git/skillrepo/cache/overlap.bin): the stored index
// (overlap/store.go), followed by deltas as package internal/deltalog
// frames them, "from tree A to tree B these skills went out, these came
// in, with their terms". The domain says which skills differ between two
// trees and reads them; this package reads, applies and appends. Every
// table and list is checked against its CRC as it is read; a damaged
// file, or a delta that does not start where the index stands, makes
// [Open] return nil, and the domain rebuilds the index from the tree. It
// knows nothing of git: a tree is its 20-byte id.
package indexfile

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"

	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/deltalog"
	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/overlap"
)

// Tree is a git tree's object id.
type Tree = [20]byte

const (
	// Magic starts the file: its format and version.
	Magic = "skillrepo overlap index 1\n"
	// headSize is the Magic, the tree and the stored index's size.
	headSize = len(Magic) + 28
	// maxDeltas bounds the deltas kept after the stored index; past it,
	// or once an eighth of the skills changed, the next change writes the
	// index anew.
	maxDeltas = 4 << 20
)

// File is the index as read: the stored index and the deltas applied to
// it. Its lists are read from the open file as queries need them.
type File struct {
	path      string
	tree      Tree
	st        *overlap.Stored
	deltaOff  int64
	deltaSize int64
	torn      bool
	changed   int // skills changed since the stored index was written
}

// Stored is the index, as of [File.Tree].
func (x *File) Stored() *overlap.Stored { return x.st }

// Tree is the tree the index stands at.
func (x *File) Tree() Tree { return x.tree }

// Build writes the index of docs, the active skills of tree, to the file
// at p when persist is set (a cache: failing to write costs the next
// create time only), and returns it.
func Build(p string, tree Tree, docs []overlap.Doc, persist bool) (*overlap.Stored, error) {
	var store bytes.Buffer
	if err := overlap.WriteStore(&store, docs); err != nil {
		return nil, err
	}
	if persist {
		_ = write(p, tree, store.Bytes())
	}
	return overlap.OpenStored(bytes.NewReader(store.Bytes()), int64(store.Len()))
}

func write(p string, tree Tree, store []byte) error {
	b := make([]byte, 0, headSize+len(store))
	b = append(b, Magic...)
	b = append(b, tree[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(store)))
	b = append(b, store...)
	return statefile.WriteFile(p, b, 0o644, false)
}

// Open opens the file at p, at most limit bytes, and applies its deltas;
// nil when it is missing, damaged or not ours. The file stays open while
// the index is used.
func Open(p string, limit int64) *File {
	f, err := boundedread.Open(p)
	if err != nil {
		return nil
	}
	fi, err := f.Stat()
	head := make([]byte, headSize)
	if err != nil || fi.Size() > limit {
		f.Close()
		return nil
	}
	if _, err := io.ReadFull(f, head); err != nil || string(head[:len(Magic)]) != Magic {
		f.Close()
		return nil
	}
	x := &File{path: p}
	copy(x.tree[:], head[len(Magic):])
	size := int64(binary.LittleEndian.Uint64(head[len(Magic)+20:]))
	if size < 0 || int64(len(head))+size > fi.Size() {
		f.Close()
		return nil
	}
	if x.st, err = overlap.OpenStored(io.NewSectionReader(f, int64(len(head)), size), size); err != nil {
		f.Close()
		return nil
	}
	x.deltaOff = int64(len(head)) + size
	rest := fi.Size() - x.deltaOff
	if rest > maxDeltas {
		x.torn = true
		return x
	}
	var failed error
	x.deltaSize, x.torn = deltalog.Read(f, x.deltaOff, rest, func(payload []byte) bool {
		from, to, gone, docs, ok := decodeDelta(payload)
		if !ok || from != x.tree {
			return false
		}
		if failed = x.st.Change(gone, docs); failed != nil {
			return false
		}
		x.tree = to
		x.changed += len(gone) + len(docs)
		return true
	})
	if failed != nil {
		return nil // half applied: not to be trusted
	}
	return x
}

// Move brings the index to tree to: the skills keyed gone are taken out,
// docs put in; with persist, the change is appended as a delta, or the
// index written anew once the deltas have grown past their bound (a
// cache: a failed write costs the next create time only).
func (x *File) Move(to Tree, gone []string, docs []overlap.Doc, persist bool) error {
	if err := x.st.Change(gone, docs); err != nil {
		return err
	}
	from := x.tree
	x.tree = to
	x.changed += len(gone) + len(docs)
	if persist {
		_ = x.save(from, gone, docs)
	}
	return nil
}

// save appends the change as a delta, or writes the index anew when the
// deltas have grown past their bound.
func (x *File) save(from Tree, gone []string, docs []overlap.Doc) error {
	if x.torn || x.deltaSize > maxDeltas/2 || x.changed > max(256, x.st.Len()/8) {
		all, err := x.st.Docs()
		if err != nil {
			return err
		}
		var store bytes.Buffer
		if err := overlap.WriteStore(&store, all); err != nil {
			return err
		}
		return write(x.path, x.tree, store.Bytes())
	}
	p := make([]byte, 0, 256)
	p = append(p, from[:]...)
	p = append(p, x.tree[:]...)
	p = binary.AppendUvarint(p, uint64(len(gone)))
	for _, k := range gone {
		p = deltalog.AppendString(p, k)
	}
	p = binary.AppendUvarint(p, uint64(len(docs)))
	for _, d := range docs {
		p = deltalog.AppendString(p, d.Key)
		p = deltalog.AppendString(p, d.Name)
		p = binary.AppendUvarint(p, uint64(len(d.Terms)))
		for _, tc := range d.Terms {
			p = deltalog.AppendString(p, tc.Term)
			p = binary.LittleEndian.AppendUint32(p, math.Float32bits(tc.Count))
		}
	}
	n, err := deltalog.Append(x.path, x.deltaOff+x.deltaSize, p)
	x.deltaSize += n
	return err
}

func decodeDelta(b []byte) (from, to Tree, gone []string, docs []overlap.Doc, ok bool) {
	if len(b) < 40 {
		return
	}
	copy(from[:], b[:20])
	copy(to[:], b[20:40])
	b = b[40:]
	count := func() (int, bool) {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)) {
			return 0, false
		}
		b = b[k:]
		return int(n), true
	}
	str := func() (string, bool) {
		var s string
		var ok bool
		s, b, ok = deltalog.String(b)
		return s, ok
	}
	n, ok := count()
	for i := 0; ok && i < n; i++ {
		var k string
		if k, ok = str(); ok {
			gone = append(gone, k)
		}
	}
	if !ok {
		return from, to, nil, nil, false
	}
	if n, ok = count(); !ok {
		return from, to, nil, nil, false
	}
	for i := 0; i < n; i++ {
		var d overlap.Doc
		var nt int
		if d.Key, ok = str(); !ok {
			return from, to, nil, nil, false
		}
		if d.Name, ok = str(); !ok {
			return from, to, nil, nil, false
		}
		if nt, ok = count(); !ok {
			return from, to, nil, nil, false
		}
		for j := 0; j < nt; j++ {
			var t string
			if t, ok = str(); !ok || len(b) < 4 {
				return from, to, nil, nil, false
			}
			d.Terms = append(d.Terms, overlap.TermCount{Term: t, Count: math.Float32frombits(binary.LittleEndian.Uint32(b))})
			b = b[4:]
		}
		docs = append(docs, d)
	}
	if len(b) != 0 {
		return from, to, nil, nil, false
	}
	return from, to, gone, docs, true
}
