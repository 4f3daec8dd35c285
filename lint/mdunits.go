package lint

import (
	"bytes"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
)

// A Markdown file is parsed in units, so that the work and the memory
// stay proportional to its size. goldmark is linear on real Markdown, but
// crafted text makes it quadratic in the length of one line or one block
// (github.com/yuin/goldmark/issues/555, /592 and /593: deep block quote markers, unclosed
// "[a](" or "<!--" repeated), and its tree costs a few hundred bytes per
// byte parsed.
//
// A unit is at most mdWindow bytes of whole lines, parsed on its own. When
// more text follows, the unit ends where its last top-level block starts
// (that block is parsed again with the next unit), which is exactly where
// a parse of the whole file starts that block too. Only a top-level block
// longer than the window needs a cut inside it: code and HTML blocks,
// which goldmark parses in linear time, are given a window twice as large
// until they fit; a list is cut between its items; anything else (a
// paragraph, block quote or table of more than mdWindow bytes) is cut at a
// line start. A line is cut at maxScanLine bytes, and links past the cut
// are not looked for. A reference link is resolved within its unit, which
// loses nothing: definitions are reported where they are written.
const (
	mdWindow    = 32 << 10
	maxScanLine = 64 << 10
	// maxNesting bounds the block quotes and list items one line opens:
	// goldmark's work on a line grows with the square of its depth.
	maxNesting = 32
)

// scanUnit parses the unit of src that starts at start (at most o.window
// bytes unless a code or HTML block needs more), appends its references
// (offsets in src) to refs and returns where the next unit starts. buf
// holds the unit with its plain blocks blanked (see parsePlain).
func scanUnit(o mdScanOptions, src []byte, start int, refs []ref, buf *mdBuffers) (int, []ref) {
	for window := o.window; ; window *= 2 {
		end, next := unitEnd(src, start, window)
		s := &mdScan{src: limitNesting(src[start:end])}
		plain, doc := parsePlain(o, s.src, end == len(src), buf)
		keep := len(s.src)
		// A unit of one line (perhaps cut) is kept whole: there is
		// nowhere else to cut it.
		if nl := bytes.IndexByte(s.src, '\n'); end < len(src) && nl >= 0 && nl < len(s.src)-1 {
			split, grow := splitPoint(doc, s.src, plain.starts())
			if grow {
				continue
			}
			if split > 0 {
				keep, next = split, start+split
			}
		}
		_ = ast.Walk(doc, s.visit)
		for _, b := range plain.blocks {
			s.spans = append(s.spans, b.text)
		}
		for _, sp := range s.spans {
			s.appendMentions(sp)
		}
		for _, r := range s.refs {
			if r.off < keep {
				r.off += start
				refs = append(refs, r)
			}
		}
		return next, refs
	}
}

// unitEnd returns the end of the whole lines within window bytes from
// start, and where the text after them starts. A line longer than the
// window is cut at maxScanLine bytes (at a character boundary) and the
// rest of it skipped.
func unitEnd(src []byte, start, window int) (end, next int) {
	if start+window >= len(src) {
		return len(src), len(src)
	}
	if j := bytes.LastIndexByte(src[start:start+window], '\n'); j >= 0 {
		return start + j + 1, start + j + 1
	}
	next = len(src)
	if j := bytes.IndexByte(src[start:], '\n'); j >= 0 {
		next = start + j + 1
	}
	end = min(next, start+max(window, maxScanLine))
	for end < next && end > start && !utf8.RuneStart(src[end]) {
		end--
	}
	return end, next
}

// splitPoint returns where the unit's complete part ends (0 to keep it
// all), or grow when it is all code or HTML, which a larger window holds
// at linear cost. blanked are the starts of the top-level blocks goldmark
// was not shown (see mdplain.go), in order.
func splitPoint(doc ast.Node, unit []byte, blanked []int) (split int, grow bool) {
	first := doc.FirstChild()
	if at := lastTopStart(doc, unit, blanked); at > 0 || first == nil {
		return at, false
	}
	if _, ok := first.(*ast.List); ok && first.FirstChild() != nil {
		if at := lastStart(first.FirstChild().NextSibling(), unit); at > 0 {
			return at, false
		}
	}
	if at := cutLine(doc, unit); at > 0 {
		return at, false
	}
	return 0, true
}

