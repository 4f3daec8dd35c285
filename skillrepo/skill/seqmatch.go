package skill

import "sort"

// The reference's fuzzy patch matching scores lines with Python's
// difflib.SequenceMatcher(None, a, b) over characters, and keeps a file's
// typographic characters by walking that matcher's opcodes. Its matches
// are not a minimal diff: it takes the longest common block first and
// recurses on either side, and for a b of 200 characters or more it
// ignores every character that occurs in more than 1% of b ("autojunk")
// when it looks for blocks. A minimal diff (package diffmatchpatch, which
// the merge uses) keeps more characters, so it scores long lines higher
// and aligns some edits differently; the reference's outcomes
// (testdata/hermes-0.19.0-patch-matching.json) need this matcher's.

// seqMatch is one common block: a[a:a+size] == b[b:b+size].
type seqMatch struct{ a, b, size int }

// seqOp is one opcode: 'e'qual, 'r'eplace, 'd'elete or 'i'nsert turns
// a[i1:i2] into b[j1:j2].
type seqOp struct {
	tag            byte
	i1, i2, j1, j2 int
}

// seqMatcher compares a with b as the reference's SequenceMatcher does.
type seqMatcher struct {
	a, b []rune
	b2j  map[rune][]int // where each non-popular character occurs in b
}

func newSeqMatcher(a, b []rune) *seqMatcher {
	m := &seqMatcher{a: a, b: b, b2j: map[rune][]int{}}
	for j, r := range b {
		m.b2j[r] = append(m.b2j[r], j)
	}
	if n := len(b); n >= 200 {
		limit := n/100 + 1
		for r, js := range m.b2j {
			if len(js) > limit {
				delete(m.b2j, r)
			}
		}
	}
	return m
}

// longest finds the longest block of a[alo:ahi] and b[blo:bhi], the
// earliest in a and then in b among equals, extended over popular
// characters on both ends.
func (m *seqMatcher) longest(alo, ahi, blo, bhi int) seqMatch {
	best := seqMatch{alo, blo, 0}
	lens := map[int]int{} // block length ending at b[j] for the previous i
	for i := alo; i < ahi; i++ {
		next := map[int]int{}
		for _, j := range m.b2j[m.a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := lens[j-1] + 1
			next[j] = k
			if k > best.size {
				best = seqMatch{i - k + 1, j - k + 1, k}
			}
		}
		lens = next
	}
	for best.a > alo && best.b > blo && m.a[best.a-1] == m.b[best.b-1] {
		best = seqMatch{best.a - 1, best.b - 1, best.size + 1}
	}
	for best.a+best.size < ahi && best.b+best.size < bhi && m.a[best.a+best.size] == m.b[best.b+best.size] {
		best.size++
	}
	return best
}

// blocks lists the common blocks in order, adjacent ones joined, ending
// with the empty block {len(a), len(b), 0}.
func (m *seqMatcher) blocks() []seqMatch {
	var found []seqMatch
	queue := [][4]int{{0, len(m.a), 0, len(m.b)}}
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		x := m.longest(q[0], q[1], q[2], q[3])
		if x.size == 0 {
			continue
		}
		found = append(found, x)
		if q[0] < x.a && q[2] < x.b {
			queue = append(queue, [4]int{q[0], x.a, q[2], x.b})
		}
		if x.a+x.size < q[1] && x.b+x.size < q[3] {
			queue = append(queue, [4]int{x.a + x.size, q[1], x.b + x.size, q[3]})
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].a < found[j].a })
	var out []seqMatch
	for _, x := range found {
		if n := len(out); n > 0 && out[n-1].a+out[n-1].size == x.a && out[n-1].b+out[n-1].size == x.b {
			out[n-1].size += x.size
			continue
		}
		out = append(out, x)
	}
	return append(out, seqMatch{len(m.a), len(m.b), 0})
}

// ratio is 2·M/T, M the characters in common blocks and T len(a)+len(b).
func (m *seqMatcher) ratio() float64 {
	total := len(m.a) + len(m.b)
	if total == 0 {
		return 1
	}
	kept := 0
	for _, x := range m.blocks() {
		kept += x.size
	}
	return 2 * float64(kept) / float64(total)
}

// opcodes turns the blocks into the edits from a to b.
func (m *seqMatcher) opcodes() []seqOp {
	var out []seqOp
	i, j := 0, 0
	for _, x := range m.blocks() {
		var tag byte
		switch {
		case i < x.a && j < x.b:
			tag = 'r'
		case i < x.a:
			tag = 'd'
		case j < x.b:
			tag = 'i'
		}
		if tag != 0 {
			out = append(out, seqOp{tag, i, x.a, j, x.b})
		}
		i, j = x.a+x.size, x.b+x.size
		if x.size > 0 {
			out = append(out, seqOp{'e', x.a, i, x.b, j})
		}
	}
	return out
}
