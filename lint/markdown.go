package lint

import (
	"bytes"
	"regexp"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// refKind says how a Markdown file refers to another file. The order is
// the order references on one line are reported in.
type refKind uint8

const (
	refDefinition refKind = iota // [label]: target
	refLink                      // [text](target)
	refImage                     // ![alt](target)
	refHTML                      // <a href="target">, <img src="target">
	refMention                   // references/x.md named in the text
)

// ref is one reference found in Markdown. Target is as written (angle
// brackets removed, not URL-decoded). Line and Col are 1-based; Col counts
// characters. InFence marks a mention inside a code block: it shows the
// file is used, but code is an example, so it is never reported dangling.
type ref struct {
	Target  string
	Line    int
	Col     int
	Kind    refKind
	InFence bool
	off     int // byte offset of Target in the text
}

// newMarkdownParser returns the parser skills are read with: CommonMark,
// plus footnote blocks so that a footnote's text is Markdown whose links
// are links and "[^1]: note" is not taken for a link definition. The
// footnote extension's tree transformer is left out: it drops footnotes
// nothing refers to, and their links are still the skill's links. goldmark
// keeps a document's state in a per-parse context, so one parser serves
// every worker.
//
// Two cuts make it cheaper without changing what is a link: the emphasis
// parser is left out (link brackets bind tighter than emphasis, and
// emphasis is parsed after a link is found, inside its text), and a
// paragraph with no '[' and no '<' is not parsed for inlines at all
// ([plainParagraphs]): without them it can hold no link, image,
// definition, autolink or HTML.
func newMarkdownParser() parser.Parser {
	inline := []util.PrioritizedValue{util.Prioritized(extension.NewFootnoteParser(), 101)}
	for _, v := range parser.DefaultInlineParsers() {
		if p, ok := v.Value.(parser.InlineParser); ok && bytes.ContainsAny(p.Trigger(), "*_") {
			continue // emphasis
		}
		inline = append(inline, v)
	}
	return parser.NewParser(
		parser.WithBlockParsers(append(parser.DefaultBlockParsers(), util.Prioritized(extension.NewFootnoteBlockParser(), 999))...),
		parser.WithInlineParsers(inline...),
		parser.WithParagraphTransformers(append(parser.DefaultParagraphTransformers(), util.Prioritized(plainParagraphs{}, 1000))...),
	)
}

// plainBlock stands for a paragraph that cannot hold a link: raw, so
// goldmark does not parse its inlines; its lines are still searched for
// path mentions.
type plainBlock struct {
	ast.BaseBlock
}

var kindPlainBlock = ast.NewNodeKind("PlainBlock")

func (n *plainBlock) Kind() ast.NodeKind { return kindPlainBlock }
func (n *plainBlock) IsRaw() bool        { return true }
func (n *plainBlock) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, nil, nil)
}

// Pos is where the paragraph started, as [ast.Paragraph] says it.
func (n *plainBlock) Pos() int {
	if n.Lines().Len() == 0 {
		return -1
	}
	return n.Lines().At(0).Start
}

// plainParagraphs replaces a closed paragraph with no '[' and no '<' in
// its lines by a [plainBlock]. It runs after the link reference
// definitions are taken out (which need '[').
type plainParagraphs struct{}

func (plainParagraphs) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	if next, _ := reader.PeekLine(); underlineLike(next) {
		// goldmark closes a paragraph that a setext underline turns into
		// a heading; replaced, it would stay a paragraph that the next
		// indented line continues, where it is code after a heading.
		return
	}
	lines := node.Lines()
	src := reader.Source()
	for k := 0; k < lines.Len(); k++ {
		seg := lines.At(k)
		if line := src[seg.Start:seg.Stop]; bytes.IndexByte(line, '[') >= 0 || bytes.IndexByte(line, '<') >= 0 {
			return
		}
	}
	pb := &plainBlock{}
	pb.SetLines(lines)
	pb.SetBlankPreviousLines(node.HasBlankPreviousLines())
	node.Parent().ReplaceChild(node.Parent(), node, pb)
}

