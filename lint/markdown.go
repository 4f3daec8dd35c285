package lint

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"
)

// refKind says how a Markdown file refers to another file.
type refKind uint8

const (
	refLink       refKind = iota // [text](target)
	refImage                     // ![alt](target)
	refDefinition                // [label]: target
	refHTML                      // <a href="target">, <img src="target">
	refMention                   // references/x.md named in the text
)

// ref is one reference found in Markdown. Target is as written (angle
// brackets removed, not URL-decoded). Line and Col are 1-based; Col counts
// characters. InFence marks a mention inside fenced code: it shows the file
// is used, but fenced code is an example, so it is never reported dangling.
type ref struct {
	Target  string
	Line    int
	Col     int
	Kind    refKind
	InFence bool
}

// maxScanLine bounds the work on one line: minified or generated Markdown
// can have megabyte lines, and links past this point are not looked for.
const maxScanLine = 64 << 10

// scanMarkdown finds the links, images, link definitions, HTML links and
// support-path mentions in Markdown text whose first line is firstLine.
// Links inside fenced code, inline code spans and HTML comments are not
// links; mentions inside inline code are kept (agents write paths that way)
// and mentions inside fenced code are kept with InFence set.
//
// It is a line scanner, not a CommonMark parser: it is linear in the input,
// never fails, and gets positions exactly for the constructs skills use.
func scanMarkdown(text string, firstLine int) []ref {
	var refs []ref
	var fenceChar byte
	fenceLen := 0
	inComment := false
	lineNo := firstLine - 1
	for len(text) > 0 {
		lineNo++
		line := text
		if k := strings.IndexByte(text, '\n'); k >= 0 {
			line, text = text[:k], text[k+1:]
		} else {
			text = ""
		}
		line = strings.TrimSuffix(line, "\r")
		if len(line) > maxScanLine {
			line = line[:maxScanLine]
		}
		if fenceLen > 0 {
			if isFenceClose(line, fenceChar, fenceLen) {
				fenceLen = 0
				continue
			}
			refs = appendMentions(refs, line, line, lineNo, true)
			continue
		}
		if ch, n, ok := fenceOpen(line); ok {
			fenceChar, fenceLen = ch, n
			continue
		}
		line, inComment = blankComments(line, inComment)
		refs = scanLine(refs, line, lineNo)
	}
	return refs
}

// fenceOpen recognises a fenced code block opening: up to three spaces,
// then three or more backticks or tildes (a backtick fence's info string
// may not contain a backtick).
func fenceOpen(line string) (byte, int, bool) {
	s := trimIndent(line)
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return 0, 0, false
	}
	ch := s[0]
	n := 0
	for n < len(s) && s[n] == ch {
		n++
	}
	if n < 3 {
		return 0, 0, false
	}
	if ch == '`' && strings.IndexByte(s[n:], '`') >= 0 {
		return 0, 0, false
	}
	return ch, n, true
}

func isFenceClose(line string, ch byte, n int) bool {
	s := trimIndent(line)
	k := 0
	for k < len(s) && s[k] == ch {
		k++
	}
	return k >= n && strings.TrimSpace(s[k:]) == ""
}

// trimIndent removes up to three leading spaces; four or more make an
// indented code line, returned unchanged so no fence is recognised.
func trimIndent(line string) string {
	k := 0
	for k < 3 && k < len(line) && line[k] == ' ' {
		k++
	}
	return line[k:]
}

// blankComments replaces HTML comment text with spaces (keeping byte
// offsets) and reports whether a comment is still open at the line's end.
func blankComments(line string, inComment bool) (string, bool) {
	if !inComment && !strings.Contains(line, "<!--") {
		return line, false
	}
	b := []byte(line)
	k := 0
	for k < len(b) {
		if inComment {
			end := bytes.Index(b[k:], []byte("-->"))
			stop := len(b)
			if end >= 0 {
				stop = k + end + 3
			}
			for j := k; j < stop; j++ {
				b[j] = ' '
			}
			k = stop
			inComment = end < 0
			continue
		}
		start := bytes.Index(b[k:], []byte("<!--"))
		if start < 0 {
			break
		}
		k += start
		inComment = true
	}
	return string(b), inComment
}

var (
	refDefRE = regexp.MustCompile(`^ {0,3}\[([^\]]+)\]:[ \t]*(<[^>]*>|\S+)`)
	htmlRE   = regexp.MustCompile(`(?i)<(?:a|img|link|source|script)\b[^>]*?\s(?:href|src)\s*=\s*("[^"]*"|'[^']*')`)
)

