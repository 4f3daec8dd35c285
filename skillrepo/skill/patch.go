package skill

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MatchStrategy names how [Replace] found the text it replaced.
type MatchStrategy string

// The reference's nine strategies (docs/reference-behaviour.md §4.9), tried
// in this order; the first that finds any match wins.
const (
	MatchExact               MatchStrategy = "exact"
	MatchLineTrimmed         MatchStrategy = "line_trimmed"
	MatchWhitespaceNormalize MatchStrategy = "whitespace_normalized"
	MatchIndentationFlexible MatchStrategy = "indentation_flexible"
	MatchEscapeNormalized    MatchStrategy = "escape_normalized"
	MatchTrimmedBoundary     MatchStrategy = "trimmed_boundary"
	MatchUnicodeNormalized   MatchStrategy = "unicode_normalized"
	MatchBlockAnchor         MatchStrategy = "block_anchor"
	MatchContextAware        MatchStrategy = "context_aware"
)

// The reference's similarity thresholds.
const (
	blockAnchorUniqueThreshold = 0.50 // one block with the anchors
	blockAnchorManyThreshold   = 0.70 // several compete
	contextLineThreshold       = 0.80 // a line counts as similar
)

const errNoMatch = "old_string not found: view the file again and copy the text exactly"

// span is a half-open range of the content, in characters (runes), as the
// reference counts positions.
type span struct{ start, end int }

var strategies = []struct {
	name MatchStrategy
	find func(content, pattern []rune) []span
}{
	{MatchExact, findExact},
	{MatchLineTrimmed, findLineTrimmed},
	{MatchWhitespaceNormalize, findWhitespaceNormalized},
	{MatchIndentationFlexible, findIndentationFlexible},
	{MatchEscapeNormalized, findEscapeNormalized},
	{MatchTrimmedBoundary, findTrimmedBoundary},
	{MatchUnicodeNormalized, findUnicodeNormalized},
	{MatchBlockAnchor, findBlockAnchor},
	{MatchContextAware, findContextAware},
}

// Replace replaces old with new in content the way the reference system's
// patch does (docs/reference-behaviour.md §4.9): content is first read as
// the reference reads a file, with universal newlines (CRLF and lone CR
// become LF, so a patched file has LF endings throughout); then nine
// matching strategies are tried in order, from exact to a 50 % line
// similarity, and the first that matches anything wins. More than one
// match is an error unless replaceAll is set. A match found by any
// strategy but exact gets new re-indented to the file's indentation,
// "\t" and "\r" written as two characters turned into the real ones when
// the matched text has them, and (for the Unicode strategy) the file's
// typographic characters kept where new leaves the text unchanged; an
// old and new that both carry \' or \" the file does not have are refused
// as escaping added by the tool-call transport.
//
// It returns the new content, the number of replacements and the
// strategy that matched. Errors wrap [ErrInvalid].
func Replace(content, old, new string, replaceAll bool) (string, int, MatchStrategy, error) {
	if old == "" {
		return "", 0, "", invalid("old_string", "old_string is required: read the file first and pass the exact text to replace")
	}
	if old == new {
		return "", 0, "", invalid("new_string", "old_string and new_string are identical: nothing to change")
	}
	c := []rune(NormalizeNewlines(content))
	o := []rune(old)
	for _, st := range strategies {
		spans := st.find(c, o)
		if len(spans) == 0 {
			continue
		}
		if len(spans) > 1 && !replaceAll {
			return "", 0, st.name, invalid("old_string", "found %d matches for old_string; provide more context to make it unique, or set replace_all", len(spans))
		}
		if st.name != MatchExact {
			if msg := escapeDrift(c, spans, old, new); msg != "" {
				return "", 0, st.name, invalid("new_string", "%s", msg)
			}
		}
		eff := unescapeControls(new, c, spans)
		if st.name == MatchUnicodeNormalized {
			eff = keepFileUnicode(c, spans, o, []rune(eff))
		}
		var reindentFrom []rune
		if st.name != MatchExact {
			reindentFrom = o
		}
		return string(applyReplacements(c, spans, []rune(eff), reindentFrom)), len(spans), st.name, nil
	}
	msg := errNoMatch
	if hint := closestLines(o, c); hint != "" {
		msg += "\n\nDid you mean one of these sections?\n" + hint
	}
	return "", 0, "", invalid("old_string", "%s", msg)
}

