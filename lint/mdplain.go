package lint

import (
	"bytes"
	"sort"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Most Markdown bytes in skills are prose, lists, tables and fenced code
// that hold no link: goldmark's block parse of them is most of lint's CPU
// (bench/README.md, "## lint"). A line scanner finds the top-level blocks
// that cannot hold a link, image, definition or HTML, and goldmark is
// handed the unit with those blocks blanked: the same bytes at the same
// offsets, so every offset goldmark reports is an offset in the original
// unit and the blocks it still parses (with their definitions) are parsed
// as one document, as before. The blanked blocks are searched for path
// mentions directly.
//
// A block is blanked only where the scanner is sure of CommonMark's block
// structure:
//   - it starts at a clean point: the unit's start or a line after a
//     blank line or after a blanked fenced code block, and the line starts
//     in column 0 with no space. Such a line closes every container (list
//     item, block quote, footnote) and every paragraph; only a verbatim
//     block (fenced code, or an HTML block of types 1 to 5) can still be
//     open there, and a verbatim block open across a blanked region shows
//     in goldmark's parse of the blanked unit as a code or HTML block
//     reaching into it ([plainRegions.spoiled]); the unit is then parsed
//     again unblanked;
//   - it is a fenced code block opened in column 0 and closed in the
//     unit, or a run of non-blank lines (a stanza) with no '[', '<', fence
//     marker, block quote, '\v', '\f' or lone '\r', in which no line can
//     be indented code (see plainStanza);
//   - the line after it that goldmark parses starts in column 0 with no
//     space, so containers opened before it, which goldmark sees spanning
//     the blank, close where they closed in the original; at the end of
//     a unit that text continues after, nothing is blanked, so the unit's
//     last top-level block, where the next unit starts, is goldmark's.
//
// TestCheapParserIsExact and FuzzPlainScanner check the result against
// goldmark's parse of the unblanked text.

// skipBlock is a top-level block the scanner blanks: its lines
// [start, stop) in the unit, and the text searched for mentions (a fenced
// block's content, as code).
type skipBlock struct {
	start, stop int // the block's lines
	text        span
}

// plainRegions is what the scanner found in one unit.
type plainRegions struct {
	blocks []skipBlock
	// parsed says some line is left to goldmark; when none is, goldmark
	// would see only blank lines and is not called.
	parsed bool
}

// findPlain scans unit for the top-level blocks goldmark need not parse.
// textEnd says the unit ends the text (nothing follows it).
//
// The blocks are appended to blocks[:0], a buffer reused between units.
func findPlain(unit []byte, textEnd bool, blocks []skipBlock) plainRegions {
	pr := plainRegions{blocks: blocks[:0]}
	clean := true // at a clean point, if the line starts in column 0
	for k := 0; k < len(unit); {
		end := lineEnd(unit, k)
		line := unit[k:end]
		if blankLine(line) {
			clean = true
			k = end
			continue
		}
		if !clean || line[0] == ' ' || line[0] == '\t' {
			pr.hardLine()
			clean = false
			k = end
			continue
		}
		if b, ok, open := fencedBlock(unit, k); ok {
			pr.blocks = append(pr.blocks, b)
			k = b.stop
			clean = true
			continue
		} else if open {
			// A fence that does not close here: the rest is its code.
			pr.hardLine()
			break
		}
		stop := stanzaEnd(unit, k)
		if plainStanza(unit[k:stop]) {
			pr.blocks = append(pr.blocks, skipBlock{start: k, stop: stop, text: span{k, stop, false}})
		} else {
			pr.hardLine()
		}
		k = stop
		clean = false
	}
	pr.settle(unit, textEnd)
	return pr
}

// hardLine marks that goldmark parses a line: a nil-length marker in the
// block list, so settle sees what follows each run of blanked blocks.
func (pr *plainRegions) hardLine() {
	pr.parsed = true
	if n := len(pr.blocks); n > 0 && pr.blocks[n-1].start < 0 {
		return
	}
	pr.blocks = append(pr.blocks, skipBlock{start: -1, stop: -1})
}

// settle drops the blanked blocks that no parsed column-0 line follows:
// the last of a run followed by an indented parsed line (which would
// continue a container opened before the run), and a run at the end of a
// unit that text continues after. A dropped block starts in column 0, so
// the block before it is then followed as required.
func (pr *plainRegions) settle(unit []byte, textEnd bool) {
	w := 0 // blocks kept so far, compacted in place
	keep := func(run []skipBlock) {
		if len(run) == 0 {
			return
		}
		// next is the offset of the parsed line after the run, or -1.
		next := nextNonBlank(unit, run[len(run)-1].stop)
		if next >= len(unit) {
			next = -1
		}
		for len(run) > 0 {
			if next < 0 && textEnd {
				break
			}
			if next >= 0 && unit[next] != ' ' && unit[next] != '\t' {
				break
			}
			next = run[len(run)-1].start
			run = run[:len(run)-1]
			pr.parsed = true
		}
		w += copy(pr.blocks[w:], run)
	}
	from := 0
	for k, b := range pr.blocks {
		if b.start < 0 {
			keep(pr.blocks[from:k])
			from = k + 1
		}
	}
	keep(pr.blocks[from:])
	pr.blocks = pr.blocks[:w]
}

// nextNonBlank is the start of the first non-blank line at or after k,
// or len(unit).
func nextNonBlank(unit []byte, k int) int {
	for k < len(unit) {
		end := lineEnd(unit, k)
		if !blankLine(unit[k:end]) {
			return k
		}
		k = end
	}
	return len(unit)
}

// lineEnd is the offset after the line starting at k (after its '\n').
func lineEnd(b []byte, k int) int {
	if j := bytes.IndexByte(b[k:], '\n'); j >= 0 {
		return k + j + 1
	}
	return len(b)
}

// blankLine reports a line of only spaces, tabs and line endings: blank
// to goldmark too (util.IsBlank also counts '\v').
func blankLine(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// stanzaEnd is the end of the run of non-blank lines starting at k.
func stanzaEnd(b []byte, k int) int {
	for k < len(b) {
		end := lineEnd(b, k)
		if blankLine(b[k:end]) {
			return k
		}
		k = end
	}
	return len(b)
}

// fencedBlock reads the fenced code block opened by the line at k, in
// column 0, when it closes in the unit (goldmark's fencedCodeBlockParser:
// three or more '`' or '~', a backtick fence's info has no '`'; it closes
// at a line indented less than four columns holding at least as many of
// the fence character and then only white space). open reports a fence
// that does not close in the unit.
func fencedBlock(unit []byte, k int) (b skipBlock, ok, open bool) {
	c := unit[k]
	if c != '`' && c != '~' {
		return skipBlock{}, false, false
	}
	body := lineEnd(unit, k)
	n := 0
	for k+n < body && unit[k+n] == c {
		n++
	}
	if n < 3 || c == '`' && bytes.IndexByte(unit[k+n:body], '`') >= 0 {
		return skipBlock{}, false, false
	}
	for j := body; j < len(unit); {
		end := lineEnd(unit, j)
		if closesFence(unit[j:end], c, n) {
			return skipBlock{start: k, stop: end, text: span{body, j, true}}, true, false
		}
		j = end
	}
	return skipBlock{}, false, true
}

// closesFence reports whether line closes a fence of n characters c.
func closesFence(line []byte, c byte, n int) bool {
	w, i := 0, 0
	for ; i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
		if line[i] == '\t' {
			w += 4 - w%4
		} else {
			w++
		}
	}
	if w >= 4 {
		return false
	}
	j := i
	for j < len(line) && line[j] == c {
		j++
	}
	if j-i < n {
		return false
	}
	for ; j < len(line); j++ {
		if !isGoldmarkSpace(line[j]) {
			return false
		}
	}
	return true
}

// isGoldmarkSpace is goldmark's util.IsSpace: '\t', '\n', '\v', '\r', ' '.
func isGoldmarkSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v'
}

