package skillrepo

// Line diffs for skill log --patch and skill blame: a Myers diff over whole
// lines (sergi/go-diff on lines encoded as runes, no time limit, so the
// result is deterministic) and a unified-diff writer in git's format.

import (
	"fmt"
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

// writeUnified writes the hunks of a unified diff of a and b with ctx lines
// of context, the way git diff prints them (including "\ No newline at end
// of file").
func writeUnified(b *strings.Builder, a, bl []string, ctx int) {
	ops := diffLines(a, bl)
	type line struct {
		kind byte
		text string
	}
	var all []line
	ia, ib := 0, 0
	for _, op := range ops {
		for k := 0; k < op.n; k++ {
			switch op.kind {
			case '=':
				all = append(all, line{' ', a[ia]})
				ia++
				ib++
			case '-':
				all = append(all, line{'-', a[ia]})
				ia++
			case '+':
				all = append(all, line{'+', bl[ib]})
				ib++
			}
		}
	}
	// Group changed lines into hunks with ctx lines around them.
	i := 0
	oldNo, newNo := 1, 1 // line numbers at all[i]
	for i < len(all) {
		if all[i].kind == ' ' {
			oldNo++
			newNo++
			i++
			continue
		}
		start := max(i-ctx, 0)
		oldStart, newStart := oldNo-(i-start), newNo-(i-start)
		end := i
		for j := i; j < len(all); j++ {
			if all[j].kind != ' ' {
				end = j
				continue
			}
			if j-end > 2*ctx {
				break
			}
		}
		stop := min(end+ctx+1, len(all))
		oldCount, newCount := 0, 0
		for _, ln := range all[start:stop] {
			if ln.kind != '+' {
				oldCount++
			}
			if ln.kind != '-' {
				newCount++
			}
		}
		fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(oldStart, oldCount), hunkRange(newStart, newCount))
		for _, ln := range all[start:stop] {
			b.WriteByte(ln.kind)
			b.WriteString(ln.text)
			if !strings.HasSuffix(ln.text, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
		for _, ln := range all[i:stop] {
			if ln.kind != '+' {
				oldNo++
			}
			if ln.kind != '-' {
				newNo++
			}
		}
		i = stop
	}
}

func hunkRange(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if count == 1 {
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}
