package overlap

// A stored index: the measure's inverted index written to a file, so a
// process that checks one new skill against a library reads the posting
// lists of that skill's terms and the term lists of the few skills that
// could reach the threshold, not every skill of the library. The file
// holds raw term counts, never weights: weights depend on the number of
// skills and each term's document frequency, which change with every
// skill added or removed, so they are computed at query time from the
// counts, and a stored index with changes applied (Stored.Change) answers
// exactly what [NewIndex] over the same skills answers.
//
// Layout (little endian): magic; skill count, term count; the skills
// table (per skill: key, name, where its term list starts, its length,
// its CRC); the terms table in byte order of the term (term, document
// frequency, where its posting list starts, its length, its CRC); the
// string pool; a CRC of everything so far; then the posting lists (skill,
// count) and the term lists (term, count, in the order the terms first
// occur in the skill). The tables are read and checked whole; a list is
// checked against its CRC when it is read. Any mismatch is an error: the
// caller rebuilds, it never guesses.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
)

// TermCount is one term of a skill and its weighted count (3 for a word
// of the name, 2 of the description, 1 of the body).
type TermCount struct {
	Term  string
	Count float32
}

// Doc is a skill as a stored index holds it: Key is the caller's (a
// folder), Name the skill's name, Terms in the order they first occur.
type Doc struct {
	Key   string
	Name  string
	Terms []TermCount
}

// Terms counts a skill's terms as [NewIndex] counts them.
func Terms(s Skill) []TermCount {
	var out []TermCount
	at := map[string]int{}
	var weight float32
	count := func(w []byte, _ uint64) {
		t := fold(w)
		if t == "" {
			return
		}
		if i, ok := at[t]; ok {
			out[i].Count += weight
			return
		}
		at[t] = len(out)
		out = append(out, TermCount{t, weight})
	}
	fields(s, nil, func(w float32) func([]byte, uint64) {
		weight = w
		return count
	})
	return out
}

const storeMagic = "skillrepo overlap 1\n"

// Bounds a stored index is read within: a damaged header cannot make a
// reader allocate more than this.
const (
	maxStoreDocs  = 1 << 22
	maxStoreTerms = 1 << 24
	maxListLen    = 1 << 24
)

// WriteStore writes docs as a stored index. Keys must be distinct; names
// too (the caller keeps the first skill of a name, as NewIndex does). The
// skills are written in key order, so a key is found by binary search.
func WriteStore(w io.Writer, docs []Doc) error {
	docs = slices.Clone(docs)
	slices.SortFunc(docs, func(a, b Doc) int { return strings.Compare(a.Key, b.Key) })
	type termInfo struct {
		postings []byte
		df       uint32
	}
	terms := map[string]*termInfo{}
	var names []string
	for _, d := range docs {
		for _, tc := range d.Terms {
			ti := terms[tc.Term]
			if ti == nil {
				ti = &termInfo{}
				terms[tc.Term] = ti
				names = append(names, tc.Term)
			}
			ti.df++
		}
	}
	slices.Sort(names)
	id := make(map[string]uint32, len(names))
	for i, t := range names {
		id[t] = uint32(i)
	}
	for di, d := range docs {
		for _, tc := range d.Terms {
			ti := terms[tc.Term]
			ti.postings = binary.LittleEndian.AppendUint32(ti.postings, uint32(di))
			ti.postings = binary.LittleEndian.AppendUint32(ti.postings, math.Float32bits(tc.Count))
		}
	}
	var pool []byte
	str := func(b []byte, s string) []byte {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(pool)))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		pool = append(pool, s...)
		return b
	}
	var lists []byte
	head := []byte(storeMagic)
	head = binary.LittleEndian.AppendUint32(head, uint32(len(docs)))
	head = binary.LittleEndian.AppendUint32(head, uint32(len(names)))
	var docTable []byte
	for _, d := range docs {
		docTable = str(docTable, d.Key)
		docTable = str(docTable, d.Name)
		start := len(lists)
		for _, tc := range d.Terms {
			lists = binary.LittleEndian.AppendUint32(lists, id[tc.Term])
			lists = binary.LittleEndian.AppendUint32(lists, math.Float32bits(tc.Count))
		}
		docTable = appendList(docTable, start, lists[start:])
	}
	var termTable []byte
	for _, t := range names {
		ti := terms[t]
		termTable = str(termTable, t)
		termTable = binary.LittleEndian.AppendUint32(termTable, ti.df)
		start := len(lists)
		lists = append(lists, ti.postings...)
		termTable = appendList(termTable, start, lists[start:])
	}
	out := append(head, docTable...)
	out = append(out, termTable...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(pool)))
	out = append(out, pool...)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
	if _, err := w.Write(out); err != nil {
		return err
	}
	_, err := w.Write(lists)
	return err
}