// cutLine picks the line a block longer than the window is cut before:
// the last one outside code and HTML blocks that is no fence line, so
// the next unit does not take code for text or text for code, and
// preferably one indented less than code. 0 when every line is code or
// HTML.
func cutLine(doc ast.Node, unit []byte) int {
	var raw [][2]int // code and HTML blocks, in source order
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			if entering {
				stop := len(unit) // an open block runs to the end
				if l := n.Lines(); l.Len() > 0 && n.NextSibling() != nil {
					stop = l.At(l.Len() - 1).Stop
				}
				raw = append(raw, [2]int{max(blockPos(n), 0), stop})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	fallback := 0
	r := len(raw) - 1
	for end := len(unit) - 1; end > 0; {
		at := bytes.LastIndexByte(unit[:end], '\n') + 1
		if at == 0 {
			break
		}
		for r >= 0 && raw[r][0] > at {
			r--
		}
		line := unit[at:]
		body := bytes.TrimLeft(line, " \t")
		inCode := r >= 0 && at < raw[r][1]
		if !inCode && !bytes.HasPrefix(body, []byte("```")) && !bytes.HasPrefix(body, []byte("~~~")) {
			if len(line)-len(body) < 4 {
				return at
			}
			if fallback == 0 {
				fallback = at
			}
		}
		end = at - 1
	}
	return fallback
}

// lastTopStart is the start of the line on which the unit's last
// top-level block but the first begins (0 when none has a position): of
// goldmark's blocks and the blanked ones, whichever come first in the
// unit being the first.
func lastTopStart(doc ast.Node, unit []byte, blanked []int) int {
	first := doc.FirstChild()
	if len(blanked) == 0 {
		if first == nil {
			return 0
		}
		return lastStart(first.NextSibling(), unit)
	}
	if first != nil && !blankLine(unit[:blanked[0]]) {
		// Text before the first blanked block: goldmark's first block
		// comes first.
		first = first.NextSibling()
	} else {
		blanked = blanked[1:]
	}
	at := lastStart(first, unit)
	for _, pos := range blanked {
		if pos > 0 && pos <= len(unit) {
			at = max(at, bytes.LastIndexByte(unit[:pos], '\n')+1)
		}
	}
	return at
}

// lastStart is the start of the line on which the last of n and its
// following siblings begins (0 when none has a position).
func lastStart(n ast.Node, unit []byte) int {
	at := 0
	for ; n != nil; n = n.NextSibling() {
		if pos := blockPos(n); pos > 0 && pos <= len(unit) {
			at = max(at, bytes.LastIndexByte(unit[:pos], '\n')+1)
		}
	}
	return at
}

// blockPos is where a block starts; a footnote list (which goldmark
// places where its first footnote was) starts with its first footnote.
func blockPos(n ast.Node) int {
	if pos := n.Pos(); pos >= 0 || n.FirstChild() == nil {
		return pos
	}
	return blockPos(n.FirstChild())
}

// limitNesting returns unit with the block quote and list markers that
// open more than maxNesting containers on one line replaced by spaces (a
// copy, only when some line has them). Offsets do not change.
func limitNesting(unit []byte) []byte {
	out, copied := unit, false
	for k := 0; k < len(unit); {
		depth, j := 0, k
		for j < len(unit) {
			for j < len(unit) && (unit[j] == ' ' || unit[j] == '\t') {
				j++
			}
			n := markerLen(unit[j:])
			if n == 0 {
				break
			}
			depth++
			if depth > maxNesting {
				if !copied {
					out, copied = bytes.Clone(unit), true
				}
				for m := j; m < j+n; m++ {
					out[m] = ' '
				}
			}
			j += n
		}
		nl := bytes.IndexByte(unit[j:], '\n')
		if nl < 0 {
			break
		}
		k = j + nl + 1
	}
	return out
}

// markerLen is the length of the block quote or list marker b starts
// with (a list marker with the blank after it), or 0.
func markerLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	blank := func(k int) bool { return k >= len(b) || b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r' }
	switch c := b[0]; {
	case c == '>':
		return 1
	case c == '-' || c == '*' || c == '+':
		if blank(1) {
			return 1
		}
	case c >= '0' && c <= '9':
		k := 1
		for k < len(b) && k < 9 && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		if k < len(b) && (b[k] == '.' || b[k] == ')') && blank(k+1) {
			return k + 1
		}
	}
	return 0
}
