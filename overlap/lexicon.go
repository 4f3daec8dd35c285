package overlap

// lexicon maps words as written to term ids. It is a small open-addressing
// hash table keyed by the FNV-1a hash the tokenizer computes while it
// reads each word, so a word costs one probe and no hashing pass of its
// own: at 10,000 skills a library has a few million words, and this lookup
// is most of tokenising them.
//
// The 64-bit hash is the word's identity: two of a library's hundred
// thousand distinct words share a hash with a probability near 1e-10, and
// if they did, two words would count as one term, which moves a
// similarity by a hair and stays deterministic.
type lexicon struct {
	slots []lexSlot
	n     int
}

type lexSlot struct {
	hash uint64
	id   int32
	used bool
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func newLexicon() *lexicon { return &lexicon{slots: make([]lexSlot, 1<<12)} }

// get returns the id of the word with hash h, ok false when unknown.
func (l *lexicon) get(h uint64) (int32, bool) {
	mask := uint64(len(l.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &l.slots[i]
		if !s.used {
			return 0, false
		}
		if s.hash == h {
			return s.id, true
		}
	}
}

// put records the word with hash h as id; it must not be in the table.
func (l *lexicon) put(h uint64, id int32) {
	if (l.n+1)*4 > len(l.slots)*3 {
		old := l.slots
		l.slots = make([]lexSlot, len(old)*2)
		for _, s := range old {
			if s.used {
				l.insert(s)
			}
		}
	}
	l.insert(lexSlot{hash: h, id: id, used: true})
	l.n++
}

func (l *lexicon) insert(s lexSlot) {
	mask := uint64(len(l.slots) - 1)
	i := s.hash & mask
	for l.slots[i].used {
		i = (i + 1) & mask
	}
	l.slots[i] = s
}
