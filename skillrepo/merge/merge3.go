package merge

import (
	"bytes"
	"fmt"
)

// MarkerSize is the length of git's conflict markers ("<<<<<<<").
const MarkerSize = 7

// Labels name the three sides on the conflict marker lines, as
// `git merge-file -L ours -L base -L theirs` does. An empty label leaves the
// marker bare.
type Labels struct {
	Ours, Base, Theirs string
}

// Span is a half-open range [Start, End) of zero-based line numbers.
type Span struct {
	Start, End int
}

// Conflict is one region that both sides changed differently.
type Conflict struct {
	// Base, Ours and Theirs are the region's lines in each input.
	Base, Ours, Theirs Span
	// Line is the one-based line of the "<<<<<<<" marker in the merged text.
	Line int
}

// Result is the outcome of a three-way line merge.
type Result struct {
	// Merged is the merged text; with conflicts it carries git-style diff3
	// markers around each conflicting region.
	Merged []byte
	// Conflicts lists the conflicting regions in order; empty when Clean.
	Conflicts []Conflict
	// Clean reports a merge without conflicts.
	Clean bool
}

// Merge3Labels merges the changes that ours and theirs made to base,
// marking conflicts with labels. It errs only when the inputs hold more
// than about a million distinct lines.
func Merge3Labels(base, ours, theirs []byte, labels Labels) (Result, error) {
	t := tokenizer{ids: make(map[string]rune)}
	m := merger{
		base:   splitLines(base),
		ours:   splitLines(ours),
		theirs: splitLines(theirs),
		labels: labels,
	}
	baseTok, err := t.tokens(m.base)
	if err != nil {
		return Result{}, fmt.Errorf("merge: %w", err)
	}
	oursTok, err := t.tokens(m.ours)
	if err != nil {
		return Result{}, fmt.Errorf("merge: %w", err)
	}
	theirsTok, err := t.tokens(m.theirs)
	if err != nil {
		return Result{}, fmt.Errorf("merge: %w", err)
	}
	oursHunks := diffHunks(baseTok, oursTok)
	theirsHunks := diffHunks(baseTok, theirsTok)
	// As git does: when one side changed nothing, the result is the other
	// side byte for byte.
	if len(oursHunks) == 0 {
		return Result{Merged: clone(theirs), Clean: true}, nil
	}
	if len(theirsHunks) == 0 {
		return Result{Merged: clone(ours), Clean: true}, nil
	}
	m.merge(oursHunks, theirsHunks, oursTok, theirsTok)
	return Result{Merged: m.out.Bytes(), Conflicts: m.conflicts, Clean: len(m.conflicts) == 0}, nil
}

func clone(b []byte) []byte {
	return append([]byte{}, b...)
}

// side tags a hunk with the input it came from.
type side int

const (
	sideOurs side = iota
	sideTheirs
)

type sidedHunk struct {
	hunk
	side side
}

// merger holds one merge's inputs and output.
type merger struct {
	base, ours, theirs [][]byte
	labels             Labels
	out                bytes.Buffer
	lines              int // lines written to out so far
	conflicts          []Conflict
}

// merge walks both sides' hunks in base order and groups the ones that
// overlap or touch (git treats a change right next to the other side's
// change as a conflict too). A group of one hunk is taken as is; a group
// of the same change on both sides is taken once; anything else is a
// conflict spanning the group.
func (m *merger) merge(oursHunks, theirsHunks []hunk, oursTok, theirsTok []rune) {
	all := mergeByBase(oursHunks, theirsHunks)
	basePos := 0
	delta := [2]int{} // side line minus base line before the current group
	for i := 0; i < len(all); {
		g := []sidedHunk{all[i]}
		end := all[i].baseEnd
		for i++; i < len(all) && all[i].baseStart <= end; i++ {
			g = append(g, all[i])
			end = max(end, all[i].baseEnd)
		}
		start := g[0].baseStart
		// Unchanged lines are equal in all three inputs: copy them from ours.
		m.write(m.ours[basePos+delta[sideOurs] : start+delta[sideOurs]])
		basePos = end

		oursSpan := Span{start + delta[sideOurs], end + delta[sideOurs]}
		theirsSpan := Span{start + delta[sideTheirs], end + delta[sideTheirs]}
		for _, h := range g {
			d := (h.sideEnd - h.sideStart) - (h.baseEnd - h.baseStart)
			delta[h.side] += d
			if h.side == sideOurs {
				oursSpan.End += d
			} else {
				theirsSpan.End += d
			}
		}
		switch {
		case len(g) == 1 && g[0].side == sideOurs:
			m.write(m.ours[oursSpan.Start:oursSpan.End])
		case len(g) == 1:
			m.write(m.theirs[theirsSpan.Start:theirsSpan.End])
		case len(g) == 2 && sameChange(g[0], g[1], oursTok, theirsTok):
			m.write(m.ours[oursSpan.Start:oursSpan.End])
		default:
			m.conflict(Span{start, end}, oursSpan, theirsSpan)
		}
	}
	m.write(m.ours[basePos+delta[sideOurs]:])
}

