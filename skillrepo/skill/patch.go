package skill

import (
	"strings"
	"unicode"
)

// MatchStrategy names how [Replace] found the text it replaced.
type MatchStrategy string

// The strategies, tried in this order; the first that finds any match wins.
const (
	MatchExact               MatchStrategy = "exact"
	MatchLineTrimmed         MatchStrategy = "line_trimmed"
	MatchWhitespaceNormalize MatchStrategy = "whitespace_normalized"
)

// span is a half-open byte range of the content.
type span struct{ start, end int }

// Replace replaces old with new in content the way the reference system's
// patch does: exact matching first, then line by line with surrounding
// whitespace trimmed, then with every run of whitespace folded to one space.
// More than one match is an error unless replaceAll is set. It returns the
// new content, the number of replacements and the strategy that matched.
// Errors wrap [ErrInvalid].
func Replace(content, old, new string, replaceAll bool) (string, int, MatchStrategy, error) {
	if old == "" {
		return "", 0, "", invalid("old_string", "old_string is required: read the file first and pass the exact text to replace")
	}
	if old == new {
		return "", 0, "", invalid("new_string", "old_string and new_string are identical: nothing to change")
	}
	for _, st := range []struct {
		name MatchStrategy
		find func(content, old string) []span
	}{
		{MatchExact, findExact},
		{MatchLineTrimmed, findLineTrimmed},
		{MatchWhitespaceNormalize, findWhitespaceNormalized},
	} {
		spans := st.find(content, old)
		if len(spans) == 0 {
			continue
		}
		if len(spans) > 1 && !replaceAll {
			return "", 0, st.name, invalid("old_string", "found %d matches for old_string; provide more context to make it unique, or set replace_all", len(spans))
		}
		var b strings.Builder
		prev := 0
		for _, sp := range spans {
			b.WriteString(content[prev:sp.start])
			b.WriteString(new)
			prev = sp.end
		}
		b.WriteString(content[prev:])
		return b.String(), len(spans), st.name, nil
	}
	return "", 0, "", invalid("old_string", "old_string not found: view the file again and copy the text exactly")
}

func findExact(content, old string) []span {
	var out []span
	for i := 0; ; {
		j := strings.Index(content[i:], old)
		if j < 0 {
			return out
		}
		out = append(out, span{i + j, i + j + len(old)})
		i += j + len(old)
	}
}

// lineSpans returns the byte range of each line, without its newline.
func lineSpans(s string) []span {
	var out []span
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, span{start, i})
			start = i + 1
		}
	}
	return append(out, span{start, len(s)})
}

// findLineTrimmed matches old line by line, each line compared with
// leading and trailing whitespace removed. A match covers whole lines.
func findLineTrimmed(content, old string) []span {
	oldLines := strings.Split(strings.Trim(old, "\n"), "\n")
	for i := range oldLines {
		oldLines[i] = strings.TrimSpace(oldLines[i])
	}
	lines := lineSpans(content)
	var out []span
	for i := 0; i+len(oldLines) <= len(lines); {
		ok := true
		for k, ol := range oldLines {
			ln := lines[i+k]
			if strings.TrimSpace(content[ln.start:ln.end]) != ol {
				ok = false
				break
			}
		}
		if !ok {
			i++
			continue
		}
		out = append(out, span{lines[i].start, lines[i+len(oldLines)-1].end})
		i += len(oldLines)
	}
	return out
}

// findWhitespaceNormalized matches old after folding every run of
// whitespace (in both texts) to a single space.
func findWhitespaceNormalized(content, old string) []span {
	normOld, _ := foldSpace(strings.TrimSpace(old))
	if normOld == "" {
		return nil
	}
	norm, pos := foldSpace(content)
	var out []span
	for i := 0; ; {
		j := strings.Index(norm[i:], normOld)
		if j < 0 {
			return out
		}
		s, e := i+j, i+j+len(normOld)
		out = append(out, span{pos[s], pos[e-1] + 1})
		i = e
	}
}

// foldSpace folds whitespace runs to one space and returns, for each byte
// of the result, the offset of the byte it came from.
func foldSpace(s string) (string, []int) {
	var b strings.Builder
	pos := make([]int, 0, len(s))
	inSpace := false
	for i, r := range s {
		if unicode.IsSpace(r) {
			if !inSpace {
				b.WriteByte(' ')
				pos = append(pos, i)
			}
			inSpace = true
			continue
		}
		inSpace = false
		n := b.Len()
		b.WriteRune(r)
		for k := n; k < b.Len(); k++ {
			pos = append(pos, i+(k-n))
		}
	}
	return b.String(), pos
}