// NormalizeNewlines turns CRLF and lone CR into LF, as Python's universal
// newlines read a text file.
func NormalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// isPySpace is Python's str.isspace for one character: Go's unicode.IsSpace
// plus the four ASCII separators U+001C–U+001F.
func isPySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

func pyStrip(s []rune) []rune { return pyRStrip(pyLStrip(s)) }
func pyLStrip(s []rune) []rune {
	i := 0
	for i < len(s) && isPySpace(s[i]) {
		i++
	}
	return s[i:]
}
func pyRStrip(s []rune) []rune {
	j := len(s)
	for j > 0 && isPySpace(s[j-1]) {
		j--
	}
	return s[:j]
}

func isSpaceTab(r rune) bool { return r == ' ' || r == '\t' }

// splitLines splits at "\n" only, as str.split("\n") does.
func splitLines(s []rune) [][]rune {
	out := [][]rune{}
	start := 0
	for i, r := range s {
		if r == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func joinLines(lines [][]rune) []rune {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	out := make([]rune, 0, n)
	for i, l := range lines {
		if i > 0 {
			out = append(out, '\n')
		}
		out = append(out, l...)
	}
	return out
}

func equalRunes(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// linePositions returns the character offset of the start of each line,
// plus one past the end: lineStart[i+1]-1 is where line i ends.
func linePositions(lines [][]rune) []int {
	pos := make([]int, len(lines)+1)
	for i, l := range lines {
		pos[i+1] = pos[i] + len(l) + 1
	}
	return pos
}

// lineSpan is the span of lines [from, to) of content with n characters.
func lineSpan(pos []int, from, to, n int) span {
	return span{pos[from], min(n, pos[to]-1)}
}

// findExact finds old's non-overlapping occurrences, left to right.
func findExact(content, pattern []rune) []span {
	if len(pattern) == 0 {
		return nil
	}
	hay, needle := string(content), string(pattern)
	var out []span
	byteAt, runeAt := 0, 0
	for {
		j := strings.Index(hay[byteAt:], needle)
		if j < 0 {
			return out
		}
		start := runeAt + utf8.RuneCountInString(hay[byteAt:byteAt+j])
		out = append(out, span{start, start + len(pattern)})
		byteAt += j + len(needle)
		runeAt = start + len(pattern)
	}
}

// findNormalizedLines matches the lines of pattern against each run of
// content's lines after both went through norm, one line at a time.
func findNormalizedLines(content, pattern []rune, norm func([]rune) []rune) []span {
	lines := splitLines(content)
	normLines := make([][]rune, len(lines))
	for i, l := range lines {
		normLines[i] = norm(l)
	}
	pat := splitLines(pattern)
	for i, l := range pat {
		pat[i] = norm(l)
	}
	pos := linePositions(lines)
	var out []span
	for i := 0; i+len(pat) <= len(lines); i++ {
		ok := true
		for k, p := range pat {
			if !equalRunes(normLines[i+k], p) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, lineSpan(pos, i, i+len(pat), len(content)))
		}
	}
	return out
}

func findLineTrimmed(content, pattern []rune) []span {
	return findNormalizedLines(content, pattern, pyStrip)
}

func findIndentationFlexible(content, pattern []rune) []span {
	return findNormalizedLines(content, pattern, pyLStrip)
}

// foldSpaceTab folds every run of spaces and tabs to one space.
func foldSpaceTab(s []rune) []rune {
	out := make([]rune, 0, len(s))
	for i := 0; i < len(s); i++ {
		if isSpaceTab(s[i]) {
			for i+1 < len(s) && isSpaceTab(s[i+1]) {
				i++
			}
			out = append(out, ' ')
			continue
		}
		out = append(out, s[i])
	}
	return out
}

func findWhitespaceNormalized(content, pattern []rune) []span {
	normContent := foldSpaceTab(content)
	matches := findExact(normContent, foldSpaceTab(pattern))
	if len(matches) == 0 {
		return nil
	}
	return mapFoldedPositions(content, normContent, matches)
}

// mapFoldedPositions maps spans of the space-folded content back to the
// original, as the reference does: a character walk that pairs each
// original character with a folded one, then, for a match that ends in a
// space, the rest of the original's run of blanks.
func mapFoldedPositions(original, normalized []rune, matches []span) []span {
	origToNorm := make([]int, 0, len(original))
	oi, ni := 0, 0
	for oi < len(original) && ni < len(normalized) {
		switch {
		case original[oi] == normalized[ni]:
			origToNorm = append(origToNorm, ni)
			oi++
			ni++
		case isSpaceTab(original[oi]) && normalized[ni] == ' ':
			origToNorm = append(origToNorm, ni)
			oi++
			if oi < len(original) && !isSpaceTab(original[oi]) {
				ni++
			}
		default:
			origToNorm = append(origToNorm, ni)
			oi++
		}
	}
	for ; oi < len(original); oi++ {
		origToNorm = append(origToNorm, len(normalized))
	}
	first := make(map[int]int, len(origToNorm))
	last := make(map[int]int, len(origToNorm))
	for op, np := range origToNorm {
		if _, ok := first[np]; !ok {
			first[np] = op
		}
		last[np] = op
	}
	var out []span
	for _, m := range matches {
		start, ok := first[m.start]
		if !ok {
			start = -1
			for i, n := range origToNorm {
				if n >= m.start {
					start = i
					break
				}
			}
			if start < 0 {
				continue // the reference fails here; no match is the safe reading
			}
		}
		end := start + (m.end - m.start)
		if e, ok := last[m.end-1]; ok {
			end = e + 1
		}
		if m.end < len(normalized) && normalized[m.end-1] == ' ' {
			for end < len(original) && isSpaceTab(original[end]) {
				end++
			}
		}
		out = append(out, span{start, min(end, len(original))})
	}
	return out
}

// findEscapeNormalized matches old with its written-out \n, \t and \r
// turned into the characters, when it has any.
func findEscapeNormalized(content, pattern []rune) []span {
	p := string(pattern)
	u := strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(p, `\n`, "\n"), `\t`, "\t"), `\r`, "\r")
	if u == p {
		return nil
	}
	return findExact(content, []rune(u))
}

