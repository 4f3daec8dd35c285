package skillrepo

// The duplicate check's overlap index, kept per clone in
// .git/skillrepo/cache/overlap.bin: package overlap's stored index
// (overlap/store.go) of the active skills of one tree, followed by deltas
// as the skill catalogue keeps them (skillcatalog.go): "from tree A to
// tree B these skills went out, these came in, with their terms". A
// create brings it to the tree it writes on by the hash-pruned tree diff,
// tokenises only the skills that differ, and compares the new skill with
// the candidates the posting lists of its terms give: it no longer reads
// every SKILL.md of the library (at 10,000 skills that was ~350 ms of CPU
// and 35 MiB per create; bench/README.md). Every table and list is
// checked against its CRC as it is read; a damaged file, a delta that
// does not start where the index stands, or a tree the store lacks
// rebuilds the index from the tree.

import (
	"bytes"
	"encoding/binary"
	"io"
	"io/fs"
	"math"
	"slices"

	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/overlap"
)

const (
	overlapIndexMagic = "skillrepo overlap index 1\n"
	// overlapMaxDeltas bounds the deltas kept after the stored index;
	// past it, or once an eighth of the skills changed, the next change
	// writes the index anew.
	overlapMaxDeltas = 4 << 20
)

// overlapIndex is the file as read: the stored index and the deltas
// applied to it.
type overlapIndex struct {
	path      string
	tree      Hash
	st        *overlap.Stored
	deltaOff  int64
	deltaSize int64
	torn      bool
	changed   int // skills changed since the stored index was written
}

func (l *Library) overlapIndexPath() string { return l.State().cache("overlap.bin") }

// overlapIndexAt returns the overlap index of s's active skills.
func (l *Library) overlapIndexAt(s *Snapshot) (*overlap.Stored, error) {
	persist := !l.readOnly && l.repo.Stored(s.tree)
	x := readOverlapIndex(l.overlapIndexPath())
	if x != nil && x.tree != s.tree {
		if err := x.moveTo(l, s, persist); err != nil {
			x = nil
		}
	}
	if x == nil {
		return l.buildOverlapIndex(s, persist)
	}
	return x.st, nil
}

// buildOverlapIndex reads every active skill of s and writes the index.
func (l *Library) buildOverlapIndex(s *Snapshot, persist bool) (*overlap.Stored, error) {
	all, err := s.Skills()
	if err != nil {
		return nil, err
	}
	var docs []overlap.Doc
	seen := map[string]bool{}
	fsys := s.FS()
	for _, si := range all {
		if si.Archived || seen[si.Name] {
			continue
		}
		if d, ok := readOverlapDoc(fsys, si); ok {
			seen[si.Name] = true
			docs = append(docs, d)
		}
	}
	var store bytes.Buffer
	if err := overlap.WriteStore(&store, docs); err != nil {
		return nil, err
	}
	if persist {
		_ = writeOverlapIndex(l.overlapIndexPath(), s.tree, store.Bytes()) // a cache: failing costs the next create time only
	}
	return overlap.OpenStored(bytes.NewReader(store.Bytes()), int64(store.Len()))
}

// readOverlapDoc reads skill si as the full comparison does
// (overlap.ReadSkill); ok is false for a SKILL.md that cannot be read,
// which the comparison leaves out.
func readOverlapDoc(fsys fs.FS, si SkillInfo) (overlap.Doc, bool) {
	sk, err := overlap.ReadSkill(fsys, si.Dir)
	if err != nil {
		return overlap.Doc{}, false
	}
	return overlap.Doc{Key: si.Dir, Name: sk.Name, Terms: overlap.Terms(sk)}, true
}

func writeOverlapIndex(p string, tree Hash, store []byte) error {
	b := make([]byte, 0, len(overlapIndexMagic)+28+len(store))
	b = append(b, overlapIndexMagic...)
	b = append(b, tree[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(store)))
	b = append(b, store...)
	return statefile.WriteFile(p, b, 0o644, false)
}