// plainStanza reports whether a run of non-blank lines starting in column
// 0 at a clean point is blocks with no link and no code: paragraphs,
// headings, thematic breaks and lists of such. It holds no '[' or '<'
// (links, images, definitions, footnotes, autolinks, HTML), no fence
// marker, no block quote, no '\v' or '\f' (blank to goldmark, or not
// white space to CommonMark) and no '\r' but before '\n'. A line is
// indented code only where no paragraph continues: an indented line
// (four columns or more) must follow a line of paragraph text, and a
// list item's text must not start four columns past its marker.
func plainStanza(st []byte) bool {
	for _, c := range []byte("[<\v\f") {
		if bytes.IndexByte(st, c) >= 0 {
			return false
		}
	}
	if hasRun3(st, '`') || hasRun3(st, '~') {
		return false
	}
	prevText := false
	for k := 0; k < len(st); {
		end := lineEnd(st, k)
		line := st[k:end]
		if r := bytes.IndexByte(line, '\r'); r >= 0 && (r+1 >= len(line) || line[r+1] != '\n') {
			return false
		}
		indent, rest, ok := stripMarkers(line)
		if !ok || indent >= 4 && !prevText || len(rest) > 0 && rest[0] == '>' {
			return false
		}
		prevText = paragraphText(line, rest)
		k = end
	}
	return true
}