// mergeByBase interleaves the two hunk lists by base start.
func mergeByBase(a, b []hunk) []sidedHunk {
	out := make([]sidedHunk, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j == len(b) || (i < len(a) && a[i].baseStart <= b[j].baseStart) {
			out = append(out, sidedHunk{a[i], sideOurs})
			i++
		} else {
			out = append(out, sidedHunk{b[j], sideTheirs})
			j++
		}
	}
	return out
}

// sameChange reports whether two hunks of different sides replace the same
// base lines with the same lines.
func sameChange(a, b sidedHunk, oursTok, theirsTok []rune) bool {
	if a.side == b.side || a.baseStart != b.baseStart || a.baseEnd != b.baseEnd {
		return false
	}
	if a.side == sideTheirs {
		a, b = b, a
	}
	x := oursTok[a.sideStart:a.sideEnd]
	y := theirsTok[b.sideStart:b.sideEnd]
	if len(x) != len(y) {
		return false
	}
	for k := range x {
		if x[k] != y[k] {
			return false
		}
	}
	return true
}

func (m *merger) write(lines [][]byte) {
	for _, l := range lines {
		m.out.Write(l)
	}
	m.lines += len(lines)
}

// writeSection writes a conflict section and ends it with a newline when its
// last line has none, so the next marker starts a line of its own.
func (m *merger) writeSection(lines [][]byte, eol string) {
	m.write(lines)
	if n := len(lines); n > 0 && !bytes.HasSuffix(lines[n-1], []byte("\n")) {
		m.out.WriteString(eol)
	}
}

func (m *merger) marker(c byte, label, eol string) {
	m.out.Write(bytes.Repeat([]byte{c}, MarkerSize))
	if label != "" {
		m.out.WriteByte(' ')
		m.out.WriteString(label)
	}
	m.out.WriteString(eol)
	m.lines++
}

func (m *merger) conflict(base, ours, theirs Span) {
	eol := "\n"
	if m.crlfMarkers(ours.Start, theirs.Start) {
		eol = "\r\n"
	}
	m.conflicts = append(m.conflicts, Conflict{Base: base, Ours: ours, Theirs: theirs, Line: m.lines + 1})
	m.marker('<', m.labels.Ours, eol)
	m.writeSection(m.ours[ours.Start:ours.End], eol)
	m.marker('|', m.labels.Base, eol)
	m.writeSection(m.base[base.Start:base.End], eol)
	m.marker('=', "", eol)
	m.writeSection(m.theirs[theirs.Start:theirs.End], eol)
	m.marker('>', m.labels.Theirs, eol)
}

// crlfMarkers decides the marker line ending the way git does: CRLF only
// when the line before the conflict (or the first line) ends in CRLF in
// ours and in theirs, and the base's first line does too. A file whose
// style cannot be told (empty, or one line without a newline) does not
// vote.
func (m *merger) crlfMarkers(oursStart, theirsStart int) bool {
	vote := func(lines [][]byte, i int) int {
		if i > 0 {
			i--
		}
		if len(lines) == 0 {
			return -1
		}
		l := lines[i]
		if i == len(lines)-1 && !bytes.HasSuffix(l, []byte("\n")) {
			if i == 0 {
				return -1
			}
			l = lines[i-1]
		}
		if bytes.HasSuffix(l, []byte("\r\n")) {
			return 1
		}
		return 0
	}
	v := vote(m.ours, oursStart)
	if v != 0 {
		v = vote(m.theirs, theirsStart)
	}
	if v != 0 {
		v = vote(m.base, 0)
	}
	return v > 0
}
