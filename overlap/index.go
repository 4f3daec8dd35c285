package overlap

import (
	"math"
	"slices"
)

// Skill is one skill as overlap reads it. Body is the SKILL.md text after
// the frontmatter; only its first MaxBodyBytes are read.
type Skill struct {
	Name        string
	Description string
	Body        string
	Category    string
	// Pinned and Scheduled are carried into the clusters, so a reader
	// sees which members nothing may change.
	Pinned    bool
	Scheduled bool
}

// entry is one term of a skill's vector.
type entry struct {
	term int32
	w    float32
}

// posting is one skill holding a term, with the term's weight there.
type posting struct {
	doc int32
	w   float32
}

// Index holds the term vectors of a set of skills and the inverted index
// over them. Build it once with [NewIndex]; [Index.Query] and
// [Index.Pairs] only read it, so it is safe for concurrent use.
type Index struct {
	skills   []Skill
	byName   map[string]int
	terms    map[string]int32 // folded term -> id
	lex      *lexicon         // word as written -> term id, -1 for none
	names    []string         // term names by id
	df       []int32
	maxDF    int32
	vecs     [][]entry // per skill, by term id, L2-normalised
	postings [][]posting
}

// DFCeiling is the document frequency above which a term is left out of
// the measure for a library of n skills: a word in more than one skill in
// fifty (and in more than 50 skills) says little about which skills
// belong together, and leaving it out keeps the inverted index's work
// near linear (the all-pairs cost is the sum of the squared posting
// lengths). Small libraries keep every term.
func DFCeiling(n int) int {
	return max(50, n/50)
}

// tf is one term's weighted count in one skill.
type tf struct {
	term  int32
	count float32
}

// NewIndex tokenises the skills and builds the index. Skills with the
// same name keep the first.
func NewIndex(skills []Skill) *Index {
	ix := &Index{
		skills: make([]Skill, 0, len(skills)),
		byName: make(map[string]int, len(skills)),
		terms:  map[string]int32{},
		lex:    newLexicon(),
	}
	// Counting is dense: one slot per term, reset through the list of
	// terms the skill touched, so a word costs one map lookup (the word
	// as written, folded once per library).
	var dense []float32
	var touched []int32
	tfs := make([][]tf, 0, len(skills))
	var buf []byte
	var weight float32
	count := func(w []byte, h uint64) {
		id, ok := ix.lex.get(h)
		if !ok {
			id = ix.intern(w, h)
		}
		if id < 0 {
			return
		}
		if int(id) >= len(dense) {
			dense = append(dense, make([]float32, int(id)+1-len(dense)+1024)...)
		}
		if dense[id] == 0 {
			touched = append(touched, id)
		}
		dense[id] += weight
	}
	setWeight := func(w float32) func(w []byte, h uint64) {
		weight = w
		return count
	}
	for _, s := range skills {
		if _, dup := ix.byName[s.Name]; dup {
			continue
		}
		ix.byName[s.Name] = len(ix.skills)
		ix.skills = append(ix.skills, s)
		buf = fields(s, buf, setWeight)
		doc := make([]tf, len(touched))
		for i, id := range touched {
			doc[i] = tf{id, dense[id]}
			dense[id] = 0
			ix.df[id]++
		}
		touched = touched[:0]
		tfs = append(tfs, doc)
	}
	n := len(ix.skills)
	ix.maxDF = int32(DFCeiling(n))
	ix.vecs = make([][]entry, n)
	ix.postings = make([][]posting, len(ix.names))
	for d, doc := range tfs {
		v := ix.vector(doc, 0)
		ix.vecs[d] = v
		for _, e := range v {
			ix.postings[e.term] = append(ix.postings[e.term], posting{int32(d), e.w})
		}
	}
	return ix
}

// intern folds a word seen for the first time and records its term.
func (ix *Index) intern(w []byte, h uint64) int32 {
	id := int32(-1)
	if t := fold(w); t != "" {
		var ok bool
		if id, ok = ix.terms[t]; !ok {
			id = int32(len(ix.names))
			ix.terms[t] = id
			ix.names = append(ix.names, t)
			ix.df = append(ix.df, 0)
		}
	}
	ix.lex.put(h, id)
	return id
}

// fields feeds a skill's name, description and body (its first
// MaxBodyBytes) to add, each with its weight.
func fields(s Skill, buf []byte, add func(weight float32) func(w []byte, h uint64)) []byte {
	name := add(weightName)
	for _, w := range nameWords(s.Name) {
		buf = words(w, buf, name)
	}
	buf = words(s.Description, buf, add(weightDescription))
	body := s.Body
	if len(body) > MaxBodyBytes {
		body = body[:MaxBodyBytes]
	}
	return words(body, buf, add(weightBody))
}

// idf is the smoothed inverse document frequency of a term held by df of
// the index's skills.
func (ix *Index) idf(df int32) float64 {
	return math.Log(float64(len(ix.skills)+1)/float64(df+1)) + 1
}

// vector weighs a skill's counts (sublinear term frequency times idf),
// drops terms above the df ceiling, and normalises. unknown is the
// squared weight of words the index has never seen (a query's): they
// match nothing but count in the norm, so words the library has never
// seen make a new skill less like all of it.
func (ix *Index) vector(doc []tf, unknown float64) []entry {
	v := make([]entry, 0, len(doc))
	norm := unknown
	for _, t := range doc {
		if ix.df[t.term] > ix.maxDF {
			continue
		}
		w := (1 + math.Log(float64(t.count))) * ix.idf(ix.df[t.term])
		norm += w * w
		v = append(v, entry{t.term, float32(w)})
	}
	if norm == 0 {
		return nil
	}
	inv := 1 / math.Sqrt(norm)
	for i := range v {
		v[i].w = float32(float64(v[i].w) * inv)
	}
	slices.SortFunc(v, func(a, b entry) int { return int(a.term - b.term) })
	return v
}