// readOverlapIndex opens the file and applies its deltas; nil when it is
// missing, damaged or not ours. The stored index reads its lists from the
// open file as queries need them (the file stays open while it is used).
func readOverlapIndex(p string) *overlapIndex {
	f, err := boundedread.Open(p)
	if err != nil {
		return nil
	}
	fi, err := f.Stat()
	head := make([]byte, len(overlapIndexMagic)+28)
	if err != nil || fi.Size() > maxCacheFile {
		f.Close()
		return nil
	}
	if _, err := io.ReadFull(f, head); err != nil || string(head[:len(overlapIndexMagic)]) != overlapIndexMagic {
		f.Close()
		return nil
	}
	x := &overlapIndex{path: p}
	copy(x.tree[:], head[len(overlapIndexMagic):])
	size := int64(binary.LittleEndian.Uint64(head[len(overlapIndexMagic)+20:]))
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
	if rest > overlapMaxDeltas {
		x.torn = true
		return x
	}
	var failed error
	x.deltaSize, x.torn = readDeltas(f, x.deltaOff, rest, func(payload []byte) bool {
		from, to, gone, docs, ok := decodeOverlapDelta(payload)
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

// moveTo brings the index to s's tree: the skills of the folders that
// differ are taken out, and for every name they touch, the skill the full
// comparison would hold under that name (the first readable active skill
// in folder order) is put in, read from s.
func (x *overlapIndex) moveTo(l *Library, s *Snapshot, persist bool) error {
	gone, came, err := skillChanges(s.store, x.tree, s.tree)
	if err != nil {
		return err
	}
	touched := map[string]bool{}
	cameDirs := map[string]bool{}
	var out []string
	for _, si := range gone {
		if !si.Archived {
			touched[si.Name] = true
			if x.st.Has(si.Dir) {
				out = append(out, si.Dir)
			}
		}
	}
	for _, si := range came {
		if !si.Archived {
			touched[si.Name] = true
			cameDirs[si.Dir] = true
		}
	}
	names := make([]string, 0, len(touched))
	for n := range touched {
		names = append(names, n)
	}
	slices.Sort(names)
	fsys := s.FS()
	var in []overlap.Doc
	for _, name := range names {
		cands, err := activeNamed(l, s, name, came)
		if err != nil {
			return err
		}
		var winner *overlap.Doc
		for _, si := range cands {
			if d, ok := readOverlapDoc(fsys, si); ok {
				winner = &d
				break
			}
		}
		if k, ok := x.st.KeyOf(name); ok && (winner == nil || k != winner.Key) {
			out = append(out, k)
		}
		if winner != nil && (!x.st.Has(winner.Key) || cameDirs[winner.Key]) {
			in = append(in, *winner)
		}
	}
	if err := x.st.Change(out, in); err != nil {
		return err
	}
	prev := x.tree
	x.tree = s.tree
	x.changed += len(out) + len(in)
	if persist {
		_ = x.save(prev, out, in) // a cache: see buildOverlapIndex
	}
	return nil
}

// activeNamed lists the active skills of s named name, in folder order.
// came are the skills the diff found; when the catalogue counts no more
// skills of that name than came holds, they are the answer.
func activeNamed(l *Library, s *Snapshot, name string, came []SkillInfo) ([]SkillInfo, error) {
	var out []SkillInfo
	for _, si := range came {
		if si.Name == name {
			out = append(out, si)
		}
	}
	if n, err := l.folderNameCount(s.store, s.tree, name); err == nil && n == len(out) {
		return activeOnly(out), nil
	}
	all, err := s.Skills()
	if err != nil {
		return nil, err
	}
	out = out[:0]
	for _, si := range all {
		if si.Name == name {
			out = append(out, si)
		}
	}
	return activeOnly(out), nil
}

func activeOnly(skills []SkillInfo) []SkillInfo {
	out := skills[:0:0]
	for _, si := range skills {
		if !si.Archived {
			out = append(out, si)
		}
	}
	slices.SortFunc(out, func(a, b SkillInfo) int {
		switch {
		case a.Dir < b.Dir:
			return -1
		case a.Dir > b.Dir:
			return 1
		}
		return 0
	})
	return out
}

// save appends the change as a delta, or writes the index anew when the
// deltas have grown past their bound.
func (x *overlapIndex) save(from Hash, gone []string, docs []overlap.Doc) error {
	if x.torn || x.deltaSize > overlapMaxDeltas/2 || x.changed > max(256, x.st.Len()/8) {
		all, err := x.st.Docs()
		if err != nil {
			return err
		}
		var store bytes.Buffer
		if err := overlap.WriteStore(&store, all); err != nil {
			return err
		}
		return writeOverlapIndex(x.path, x.tree, store.Bytes())
	}
	p := make([]byte, 0, 256)
	p = append(p, from[:]...)
	p = append(p, x.tree[:]...)
	p = binary.AppendUvarint(p, uint64(len(gone)))
	for _, k := range gone {
		p = appendCatalogString(p, k)
	}
	p = binary.AppendUvarint(p, uint64(len(docs)))
	for _, d := range docs {
		p = appendCatalogString(p, d.Key)
		p = appendCatalogString(p, d.Name)
		p = binary.AppendUvarint(p, uint64(len(d.Terms)))
		for _, tc := range d.Terms {
			p = appendCatalogString(p, tc.Term)
			p = binary.LittleEndian.AppendUint32(p, math.Float32bits(tc.Count))
		}
	}
	n, err := appendDeltaFrame(x.path, x.deltaOff+x.deltaSize, p)
	x.deltaSize += n
	return err
}

func decodeOverlapDelta(b []byte) (from, to Hash, gone []string, docs []overlap.Doc, ok bool) {
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
		s, b, ok = catalogString(b)
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