// findTrimmedBoundary matches with only the first and last lines trimmed.
func findTrimmedBoundary(content, pattern []rune) []span {
	pat := splitLines(pattern)
	pat[0] = pyStrip(pat[0])
	if len(pat) > 1 {
		pat[len(pat)-1] = pyStrip(pat[len(pat)-1])
	}
	lines := splitLines(content)
	pos := linePositions(lines)
	var out []span
	for i := 0; i+len(pat) <= len(lines); i++ {
		ok := true
		for k, p := range pat {
			l := lines[i+k]
			if k == 0 || k == len(pat)-1 {
				l = pyStrip(l)
			}
			if !equalRunes(l, p) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, lineSpan(pos, i, i+len(pat), len(content)))
		}
	}
	return out
}

// unicodeASCII is the reference's table of typographic characters and
// their ASCII spellings.
var unicodeASCII = map[rune]string{
	'\u201c': `"`, '\u201d': `"`,
	'\u2018': "'", '\u2019': "'",
	'\u2014': "--", '\u2013': "-",
	'\u2026': "...", '\u00a0': " ",
}

func unicodeNormalize(s []rune) []rune {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if repl, ok := unicodeASCII[r]; ok {
			out = append(out, []rune(repl)...)
			continue
		}
		out = append(out, r)
	}
	return out
}