// underlineLike reports a line that may be a setext heading underline:
// its first character that is not a space or tab is '=' or '-'.
func underlineLike(line []byte) bool {
	b := bytes.TrimLeft(line, " \t")
	return len(b) > 0 && (b[0] == '=' || b[0] == '-')
}

// scanMarkdownBytes finds the links, images, link definitions, HTML links
// and support-path mentions in Markdown text (which it only reads) whose
// first line is file line firstLine, in reading order (within a line: definitions, links and
// images, HTML, mentions).
//
// goldmark decides what is a link: links in code spans, code blocks
// (fenced or indented), HTML blocks and comments are not links, reference
// links are reported once, at their definition. goldmark gives node
// offsets but not where a destination is, so each destination is found in
// the source after the end of its link text (see locateLink). Mentions
// are looked for in the text of every block with link destinations and
// HTML comments blanked: inside inline code they are kept (agents write
// paths that way), inside code blocks they are kept with InFence set.
func scanMarkdownBytes(p parser.Parser, text []byte, firstLine int) []ref {
	return scanMarkdownWith(mdScanOptions{p: p, window: mdWindow, plain: true}, text, firstLine)
}

// mdScanOptions say how Markdown is scanned: with parser p, in units of
// window bytes, and with the blocks that cannot hold a link left to the
// plain scanner (mdplain.go) or, when plain is false, all parsed by
// goldmark (what the tests compare the plain scanner with).
type mdScanOptions struct {
	p      parser.Parser
	window int
	plain  bool
}

// scanMarkdownWith is scanMarkdownBytes with options, of src, which it only
// reads.
func scanMarkdownWith(o mdScanOptions, src []byte, firstLine int) []ref {
	var refs []ref
	buf := blankBuffers.Get().(*mdBuffers)
	for start := 0; start < len(src); {
		start, refs = scanUnit(o, src, start, refs, buf)
	}
	blankBuffers.Put(buf)
	positions(src, refs, firstLine)
	sort.SliceStable(refs, func(a, b int) bool {
		x, y := &refs[a], &refs[b]
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		if x.Kind != y.Kind {
			return kindOrder(x.Kind) < kindOrder(y.Kind)
		}
		return x.off < y.off
	})
	return refs
}

// kindOrder puts links and images in one group, as they are written.
func kindOrder(k refKind) refKind {
	if k == refImage {
		return refLink
	}
	return k
}

// mdScan is the state of one parse unit's scan; offsets are in src, the
// unit's text.
type mdScan struct {
	src []byte
	// mask is src with link destinations and HTML comments blanked (same
	// length), for the mention search; made on the first blank.
	mask  []byte
	spans []span
	refs  []ref
}

// span is a range of the source searched for mentions.
type span struct {
	start, stop int
	code        bool
}

func (s *mdScan) visit(n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	switch n := n.(type) {
	case *ast.Link:
		if n.Reference == nil {
			s.locateLink(n, n.Destination, refLink)
		}
	case *ast.Image:
		if n.Reference == nil {
			s.locateLink(n, n.Destination, refImage)
		}
	case *ast.LinkReferenceDefinition:
		s.definition(n)
		s.addLines(n, false)
	case *ast.RawHTML:
		if n.Segments.Len() > 0 {
			s.html(n.Segments.At(0).Start, n.Segments.At(n.Segments.Len()-1).Stop)
		}
	case *ast.HTMLBlock:
		if l := n.Lines(); l.Len() > 0 {
			stop := l.At(l.Len() - 1).Stop
			if n.HasClosure() {
				stop = n.ClosureLine.Stop
			}
			s.html(l.At(0).Start, stop)
		}
		s.addLines(n, false)
		if n.HasClosure() {
			s.spans = append(s.spans, span{n.ClosureLine.Start, n.ClosureLine.Stop, false})
		}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		s.addLines(n, true)
		return ast.WalkSkipChildren, nil
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading, *plainBlock:
		s.addLines(n, false)
	}
	return ast.WalkContinue, nil
}