// hasRun3 reports whether b holds three c in a row (a fence marker).
// It looks for c alone first, which vectorises where bytes.Index of
// three bytes does not.
func hasRun3(b []byte, c byte) bool {
	for k := 0; ; {
		j := bytes.IndexByte(b[k:], c)
		if j < 0 {
			return false
		}
		k += j
		if k+2 < len(b) && b[k+1] == c && b[k+2] == c {
			return true
		}
		k++
	}
}

// stripMarkers returns the indentation of a line (in columns, a tab
// counted as four) and its text after any list markers; ok is false when
// text starts four or more columns after a marker (indented code in a
// list item).
func stripMarkers(line []byte) (indent int, rest []byte, ok bool) {
	w, i := leadingColumns(line)
	indent, rest = w, line[i:]
	for {
		n := listMarkerLen(rest)
		if n == 0 {
			return indent, rest, true
		}
		w, i := leadingColumns(rest[n:])
		rest = rest[n+i:]
		if w >= 5 && !blankLine(rest) {
			return indent, rest, false
		}
	}
}

// leadingColumns is the width of b's leading spaces and tabs (a tab
// counted as four, at most what it spans) and their length in bytes.
func leadingColumns(b []byte) (w, n int) {
	for n < len(b) && (b[n] == ' ' || b[n] == '\t') {
		if b[n] == '\t' {
			w += 4
		} else {
			w++
		}
		n++
	}
	return w, n
}

// listMarkerLen is the length of the bullet or ordered list marker b
// starts with, when a space, tab or line end follows it; else 0.
func listMarkerLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	n := 0
	switch c := b[0]; {
	case c == '-' || c == '*' || c == '+':
		n = 1
	case c >= '0' && c <= '9':
		for n < len(b) && n < 9 && b[n] >= '0' && b[n] <= '9' {
			n++
		}
		if n >= len(b) || b[n] != '.' && b[n] != ')' {
			return 0
		}
		n++
	default:
		return 0
	}
	if n < len(b) && b[n] != ' ' && b[n] != '\t' && b[n] != '\n' && b[n] != '\r' {
		return 0
	}
	return n
}

// paragraphText reports whether a line is text a following indented line
// continues: not an empty list item, ATX heading, thematic break or
// setext underline, after which an indented line is code.
func paragraphText(line, rest []byte) bool {
	if blankLine(rest) || rest[0] == '#' {
		return false
	}
	for _, c := range line {
		switch c {
		case '-', '*', '_', '=', '+', ' ', '\t', '\r', '\n':
		default:
			return true
		}
	}
	return false
}

// blanked returns unit with the blocks replaced by white space: each
// block's bytes become spaces ending in a line break, one blank line.
func (pr plainRegions) blanked(unit, buf []byte) []byte {
	out := append(buf[:0], unit...)
	for _, b := range pr.blocks {
		for k := b.start; k < b.stop; k++ {
			out[k] = ' '
		}
		if b.stop > b.start && unit[b.stop-1] == '\n' {
			out[b.stop-1] = '\n'
		}
	}
	return out
}