// origToNormMap maps each character of original (and one past the end) to
// its offset in the normalized text.
func origToNormMap(original []rune) []int {
	m := make([]int, 0, len(original)+1)
	n := 0
	for _, r := range original {
		m = append(m, n)
		if repl, ok := unicodeASCII[r]; ok {
			n += len(repl)
		} else {
			n++
		}
	}
	return append(m, n)
}

func mapNormToOrig(origToNorm []int, matches []span) []span {
	first := map[int]int{}
	for op, np := range origToNorm[:len(origToNorm)-1] {
		if _, ok := first[np]; !ok {
			first[np] = op
		}
	}
	n := len(origToNorm) - 1
	var out []span
	for _, m := range matches {
		start, ok := first[m.start]
		if !ok {
			continue
		}
		end := start
		for end < n && origToNorm[end] < m.end {
			end++
		}
		out = append(out, span{start, end})
	}
	return out
}

func findUnicodeNormalized(content, pattern []rune) []span {
	normPattern, normContent := unicodeNormalize(pattern), unicodeNormalize(content)
	if equalRunes(normContent, content) && equalRunes(normPattern, pattern) {
		return nil
	}
	matches := findExact(normContent, normPattern)
	if len(matches) == 0 {
		matches = findLineTrimmed(normContent, normPattern)
	}
	if len(matches) == 0 {
		return nil
	}
	return mapNormToOrig(origToNormMap(content), matches)
}

// findBlockAnchor matches blocks whose first and last lines equal old's
// (trimmed, Unicode-normalized) and whose middle is similar enough: half
// for a single candidate, 70 % when several compete.
func findBlockAnchor(content, pattern []rune) []span {
	pat := splitLines(unicodeNormalize(pattern))
	if len(pat) < 2 {
		return nil
	}
	firstLine, lastLine := pyStrip(pat[0]), pyStrip(pat[len(pat)-1])
	normLines := splitLines(unicodeNormalize(content))
	origLines := splitLines(content)
	k := len(pat)
	var candidates []int
	for i := 0; i+k <= len(normLines); i++ {
		if equalRunes(pyStrip(normLines[i]), firstLine) && equalRunes(pyStrip(normLines[i+k-1]), lastLine) {
			candidates = append(candidates, i)
		}
	}
	threshold := blockAnchorManyThreshold
	if len(candidates) == 1 {
		threshold = blockAnchorUniqueThreshold
	}
	pos := linePositions(origLines)
	patMiddle := joinLines(pat[1 : k-1])
	var out []span
	for _, i := range candidates {
		similarity := 1.0
		if k > 2 {
			similarity = ratio(joinLines(normLines[i+1:i+k-1]), patMiddle)
		}
		if similarity >= threshold {
			out = append(out, lineSpan(pos, i, i+k, len(content)))
		}
	}
	return out
}

// findContextAware matches blocks where at least half of old's lines are
// 80 % similar (trimmed) to the line at the same place.
func findContextAware(content, pattern []rune) []span {
	pat := splitLines(pattern)
	lines := splitLines(content)
	for i := range pat {
		pat[i] = pyStrip(pat[i])
	}
	trimmed := make([][]rune, len(lines))
	for i, l := range lines {
		trimmed[i] = pyStrip(l)
	}
	pos := linePositions(lines)
	need := float64(len(pat)) * 0.5
	var out []span
	for i := 0; i+len(pat) <= len(lines); i++ {
		high := 0
		for k, p := range pat {
			if similarAtLeast(p, trimmed[i+k], contextLineThreshold) {
				high++
			}
		}
		if float64(high) >= need {
			out = append(out, lineSpan(pos, i, i+len(pat), len(content)))
		}
	}
	return out
}

