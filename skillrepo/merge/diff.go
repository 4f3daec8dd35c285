package merge

import (
	"bytes"
	"errors"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// errTooManyLines is returned when the inputs hold more distinct lines than
// there are runes to name them: diff-match-patch's line mode diffs one rune
// per line.
var errTooManyLines = errors.New("too many distinct lines to diff")

// splitLines cuts b after every "\n". A last line without "\n" is kept as
// is, so the lines concatenate back to b exactly.
func splitLines(b []byte) [][]byte {
	var lines [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			lines = append(lines, b)
			break
		}
		lines = append(lines, b[:i+1])
		b = b[i+1:]
	}
	return lines
}

// tokenizer gives every distinct line one rune, shared by all the texts of a
// merge so that equal lines compare equal across base, ours and theirs.
type tokenizer struct {
	ids map[string]rune
}

// maxTokens is how many lines can be named: all runes minus the surrogate
// range, which a Go string cannot carry (string(rune) would turn those into
// U+FFFD and merge distinct lines).
const maxTokens = utf8.MaxRune + 1 - (0xE000 - 0xD800)

func (t *tokenizer) tokens(lines [][]byte) ([]rune, error) {
	out := make([]rune, len(lines))
	for i, l := range lines {
		id, ok := t.ids[string(l)]
		if !ok {
			n := len(t.ids)
			if n >= maxTokens {
				return nil, errTooManyLines
			}
			id = rune(n)
			if id >= 0xD800 {
				id += 0xE000 - 0xD800
			}
			t.ids[string(l)] = id
		}
		out[i] = id
	}
	return out, nil
}

// hunk is one change of a side against the base: base lines
// [baseStart, baseEnd) became side lines [sideStart, sideEnd). Either range
// may be empty (a pure insertion or deletion), not both.
type hunk struct {
	baseStart, baseEnd int
	sideStart, sideEnd int
}

// diffHunks returns the changes that turn base into side, in base order,
// with at least one unchanged base line between two hunks.
func diffHunks(base, side []rune) []hunk {
	changedBase, changedSide := changedLines(base, side)
	compact(base, changedBase, changedSide)
	compact(side, changedSide, changedBase)
	return buildHunks(changedBase, changedSide)
}

// changedLines runs the Myers line diff and marks the lines of each input
// that are not part of the common subsequence.
func changedLines(a, b []rune) (changedA, changedB []bool) {
	dmp := diffmatchpatch.New()
	// No deadline: with one, diff-match-patch takes a "half match" shortcut
	// that can return a non-minimal diff.
	dmp.DiffTimeout = 0
	changedA = make([]bool, len(a))
	changedB = make([]bool, len(b))
	i, j := 0, 0
	for _, d := range dmp.DiffMainRunes(a, b, false) {
		n := utf8.RuneCountInString(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			i += n
			j += n
		case diffmatchpatch.DiffDelete:
			for k := i; k < i+n; k++ {
				changedA[k] = true
			}
			i += n
		case diffmatchpatch.DiffInsert:
			for k := j; k < j+n; k++ {
				changedB[k] = true
			}
			j += n
		}
	}
	return changedA, changedB
}

// group is a run of changed lines [start, end) of one file, possibly empty.
// The unchanged lines of the two files pair up in order, so the k-th group
// of one file faces the k-th group of the other.
type group struct{ start, end int }

func firstGroup(changed []bool) group {
	g := group{}
	for g.end < len(changed) && changed[g.end] {
		g.end++
	}
	return g
}

// next moves to the group after g's following unchanged line; false at the
// end of the file.
func (g *group) next(changed []bool) bool {
	if g.end == len(changed) {
		return false
	}
	g.start = g.end + 1
	g.end = g.start
	for g.end < len(changed) && changed[g.end] {
		g.end++
	}
	return true
}

// prev moves to the group before g's preceding unchanged line; false at the
// start of the file.
func (g *group) prev(changed []bool) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	g.start = g.end
	for g.start > 0 && changed[g.start-1] {
		g.start--
	}
	return true
}

// slideDown moves the change one line down when the line after it equals its
// first line (the two placements give the same text), swallowing a change
// it then touches.
func (g *group) slideDown(lines []rune, changed []bool) bool {
	if g.end >= len(changed) || lines[g.start] != lines[g.end] {
		return false
	}
	changed[g.start] = false
	changed[g.end] = true
	g.start++
	g.end++
	for g.end < len(changed) && changed[g.end] {
		g.end++
	}
	return true
}

// slideUp is slideDown's mirror image.
func (g *group) slideUp(lines []rune, changed []bool) bool {
	if g.start == 0 || lines[g.start-1] != lines[g.end-1] {
		return false
	}
	g.start--
	g.end--
	changed[g.start] = true
	changed[g.end] = false
	for g.start > 0 && changed[g.start-1] {
		g.start--
	}
	return true
}

// compact normalises where ambiguous changes sit, as git's xdiff does
// before it merges: every change group of lines is slid as far down as the
// text allows, merging groups that meet, and then back up to the last place
// where it faces a change of the other file, so that a deletion and an
// insertion stay one replacement. Both placements describe the same edit;
// agreeing with git on the placement makes the merge verdicts agree.
func compact(lines []rune, changed, other []bool) {
	g := firstGroup(changed)
	og := firstGroup(other)
	for {
		if g.end > g.start {
			var earliestEnd, endMatchingOther int
			for {
				size := g.end - g.start
				endMatchingOther = -1
				for g.slideUp(lines, changed) {
					og.prev(other)
				}
				earliestEnd = g.end
				if og.end > og.start {
					endMatchingOther = g.end
				}
				for g.slideDown(lines, changed) {
					og.next(other)
					if og.end > og.start {
						endMatchingOther = g.end
					}
				}
				if size == g.end-g.start {
					break
				}
			}
			if g.end != earliestEnd && endMatchingOther != -1 {
				for og.end == og.start {
					g.slideUp(lines, changed)
					og.prev(other)
				}
			}
		}
		if !g.next(changed) {
			return
		}
		og.next(other)
	}
}

// buildHunks turns the change marks into hunks, walking the paired
// unchanged lines of both files.
func buildHunks(changedBase, changedSide []bool) []hunk {
	var hunks []hunk
	i, j := 0, 0
	for i < len(changedBase) || j < len(changedSide) {
		if (i < len(changedBase) && changedBase[i]) || (j < len(changedSide) && changedSide[j]) {
			h := hunk{baseStart: i, sideStart: j}
			for i < len(changedBase) && changedBase[i] {
				i++
			}
			for j < len(changedSide) && changedSide[j] {
				j++
			}
			h.baseEnd, h.sideEnd = i, j
			hunks = append(hunks, h)
			continue
		}
		i++
		j++
	}
	return hunks
}