// appendList records a list: where it starts (in the lists section), its
// number of entries and its CRC.
func appendList(b []byte, start int, list []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(start))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(list)/8))
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(list))
}

// listRef locates one list in the file.
type listRef struct {
	off, n uint32
	crc    uint32
}

// Stored is a stored index opened for queries, with the changes made
// since it was written. Its tables are kept as read (an entry is decoded
// when it is looked at: opening one for 10,000 skills decodes nothing),
// and it reads its lists from r as it needs them.
type Stored struct {
	r        io.ReaderAt
	listsOff int64
	size     int64
	docsRaw  []byte // per skill: key, name (offset, length), list (offset, length, CRC)
	termsRaw []byte // per term: term (offset, length), df, list (offset, length, CRC)
	pool     string
	// Changes since the file was written.
	gone   map[int32]bool    // stored skills no longer in the set
	added  []Doc             // skills added since (their own terms)
	dfMore map[string]int32  // df change of a term from the changes
	keys   map[string]bool   // keys of added
	names  map[string]string // name -> key of every skill in the set, lazily
}

// OpenStored reads a stored index's tables from r (size bytes) and checks
// them.
func OpenStored(r io.ReaderAt, size int64) (*Stored, error) {
	bad := func(what string) error { return fmt.Errorf("stored overlap index: %s", what) }
	head := make([]byte, len(storeMagic)+8)
	if _, err := r.ReadAt(head, 0); err != nil || string(head[:len(storeMagic)]) != storeMagic {
		return nil, bad("not an index")
	}
	nDocs := int64(binary.LittleEndian.Uint32(head[len(storeMagic):]))
	nTerms := int64(binary.LittleEndian.Uint32(head[len(storeMagic)+4:]))
	if nDocs > maxStoreDocs || nTerms > maxStoreTerms {
		return nil, bad("too large")
	}
	tables := nDocs*28 + nTerms*24
	if int64(len(head))+tables+4 > size {
		return nil, bad("truncated")
	}
	b := make([]byte, int64(len(head))+tables+4)
	if _, err := r.ReadAt(b, 0); err != nil {
		return nil, bad("truncated")
	}
	poolLen := int64(binary.LittleEndian.Uint32(b[len(b)-4:]))
	poolOff := int64(len(b))
	if poolOff+poolLen+4 > size {
		return nil, bad("truncated")
	}
	rest := make([]byte, poolLen+4)
	if _, err := r.ReadAt(rest, poolOff); err != nil {
		return nil, bad("truncated")
	}
	crc := crc32.Update(crc32.ChecksumIEEE(b), crc32.IEEETable, rest[:poolLen])
	if crc != binary.LittleEndian.Uint32(rest[poolLen:]) {
		return nil, bad("checksum mismatch")
	}
	st := &Stored{r: r, listsOff: poolOff + poolLen + 4, size: size, pool: string(rest[:poolLen]),
		docsRaw: b[len(head) : int64(len(head))+nDocs*28], termsRaw: b[int64(len(head))+nDocs*28 : int64(len(head))+tables],
		gone: map[int32]bool{}, dfMore: map[string]int32{}, keys: map[string]bool{}}
	// Every string inside the pool, keys and terms in strictly rising
	// order, and the lists filling the rest of the file exactly.
	var lists int64
	for i := 0; i < st.nDocs(); i++ {
		e := st.docsRaw[28*i:]
		if !st.inPool(e) || !st.inPool(e[8:]) || (i > 0 && st.docKey(int32(i-1)) >= st.docKey(int32(i))) {
			return nil, bad("damaged tables")
		}
		lists += 8 * int64(binary.LittleEndian.Uint32(e[20:]))
	}
	for i := 0; i < st.nTerms(); i++ {
		e := st.termsRaw[24*i:]
		if !st.inPool(e) || (i > 0 && st.termAt(i-1) >= st.termAt(i)) {
			return nil, bad("damaged tables")
		}
		lists += 8 * int64(binary.LittleEndian.Uint32(e[16:]))
	}
	if st.listsOff+lists != size {
		return nil, bad("truncated")
	}
	return st, nil
}