// addLines adds a block's source lines to the mention search.
func (s *mdScan) addLines(n ast.Node, code bool) {
	l := n.Lines()
	for k := 0; k < l.Len(); k++ {
		seg := l.At(k)
		s.spans = append(s.spans, span{seg.Start, seg.Stop, code})
	}
}

// add records a reference whose target starts at byte off and blanks the
// target for the mention search, so a linked path is not also a mention.
func (s *mdScan) add(off int, target []byte, kind refKind) {
	s.refs = append(s.refs, ref{Target: string(target), Kind: kind, off: off})
	s.blank(off, off+len(target))
}

func (s *mdScan) blank(start, stop int) {
	if s.mask == nil {
		s.mask = bytes.Clone(s.src)
	}
	for k := start; k < stop && k < len(s.mask); k++ {
		if s.mask[k] != '\n' {
			s.mask[k] = ' '
		}
	}
}

// locateLink records an inline link or image. Its destination is the
// first occurrence of the destination's bytes after the "]" closing its
// text: goldmark's destination is the source text as written, and what
// lies between "](" and it (white space, one line break, block quote
// markers, "<") cannot spell a path. An empty destination is no file.
func (s *mdScan) locateLink(n ast.Node, dest []byte, kind refKind) {
	if len(dest) == 0 {
		return
	}
	off, ok := s.findDest(n, dest)
	if !ok {
		// Not in the source as written (goldmark expanded a tab): report
		// it where the link starts rather than lose it.
		s.refs = append(s.refs, ref{Target: string(dest), Kind: kind, off: max(n.Pos(), 0)})
		return
	}
	s.add(off, dest, kind)
}

// findDest finds the destination of link or image n in the source.
func (s *mdScan) findDest(n ast.Node, dest []byte) (int, bool) {
	from := s.textEnd(n)
	if k := bytes.IndexByte(s.src[from:], ']'); k >= 0 {
		from += k + 1
	}
	k := bytes.Index(s.src[from:], dest)
	if k < 0 {
		return 0, false
	}
	return from + k, true
}

// textEnd is where the text of a link or image ends in the source: after
// its last piece of text, or just after its "[" when the text is empty.
// The "]" ending the text is the first one after that.
func (s *mdScan) textEnd(n ast.Node) int {
	end := n.Pos() + 1
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		end = max(end, s.inlineEnd(c))
	}
	return min(max(end, 0), len(s.src))
}

// inlineEnd is the end in the source of inline node n and its children.
func (s *mdScan) inlineEnd(n ast.Node) int {
	end := n.Pos() + 1
	var dest []byte
	switch n := n.(type) {
	case *ast.Text:
		end = n.Segment.Stop
	case *ast.RawHTML:
		if n.Segments.Len() > 0 {
			end = n.Segments.At(n.Segments.Len() - 1).Stop
		}
	case *ast.Link:
		dest = n.Destination
	case *ast.Image:
		dest = n.Destination
	}
	if len(dest) > 0 {
		// An image in a link's text (or a link in an image's): the outer
		// text ends after the inner destination, which may contain "]".
		if off, ok := s.findDest(n, dest); ok {
			return off + len(dest)
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		end = max(end, s.inlineEnd(c))
	}
	return end
}

// definition records a link reference definition. Its destination is
// the first occurrence of the destination's bytes after the "]" ending
// the label (a label's own "]" must be escaped).
func (s *mdScan) definition(n *ast.LinkReferenceDefinition) {
	if len(n.Destination) == 0 || n.Pos() < 0 {
		return
	}
	k := n.Pos()
	for k < len(s.src) && s.src[k] != ']' {
		if s.src[k] == '\\' {
			k++
		}
		k++
	}
	if k >= len(s.src) {
		return
	}
	if j := bytes.Index(s.src[k:], n.Destination); j >= 0 {
		s.add(k+j, n.Destination, refDefinition)
	}
}

// htmlRE finds the URL attributes of the HTML elements that name files.
var htmlRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)<(?:a|img|link|source|script)\b[^>]*?\s(?:href|src)\s*=\s*("[^"]*"|'[^']*')`)
})