// spoiled reports whether goldmark's parse of the blanked unit has a code
// or HTML block reaching into a blanked block: a verbatim block was open
// where the scanner assumed a clean point.
func (pr plainRegions) spoiled(doc ast.Node) bool {
	if len(pr.blocks) == 0 {
		return false
	}
	bad := false
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if bad {
			return ast.WalkStop, nil
		}
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			l := n.Lines()
			for k := 0; k < l.Len(); k++ {
				if pr.inBlock(l.At(k).Start) {
					bad = true
				}
			}
			if h, ok := n.(*ast.HTMLBlock); ok && h.HasClosure() && pr.inBlock(h.ClosureLine.Start) {
				bad = true
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return bad
}

// inBlock reports whether offset k lies in a blanked block.
func (pr plainRegions) inBlock(k int) bool {
	i := sort.Search(len(pr.blocks), func(i int) bool { return pr.blocks[i].stop > k })
	return i < len(pr.blocks) && pr.blocks[i].start <= k
}

// starts are the offsets of the blanked blocks, in order.
func (pr plainRegions) starts() []int {
	if len(pr.blocks) == 0 {
		return nil
	}
	out := make([]int, len(pr.blocks))
	for k, b := range pr.blocks {
		out[k] = b.start
	}
	return out
}

// parsePlain parses unit with its plain blocks blanked into buf, or
// whole when o.plain is false or the scanner's assumptions do not hold
// (see spoiled). textEnd says no text follows the unit. The tree may
// point into buf (link destinations): it must not be reused while the
// tree is read.
//
// When the unit defines no link reference or footnote (no "]:"), the
// parts between blanked blocks share nothing goldmark keeps between
// blocks, and each is parsed on its own, so that goldmark does not walk
// over the blanked bytes; their blocks are then gathered in one document.
func parsePlain(o mdScanOptions, unit []byte, textEnd bool, buf *mdBuffers) (plainRegions, ast.Node) {
	var pr plainRegions
	if o.plain {
		pr = findPlain(unit, textEnd, buf.blocks)
		buf.blocks = pr.blocks
	}
	if len(pr.blocks) == 0 {
		return pr, o.p.Parse(text.NewReader(unit))
	}
	if !pr.parsed {
		return pr, ast.NewDocument()
	}
	buf.blanked = pr.blanked(unit, buf.blanked)
	if bytes.Contains(unit, []byte("]:")) {
		doc := o.p.Parse(text.NewReader(buf.blanked))
		if pr.spoiled(doc) {
			return plainRegions{}, o.p.Parse(text.NewReader(unit))
		}
		return pr, doc
	}
	doc := ast.NewDocument()
	for _, part := range pr.parsedParts(unit) {
		d := o.p.Parse(readerAt(buf.blanked[:part.stop], part.start))
		if part.stop < len(unit) && openAtEnd(d, trailingBlank(unit, part.start, part.stop)) {
			return plainRegions{}, o.p.Parse(text.NewReader(unit))
		}
		for c := d.FirstChild(); c != nil; c = d.FirstChild() {
			doc.AppendChild(doc, c)
		}
	}
	return pr, doc
}

// readerAt reads src from offset start, a line start: the offsets
// goldmark reports stay offsets in src.
func readerAt(src []byte, start int) text.Reader {
	r := text.NewReader(src)
	if start > 0 {
		r.SetPosition(0, text.NewSegment(start, start))
		r.AdvanceLine()
	}
	return r
}

// parsedParts are the spans of the unit between blanked blocks that hold
// more than blank lines.
func (pr plainRegions) parsedParts(unit []byte) []span {
	var parts []span
	at := 0
	for _, b := range pr.blocks {
		if !blankLine(unit[at:b.start]) {
			parts = append(parts, span{start: at, stop: b.start})
		}
		at = b.stop
	}
	if !blankLine(unit[at:]) {
		parts = append(parts, span{start: at, stop: len(unit)})
	}
	return parts
}

// trailingBlank is where the blank lines ending unit[start:stop] start.
func trailingBlank(unit []byte, start, stop int) int {
	for stop > start {
		ls := start
		if j := bytes.LastIndexByte(unit[start:stop-1], '\n'); j >= 0 {
			ls = start + j + 1
		}
		if !blankLine(unit[ls:stop]) {
			return stop
		}
		stop = ls
	}
	return stop
}

// openAtEnd reports whether a part's parse has a code or HTML block with
// a line in the blank lines the part ends with (from tail): a verbatim
// block still open where the next blanked block starts, which would run
// into it in one parse of the whole unit.
func openAtEnd(doc ast.Node, tail int) bool {
	open := false
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if open {
			return ast.WalkStop, nil
		}
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			if l := n.Lines(); l.Len() > 0 && l.At(l.Len()-1).Stop > tail {
				open = true
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return open
}

// mdBuffers are what scanning one text reuses from unit to unit: the
// blanked copy of a unit and the scanner's block list.
type mdBuffers struct {
	blanked []byte
	blocks  []skipBlock
}

// blankBuffers hold the buffers of texts being scanned, one per text.
var blankBuffers = sync.Pool{New: func() any { return new(mdBuffers) }}