func (st *Stored) nDocs() int  { return len(st.docsRaw) / 28 }
func (st *Stored) nTerms() int { return len(st.termsRaw) / 24 }

// inPool reports whether the (offset, length) at the start of e lies in
// the pool.
func (st *Stored) inPool(e []byte) bool {
	off, n := int64(binary.LittleEndian.Uint32(e)), int64(binary.LittleEndian.Uint32(e[4:]))
	return off+n <= int64(len(st.pool))
}

func (st *Stored) str(e []byte) string {
	off := binary.LittleEndian.Uint32(e)
	return st.pool[off : off+binary.LittleEndian.Uint32(e[4:])]
}

func (st *Stored) docKey(i int32) string  { return st.str(st.docsRaw[28*i:]) }
func (st *Stored) docName(i int32) string { return st.str(st.docsRaw[28*i+8:]) }
func (st *Stored) docList(i int32) listRef {
	e := st.docsRaw[28*i+16:]
	return listRef{binary.LittleEndian.Uint32(e), binary.LittleEndian.Uint32(e[4:]), binary.LittleEndian.Uint32(e[8:])}
}
func (st *Stored) termAt(i int) string { return st.str(st.termsRaw[24*i:]) }
func (st *Stored) termDF(i int) int32  { return int32(binary.LittleEndian.Uint32(st.termsRaw[24*i+8:])) }
func (st *Stored) termList(i int) listRef {
	e := st.termsRaw[24*i+12:]
	return listRef{binary.LittleEndian.Uint32(e), binary.LittleEndian.Uint32(e[4:]), binary.LittleEndian.Uint32(e[8:])}
}

// find is the stored skill with key key.
func (st *Stored) find(key string) (int32, bool) {
	i := sort.Search(st.nDocs(), func(i int) bool { return st.docKey(int32(i)) >= key })
	return int32(i), i < st.nDocs() && st.docKey(int32(i)) == key
}

// readList reads and checks one list.
func (st *Stored) readList(l listRef) ([]byte, error) {
	if l.n > maxListLen || st.listsOff+int64(l.off)+8*int64(l.n) > st.size {
		return nil, errors.New("stored overlap index: list out of bounds")
	}
	b := make([]byte, 8*int64(l.n))
	if _, err := st.r.ReadAt(b, st.listsOff+int64(l.off)); err != nil {
		return nil, fmt.Errorf("stored overlap index: %w", err)
	}
	if crc32.ChecksumIEEE(b) != l.crc {
		return nil, errors.New("stored overlap index: list checksum mismatch")
	}
	return b, nil
}

// Has reports whether key's skill is in the set.
func (st *Stored) Has(key string) bool {
	if st.keys[key] {
		return true
	}
	i, ok := st.find(key)
	return ok && !st.gone[i]
}

// Len is the number of skills in the set.
func (st *Stored) Len() int { return st.nDocs() - len(st.gone) + len(st.added) }

// term finds a stored term's index.
func (st *Stored) term(t string) (int, bool) {
	i := sort.Search(st.nTerms(), func(i int) bool { return st.termAt(i) >= t })
	return i, i < st.nTerms() && st.termAt(i) == t
}

// docTerms reads a stored skill's terms.
func (st *Stored) docTerms(i int32) ([]TermCount, error) {
	b, err := st.readList(st.docList(i))
	if err != nil {
		return nil, err
	}
	out := make([]TermCount, len(b)/8)
	for k := range out {
		id := binary.LittleEndian.Uint32(b[8*k:])
		if int(id) >= st.nTerms() {
			return nil, errors.New("stored overlap index: damaged term list")
		}
		out[k] = TermCount{st.termAt(int(id)), math.Float32frombits(binary.LittleEndian.Uint32(b[8*k+4:]))}
	}
	return out, nil
}