// ratio is Python's difflib.SequenceMatcher(None, a, b).ratio() over
// characters (with its automatic junk heuristic; see seqmatch.go).
func ratio(a, b []rune) float64 {
	return newSeqMatcher(a, b).ratio()
}

// similarAtLeast reports ratio(a, b) >= t, skipping the full computation
// when the length bound already rules it out (ratio never exceeds it).
func similarAtLeast(a, b []rune, t float64) bool {
	if total := len(a) + len(b); total > 0 && 2*float64(min(len(a), len(b)))/float64(total) < t {
		return false
	}
	return ratio(a, b) >= t
}

// escapeDrift refuses a fuzzy match whose old and new both carry \' or \"
// that the matched text does not: the tool-call transport escaped a quote,
// and writing new would put the backslash into the file.
func escapeDrift(content []rune, spans []span, old, new string) string {
	if !strings.Contains(new, `\'`) && !strings.Contains(new, `\"`) {
		return ""
	}
	region := matchedText(content, spans)
	for _, suspect := range []string{`\'`, `\"`} {
		if strings.Contains(new, suspect) && strings.Contains(old, suspect) && !strings.Contains(region, suspect) {
			return fmt.Sprintf("escape drift: old_string and new_string contain the literal sequence %s but the matched text of the file does not; "+
				"this is a tool-call serialisation artifact (a quote prefixed with a stray backslash). Read the file again and pass old_string and new_string without backslash-escaping %s",
				suspect, suspect[1:])
		}
	}
	return ""
}

func matchedText(content []rune, spans []span) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(string(content[s.start:s.end]))
	}
	return b.String()
}

// unescapeControls turns the two characters \t and \r of new into a tab
// and a carriage return, each only when the matched text has that
// character (a file that holds a literal backslash-t keeps it).
func unescapeControls(new string, content []rune, spans []span) string {
	if !strings.Contains(new, `\t`) && !strings.Contains(new, `\r`) {
		return new
	}
	region := matchedText(content, spans)
	if strings.Contains(new, `\t`) && strings.Contains(region, "\t") {
		new = strings.ReplaceAll(new, `\t`, "\t")
	}
	if strings.Contains(new, `\r`) && strings.Contains(region, "\r") {
		new = strings.ReplaceAll(new, `\r`, "\r")
	}
	return new
}

// keepFileUnicode applies the edit old→new to the matched text of the file
// so that its typographic characters survive where the edit leaves the
// text unchanged (the model wrote ASCII quotes and dashes).
func keepFileUnicode(content []rune, spans []span, old, new []rune) string {
	region := []rune(matchedText(content, spans))
	normOld := unicodeNormalize(old)
	if !equalRunes(normOld, unicodeNormalize(region)) {
		return string(new)
	}
	o2n := origToNormMap(region)
	n2o := map[int]int{}
	for op, np := range o2n[:len(o2n)-1] {
		if _, ok := n2o[np]; !ok {
			n2o[np] = op
		}
	}
	var b strings.Builder
	for _, op := range newSeqMatcher(normOld, new).opcodes() {
		switch op.tag {
		case 'e':
			start := n2o[op.i1]
			end := start
			for end < len(region) && o2n[end] < op.i2 {
				end++
			}
			b.WriteString(string(region[start:end]))
		case 'r', 'i':
			b.WriteString(string(new[op.j1:op.j2]))
		}
	}
	return b.String()
}