// scanLine finds links and mentions in one line outside fenced code.
func scanLine(refs []ref, line string, lineNo int) []ref {
	if line == "" {
		return refs
	}
	code := blankCodeSpans(line)
	// mentionText has link targets blanked so a linked path is not also
	// reported as a mention; code spans stay, since `references/x.md` in
	// inline code is how agents name files.
	var mentionText []byte
	blank := func(start, end int) {
		if mentionText == nil {
			mentionText = []byte(line)
		}
		for j := start; j < end; j++ {
			mentionText[j] = ' '
		}
	}
	add := func(target string, off int, kind refKind) {
		refs = append(refs, ref{Target: target, Line: lineNo, Col: column(line, off), Kind: kind})
		blank(off, off+len(target))
	}
	if m := refDefRE.FindStringSubmatchIndex(code); m != nil && code[m[2]] != '^' {
		t, off := code[m[4]:m[5]], m[4]
		if strings.HasPrefix(t, "<") {
			t, off = strings.TrimSuffix(t[1:], ">"), off+1
		}
		add(line[off:off+len(t)], off, refDefinition)
	}
	for k := 0; ; {
		j := strings.Index(code[k:], "](")
		if j < 0 {
			break
		}
		open := k + j + 2
		k = open
		start, end, ok := linkTarget(code, open)
		if !ok {
			continue
		}
		kind := refLink
		if isImage(code, open-2) {
			kind = refImage
		}
		add(line[start:end], start, kind)
		k = end
	}
	if strings.Contains(code, "=") && (strings.Contains(code, "href") || strings.Contains(code, "src") || strings.Contains(code, "HREF") || strings.Contains(code, "SRC")) {
		for _, m := range htmlRE.FindAllStringSubmatchIndex(code, -1) {
			add(line[m[2]+1:m[3]-1], m[2]+1, refHTML)
		}
	}
	text := line
	if mentionText != nil {
		text = string(mentionText)
	}
	return appendMentions(refs, text, line, lineNo, false)
}

// maxLinkScan bounds how far a link's destination or text is searched
// for, keeping a line full of "](" linear rather than quadratic.
const maxLinkScan = 2048

// linkTarget parses the destination of an inline link starting at byte
// open (just after "("): <angle-bracketed>, or up to white space or the
// parenthesis closing the link, with balanced parentheses inside.
func linkTarget(s string, open int) (start, end int, ok bool) {
	if len(s) > open+maxLinkScan {
		s = s[:open+maxLinkScan]
	}
	k := open
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k < len(s) && s[k] == '<' {
		e := strings.IndexAny(s[k+1:], ">\n")
		if e < 0 || s[k+1+e] != '>' {
			return 0, 0, false
		}
		return k + 1, k + 1 + e, true
	}
	start = k
	depth := 0
	for k < len(s) {
		switch c := s[k]; {
		case c == '\\' && k+1 < len(s):
			k++
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return start, k, k > start
			}
			depth--
		case c == ' ' || c == '\t':
			return start, k, k > start && depth == 0
		}
		k++
	}
	return 0, 0, false // no closing parenthesis on the line: not a link
}

// isImage reports whether the "]" at byte close ends the text of an image,
// i.e. the matching "[" is preceded by "!".
func isImage(s string, close int) bool {
	depth := 0
	for k := close; k >= 0 && k > close-maxLinkScan; k-- {
		switch s[k] {
		case ']':
			depth++
		case '[':
			depth--
			if depth == 0 {
				return k > 0 && s[k-1] == '!'
			}
		}
	}
	return false
}

// blankCodeSpans replaces inline code spans (delimiters and content) with
// spaces, keeping byte offsets. A backtick run without a closing run of the
// same length is literal text, as in CommonMark. It is linear: each run
// finds its closer through a per-length queue of the runs after it.
func blankCodeSpans(line string) string {
	if strings.IndexByte(line, '`') < 0 {
		return line
	}
	type run struct{ start, n int }
	var runs []run
	byLen := map[int][]int{} // run length → indexes into runs, ascending
	for k := 0; k < len(line); {
		if line[k] != '`' {
			k++
			continue
		}
		n := 0
		for k+n < len(line) && line[k+n] == '`' {
			n++
		}
		byLen[n] = append(byLen[n], len(runs))
		runs = append(runs, run{k, n})
		k += n
	}
	b := []byte(line)
	for i := 0; i < len(runs); {
		r := runs[i]
		q := byLen[r.n]
		for len(q) > 0 && q[0] <= i {
			q = q[1:]
		}
		byLen[r.n] = q
		if len(q) == 0 {
			i++ // no closer: literal backticks
			continue
		}
		j := q[0]
		end := runs[j].start + runs[j].n
		for k := r.start; k < end; k++ {
			b[k] = ' '
		}
		i = j + 1
	}
	return string(b)
}

// mentionRE matches a path under one of the support folders that starts a
// word: not preceded by a letter, digit, '.', '/', '-', '_' or '$' (which
// would make it part of a longer path, a URL or a variable).
var mentionRE = regexp.MustCompile("(?:^|[^A-Za-z0-9_./$~-])((?:\\./)?(?:references|templates|scripts|assets)/[^\\s\"'`()<>\\[\\]{}|,;*?#\\\\]*)")

// appendMentions adds the support-path mentions in line, which is orig
// with some bytes blanked (same length); columns are counted in orig.
func appendMentions(refs []ref, line, orig string, lineNo int, inFence bool) []ref {
	if !strings.Contains(line, "s/") {
		return refs
	}
	for _, m := range mentionRE.FindAllStringSubmatchIndex(line, -1) {
		start, end := m[2], m[3]
		t := line[start:end]
		if end < len(line) && strings.IndexByte("<{$*", line[end]) >= 0 {
			continue // a template placeholder such as references/<name>.md
		}
		t = strings.TrimRight(t, ".:!")
		if strings.Contains(t, "..") || strings.Contains(t, "…") {
			continue // "references/..." is an ellipsis, not a file
		}
		refs = append(refs, ref{Target: t, Line: lineNo, Col: column(orig, start), Kind: refMention, InFence: inFence})
	}
	return refs
}

// column is the 1-based character column of byte offset off in line.
func column(line string, off int) int {
	if off > len(line) {
		off = len(line)
	}
	return utf8.RuneCountInString(line[:off]) + 1
}