// Change takes the skills of keys gone out of the set and puts docs in
// (a doc whose key is in the set replaces it).
func (st *Stored) Change(gone []string, docs []Doc) error {
	remove := func(key string) error {
		if st.keys[key] {
			for i, d := range st.added {
				if d.Key == key {
					for _, tc := range d.Terms {
						st.dfMore[tc.Term]--
					}
					st.added = slices.Delete(st.added, i, i+1)
					break
				}
			}
			delete(st.keys, key)
			return nil
		}
		i, ok := st.find(key)
		if !ok || st.gone[i] {
			return nil
		}
		terms, err := st.docTerms(i)
		if err != nil {
			return err
		}
		for _, tc := range terms {
			st.dfMore[tc.Term]--
		}
		st.gone[i] = true
		return nil
	}
	for _, k := range gone {
		if err := remove(k); err != nil {
			return err
		}
	}
	for _, d := range docs {
		if err := remove(d.Key); err != nil {
			return err
		}
		st.added = append(st.added, d)
		st.keys[d.Key] = true
		for _, tc := range d.Terms {
			st.dfMore[tc.Term]++
		}
	}
	st.names = nil
	return nil
}

// Docs returns every skill of the set with its terms (to write a new
// file): the stored ones in the file's order, then those added.
func (st *Stored) Docs() ([]Doc, error) {
	out := make([]Doc, 0, st.Len())
	for i := int32(0); i < int32(st.nDocs()); i++ {
		if st.gone[i] {
			continue
		}
		terms, err := st.docTerms(i)
		if err != nil {
			return nil, err
		}
		out = append(out, Doc{Key: st.docKey(i), Name: st.docName(i), Terms: terms})
	}
	return append(out, st.added...), nil
}

// df is a term's document frequency in the set.
func (st *Stored) df(t string) int32 {
	df := st.dfMore[t]
	if i, ok := st.term(t); ok {
		df += st.termDF(i)
	}
	return df
}

// KeyOf is the key of the set's skill named name.
func (st *Stored) KeyOf(name string) (string, bool) {
	if st.names == nil {
		st.names = make(map[string]string, st.Len())
		for i := int32(0); i < int32(st.nDocs()); i++ {
			if !st.gone[i] {
				st.names[st.docName(i)] = st.docKey(i)
			}
		}
		for _, d := range st.added {
			st.names[d.Name] = d.Key
		}
	}
	k, ok := st.names[name]
	return k, ok
}

// candidate is a skill a query's terms reach.
type candidate struct {
	dot, part float64 // the dot product with unnormalised weights, and their squared norm
}

