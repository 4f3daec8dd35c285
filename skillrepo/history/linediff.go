package history

// Line diffs for skill blame: a Myers diff over whole lines (sergi/go-diff
// on lines encoded as runes, no time limit, so the result is
// deterministic), reduced to runs of equal, deleted and inserted lines:
// blame needs which line of one version is which line of the other,
// which the merge package's unified diff (used by skill log --patch) does
// not expose.

import (
	"strings"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// lineOp is a run of n lines that are equal in both texts ('='), only in
// the old one ('-') or only in the new one ('+').
type lineOp struct {
	kind byte
	n    int
}

// splitLines splits text into lines, each keeping its "\n" (the last line
// may lack one). An empty text has no lines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines returns the edit script turning a into b. The common head
// and tail are matched first (a revision usually changes a few lines of
// a long file), so only the middle goes through the diff.
func diffLines(a, b []string) []lineOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var ops []lineOp
	add := func(k byte, n int) {
		if n == 0 {
			return
		}
		if len(ops) > 0 && ops[len(ops)-1].kind == k {
			ops[len(ops)-1].n += n
			return
		}
		ops = append(ops, lineOp{k, n})
	}
	add('=', head)
	for _, op := range diffMiddle(a[head:len(a)-tail], b[head:len(b)-tail]) {
		add(op.kind, op.n)
	}
	add('=', tail)
	return ops
}

// diffMiddle is the Myers diff of two line lists.
func diffMiddle(a, b []string) []lineOp {
	switch {
	case len(a) == 0 && len(b) == 0:
		return nil
	case len(a) == 0:
		return []lineOp{{'+', len(b)}}
	case len(b) == 0:
		return []lineOp{{'-', len(a)}}
	}
	ids := make(map[string]rune, len(a)+len(b))
	encode := func(lines []string) []rune {
		out := make([]rune, len(lines))
		for i, l := range lines {
			r, ok := ids[l]
			if !ok {
				r = lineRune(len(ids))
				ids[l] = r
			}
			out[i] = r
		}
		return out
	}
	ra, rb := encode(a), encode(b)
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	var ops []lineOp
	for _, d := range dmp.DiffMainRunes(ra, rb, false) {
		n := utf8.RuneCountInString(d.Text)
		if n == 0 {
			continue
		}
		k := byte('=')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			k = '-'
		case diffmatchpatch.DiffInsert:
			k = '+'
		}
		if len(ops) > 0 && ops[len(ops)-1].kind == k {
			ops[len(ops)-1].n += n
			continue
		}
		ops = append(ops, lineOp{k, n})
	}
	return ops
}

// lineRune maps a line number to a rune that survives the string round
// trip inside go-diff: valid code points only, surrogates skipped.
func lineRune(i int) rune {
	r := rune(i + 1)
	if r >= 0xD800 {
		r += 0x800
	}
	return r
}