// queryVector is the vector of a skill that is not in the index; the
// index is only read.
func (ix *Index) queryVector(s Skill) []entry {
	counts := map[int32]float32{}
	unknownCounts := map[string]float32{}
	fields(s, nil, func(weight float32) func(w []byte, h uint64) {
		return func(w []byte, h uint64) {
			id, ok := ix.lex.get(h)
			if !ok {
				t := fold(w)
				if t == "" {
					return
				}
				if id, ok = ix.terms[t]; !ok {
					unknownCounts[t] += weight
					return
				}
			}
			if id >= 0 {
				counts[id] += weight
			}
		}
	})
	doc := make([]tf, 0, len(counts))
	for id, c := range counts {
		doc = append(doc, tf{id, c})
	}
	var unknown float64
	for _, c := range unknownCounts {
		w := (1 + math.Log(float64(c))) * ix.idf(0)
		unknown += w * w
	}
	return ix.vector(doc, unknown)
}

// Match is an indexed skill a query overlaps.
type Match struct {
	Name       string   `json:"name"`
	Similarity float64  `json:"similarity"`
	Shared     []string `json:"shared_terms"`
}

// Query returns the indexed skills whose similarity to s is at least
// threshold, most similar first (ties by name). A skill of the same name
// as s is left out: it is s itself, not a duplicate of it. Cost: the
// posting lists of s's terms, never the whole library.
func (ix *Index) Query(s Skill, threshold float64) []Match {
	v := ix.queryVector(s)
	self, hasSelf := ix.byName[s.Name]
	acc := map[int32]float64{}
	for _, e := range v {
		for _, p := range ix.postings[e.term] {
			acc[p.doc] += float64(e.w) * float64(p.w)
		}
	}
	var out []Match
	for d, sim := range acc {
		if hasSelf && int(d) == self {
			continue
		}
		if sim >= threshold {
			out = append(out, Match{Name: ix.skills[d].Name, Similarity: round(sim), Shared: ix.shared(v, ix.vecs[d])})
		}
	}
	sortMatches(out)
	return out
}

// Pair is two indexed skills at or above the threshold.
type Pair struct {
	A          string   `json:"a"`
	B          string   `json:"b"`
	Similarity float64  `json:"similarity"`
	Shared     []string `json:"shared_terms"`
	// Prefix is the name prefix the two share when that, with a
	// similarity below the threshold, is what links them.
	Prefix string `json:"prefix,omitempty"`
}

// Pairs returns every pair of indexed skills whose similarity is at least
// threshold, in index order (A before B). It walks each skill's posting
// lists once with a dense accumulator: the work is the sum over terms of
// the squared posting length, which the df ceiling bounds.
func (ix *Index) Pairs(threshold float64) []Pair {
	n := len(ix.skills)
	acc := make([]float32, n)
	touched := make([]int32, 0, 256)
	// Postings are in skill order and skill i holds each of its terms:
	// cursor[t] counts the postings of t already passed, so the skills
	// after i start right after it.
	cursor := make([]int32, len(ix.postings))
	var out []Pair
	for i := 0; i < n; i++ {
		for _, e := range ix.vecs[i] {
			cursor[e.term]++
			for _, p := range ix.postings[e.term][cursor[e.term]:] {
				if acc[p.doc] == 0 {
					touched = append(touched, p.doc)
				}
				acc[p.doc] += e.w * p.w
			}
		}
		for _, j := range touched {
			if sim := float64(acc[j]); sim >= threshold {
				out = append(out, Pair{A: ix.skills[i].Name, B: ix.skills[j].Name, Similarity: round(sim), Shared: ix.shared(ix.vecs[i], ix.vecs[j])})
			}
			acc[j] = 0
		}
		touched = touched[:0]
	}
	slices.SortFunc(out, func(a, b Pair) int {
		ia, ib := ix.byName[a.A], ix.byName[b.A]
		if ia != ib {
			return ia - ib
		}
		return ix.byName[a.B] - ix.byName[b.B]
	})
	return out
}

// Similarity is the cosine similarity of two indexed skills (0 when
// either is unknown).
func (ix *Index) Similarity(a, b string) float64 {
	i, ok1 := ix.byName[a]
	j, ok2 := ix.byName[b]
	if !ok1 || !ok2 {
		return 0
	}
	return round(dot(ix.vecs[i], ix.vecs[j]))
}

func dot(a, b []entry) float64 {
	var s float64
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].term < b[j].term:
			i++
		case a[i].term > b[j].term:
			j++
		default:
			s += float64(a[i].w) * float64(b[j].w)
			i++
			j++
		}
	}
	return s
}

// sharedTerms is how many shared terms a pair's evidence names.
const sharedTerms = 5

// shared names the terms that contribute most to two vectors' similarity.
func (ix *Index) shared(a, b []entry) []string {
	var ts []sharedTerm
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].term < b[j].term:
			i++
		case a[i].term > b[j].term:
			j++
		default:
			ts = append(ts, sharedTerm{ix.names[a[i].term], a[i].w * b[j].w})
			i++
			j++
		}
	}
	return topShared(ts)
}

// round keeps three decimals: similarities are evidence for a person, and
// float noise in the last bits must not reorder equal pairs.
func round(x float64) float64 { return math.Round(x*1000) / 1000 }