// applyReplacements replaces the spans, last first, as the reference does;
// with reindentFrom (old, for a fuzzy match) each replacement is
// re-indented to the file's indentation.
func applyReplacements(content []rune, spans []span, new, reindentFrom []rune) []rune {
	sorted := append([]span(nil), spans...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].start > sorted[j].start })
	result := append([]rune(nil), content...)
	for _, s := range sorted {
		adjusted := new
		if reindentFrom != nil {
			adjusted = reindent(content[s.start:s.end], reindentFrom, new)
		}
		start, end := min(s.start, len(result)), min(s.end, len(result))
		next := make([]rune, 0, len(result)-(end-start)+len(adjusted))
		next = append(next, result[:start]...)
		next = append(next, adjusted...)
		next = append(next, result[end:]...)
		result = next
	}
	return result
}

func leadingBlanks(line []rune) []rune {
	i := 0
	for i < len(line) && isSpaceTab(line[i]) {
		i++
	}
	return line[:i]
}

func firstMeaningfulLine(text []rune) ([]rune, bool) {
	for _, l := range splitLines(text) {
		if len(pyStrip(l)) > 0 {
			return l, true
		}
	}
	return nil, false
}

// reindent shifts new from old's base indentation to the file's: each
// non-blank line that starts with old's base indent gets the file's base
// indent instead (keeping what it adds on top); a line indented less is
// anchored to the file's base.
func reindent(region, old, new []rune) []rune {
	if len(new) == 0 {
		return new
	}
	oldFirst, ok1 := firstMeaningfulLine(old)
	fileFirst, ok2 := firstMeaningfulLine(region)
	if !ok1 || !ok2 {
		return new
	}
	oldIndent, fileIndent := leadingBlanks(oldFirst), leadingBlanks(fileFirst)
	if equalRunes(oldIndent, fileIndent) {
		return new
	}
	lines := splitLines(new)
	for i, l := range lines {
		if len(pyStrip(l)) == 0 {
			continue
		}
		rest := l
		if hasRunePrefix(leadingBlanks(l), oldIndent) {
			rest = l[len(oldIndent):]
		} else {
			rest = l[len(leadingBlanks(l)):]
		}
		lines[i] = append(append([]rune(nil), fileIndent...), rest...)
	}
	return joinLines(lines)
}

func hasRunePrefix(s, prefix []rune) bool {
	return len(s) >= len(prefix) && equalRunes(s[:len(prefix)], prefix)
}

// closestLines is the reference's "did you mean" hint: up to three places
// in content whose line is most like old's first non-blank line, with two
// lines of context, numbered.
func closestLines(old, content []rune) string {
	if len(old) == 0 || len(content) == 0 {
		return ""
	}
	oldLines, lines := pyLines(old), pyLines(content)
	if len(oldLines) == 0 || len(lines) == 0 {
		return ""
	}
	anchor := pyStrip(oldLines[0])
	if len(anchor) == 0 {
		for _, l := range oldLines {
			if s := pyStrip(l); len(s) > 0 {
				anchor = s
				break
			}
		}
		if len(anchor) == 0 {
			return ""
		}
	}
	type scored struct {
		r float64
		i int
	}
	var all []scored
	for i, l := range lines {
		s := pyStrip(l)
		if len(s) == 0 {
			continue
		}
		if r := ratio(anchor, s); r > 0.3 {
			all = append(all, scored{r, i})
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].r > all[b].r })
	if len(all) > 3 {
		all = all[:3]
	}
	var parts []string
	seen := map[[2]int]bool{}
	for _, s := range all {
		from, to := max(0, s.i-2), min(len(lines), s.i+len(oldLines)+2)
		if seen[[2]int{from, to}] {
			continue
		}
		seen[[2]int{from, to}] = true
		var b strings.Builder
		for j := from; j < to; j++ {
			if j > from {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "%4d| %s", j+1, string(lines[j]))
		}
		parts = append(parts, b.String())
	}
	return strings.Join(parts, "\n---\n")
}

// pyLines is str.splitlines for text whose newlines are "\n" (Replace
// normalizes them first): no empty last line for a trailing newline.
func pyLines(s []rune) [][]rune {
	lines := splitLines(s)
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}