// html records the file links in raw HTML (an inline tag or an HTML
// block) at src[start:stop]; comments are blanked first, as they are no
// links and name no files.
func (s *mdScan) html(start, stop int) {
	if start < 0 || stop > len(s.src) || start >= stop {
		return
	}
	b := s.src[start:stop]
	if bytes.Contains(b, []byte("<!--")) {
		s.blankComments(start, stop)
		b = s.mask[start:stop]
	}
	if !bytes.Contains(b, []byte("=")) {
		return
	}
	for _, m := range htmlRE().FindAllSubmatchIndex(b, -1) {
		off := start + m[2] + 1
		s.add(off, s.src[off:start+m[3]-1], refHTML)
	}
}

// blankComments blanks the HTML comments in src[start:stop]; a comment
// left open runs to stop (goldmark ends the HTML block there).
func (s *mdScan) blankComments(start, stop int) {
	for k := start; k < stop; {
		open := bytes.Index(s.src[k:stop], []byte("<!--"))
		if open < 0 {
			return
		}
		open += k
		end := stop
		if c := bytes.Index(s.src[open+4:stop], []byte("-->")); c >= 0 {
			end = open + 4 + c + 3
		}
		s.blank(open, end)
		k = end
	}
}

// mentionRE matches a path under one of the support folders that starts a
// word: not preceded by a letter, digit, '.', '/', '-' or '$' (which
// would make it part of a longer path, a URL or a variable). A '_' before
// it is allowed for _italics_ and checked in appendMentions.
var mentionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("(?:^|[^A-Za-z0-9./$~-])((?:\\./)?(?:references|templates|scripts|assets)/[^\\s\"'`()<>\\[\\]{}|,;*?#\\\\]*)")
})

// appendMentions adds the support-path mentions in one span of text. A
// mention ends before a line suffix (scripts/ask.py:77-118, and
// file.md#L10 by the pattern); a '*' after it closes emphasis when one
// opens it (**templates/config.py**) and is a glob otherwise.
func (s *mdScan) appendMentions(sp span) {
	text := s.src
	if s.mask != nil {
		text = s.mask
	}
	if sp.start < 0 || sp.stop > len(text) || sp.start >= sp.stop {
		return
	}
	line := text[sp.start:sp.stop]
	if !bytes.Contains(line, []byte("s/")) {
		return
	}
	for _, m := range mentionRE().FindAllSubmatchIndex(line, -1) {
		start, end := m[2], m[3]
		var open byte
		if m[0] < start {
			open = line[m[0]]
		}
		if open == '_' && m[0] > 0 && isWordByte(line[m[0]-1]) {
			continue // part of a longer name: my_scripts/x
		}
		if end < len(line) {
			switch c := line[end]; {
			case c == '*' && open == '*':
				// the end of **bold** or *italics*
			case bytes.IndexByte([]byte("<{$*"), c) >= 0:
				continue // a template placeholder such as references/<name>.md, or a glob
			}
		}
		t := line[start:end]
		if k := bytes.IndexByte(t, ':'); k >= 0 {
			t = t[:k]
		}
		trim := ".:!"
		if open == '_' {
			trim += "_" // _italics_.
		}
		t = bytes.TrimRight(t, trim)
		if bytes.Contains(t, []byte("..")) || bytes.Contains(t, []byte("…")) {
			continue // "references/..." is an ellipsis, not a file
		}
		s.refs = append(s.refs, ref{Target: string(t), Kind: refMention, InFence: sp.code, off: sp.start + start})
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// positions sets every reference's line (counting from firstLine) and
// character column from its byte offset in src, in one pass.
func positions(src []byte, refs []ref, firstLine int) {
	sort.SliceStable(refs, func(a, b int) bool { return refs[a].off < refs[b].off })
	line, k, col := firstLine, 0, 1
	for i := range refs {
		off := min(refs[i].off, len(src))
		for {
			j := bytes.IndexByte(src[k:off], '\n')
			if j < 0 {
				break
			}
			line, k, col = line+1, k+j+1, 1
		}
		col += utf8.RuneCount(src[k:off])
		k = off
		refs[i].Line, refs[i].Col = line, col
	}
}