// Query returns the skills of the set whose similarity to s is at least
// threshold, as [Index.Query] over the same skills returns them. Cost: the
// posting lists of s's terms (none longer than the df ceiling), and the
// term lists of the skills whose shared terms alone could reach the
// threshold.
func (st *Stored) Query(s Skill, threshold float64) ([]Match, error) {
	n := st.Len()
	maxDF := int32(DFCeiling(n))
	idf := func(df int32) float64 { return math.Log(float64(n+1)/float64(df+1)) + 1 }
	// The query's vector, as Index.queryVector makes it.
	qterms := Terms(s)
	var unknown float64
	type qt struct {
		term string
		w    float64
		df   int32
	}
	var q []qt
	norm := 0.0
	for _, tc := range qterms {
		df := st.df(tc.Term)
		if df <= 0 {
			w := (1 + math.Log(float64(tc.Count))) * idf(0)
			unknown += w * w
			continue
		}
		if df > maxDF {
			continue
		}
		w := (1 + math.Log(float64(tc.Count))) * idf(df)
		q = append(q, qt{tc.Term, w, df})
	}
	norm = unknown
	for _, e := range q {
		norm += e.w * e.w
	}
	if norm == 0 || len(q) == 0 {
		return nil, nil
	}
	inv := 1 / math.Sqrt(norm)
	qw := make(map[string]float32, len(q))
	for i := range q {
		q[i].w = float64(float32(q[i].w * inv))
		qw[q[i].term] = float32(q[i].w)
	}
	// Candidates through the posting lists.
	cands := map[string]*candidate{}
	add := func(key string, qwt float64, count float32, idft float64) {
		c := cands[key]
		if c == nil {
			c = &candidate{}
			cands[key] = c
		}
		w := (1 + math.Log(float64(count))) * idft
		c.dot += qwt * w
		c.part += w * w
	}
	for _, e := range q {
		idft := idf(e.df)
		if i, ok := st.term(e.term); ok {
			b, err := st.readList(st.termList(i))
			if err != nil {
				return nil, err
			}
			for k := 0; k+8 <= len(b); k += 8 {
				d := int32(binary.LittleEndian.Uint32(b[k:]))
				if int(d) >= st.nDocs() {
					return nil, errors.New("stored overlap index: damaged posting list")
				}
				if st.gone[d] {
					continue
				}
				add(st.docKey(d), e.w, math.Float32frombits(binary.LittleEndian.Uint32(b[k+4:])), idft)
			}
		}
	}
	addedAt := map[string]int{}
	for i, d := range st.added {
		addedAt[d.Key] = i
		for _, tc := range d.Terms {
			if w, ok := qw[tc.Term]; ok {
				add(d.Key, float64(w), tc.Count, idf(st.df(tc.Term)))
			}
		}
	}
	// Exact similarity for the candidates the bound keeps: a skill's norm
	// is at least the norm of its shared terms' weights, so dot/√part
	// bounds its similarity from above (with room for float rounding).
	var out []Match
	keys := make([]string, 0, len(cands))
	for k := range cands {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		c := cands[key]
		if c.part == 0 || c.dot/math.Sqrt(c.part) < threshold-1e-4 {
			continue
		}
		var terms []TermCount
		var name string
		if i, ok := addedAt[key]; ok {
			terms, name = st.added[i].Terms, st.added[i].Name
		} else {
			d, _ := st.find(key)
			if name = st.docName(d); name == s.Name {
				continue // the skill itself (names are unique in the set)
			}
			var err error
			if terms, err = st.docTerms(d); err != nil {
				return nil, err
			}
		}
		if name == s.Name {
			continue
		}
		// The skill's vector, as Index.vector makes it.
		type dw struct {
			term string
			w    float64
		}
		var v []dw
		dn := 0.0
		for _, tc := range terms {
			df := st.df(tc.Term)
			if df > maxDF {
				continue
			}
			w := (1 + math.Log(float64(tc.Count))) * idf(df)
			dn += w * w
			v = append(v, dw{tc.Term, w})
		}
		if dn == 0 {
			continue
		}
		dinv := 1 / math.Sqrt(dn)
		sim := 0.0
		var shared []sharedTerm
		for _, e := range v {
			if w, ok := qw[e.term]; ok {
				x := float64(w) * float64(float32(e.w*dinv))
				sim += x
				shared = append(shared, sharedTerm{e.term, float32(w) * float32(e.w*dinv)})
			}
		}
		if sim >= threshold {
			out = append(out, Match{Name: name, Similarity: round(sim), Shared: topShared(shared)})
		}
	}
	sortMatches(out)
	return out, nil
}

// sharedTerm is a term two vectors share, with its weight in their dot
// product.
type sharedTerm struct {
	t string
	w float32
}

// topShared names the sharedTerms terms that weigh most.
func topShared(ts []sharedTerm) []string {
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].w != ts[j].w {
			return ts[i].w > ts[j].w
		}
		return ts[i].t < ts[j].t
	})
	out := make([]string, 0, sharedTerms)
	for _, t := range ts[:min(len(ts), sharedTerms)] {
		out = append(out, t.t)
	}
	return out
}

// sortMatches orders matches most similar first, ties by name.
func sortMatches(out []Match) {
	sort.Slice(out, func(i, j int) bool {
		if out[i].Similarity != out[j].Similarity {
			return out[i].Similarity > out[j].Similarity
		}
		return strings.Compare(out[i].Name, out[j].Name) < 0
	})
}
