package merge

import (
	"bytes"
	"fmt"
)

// Unified returns the hunks of a unified diff turning a into b, with
// context lines of context around each change, byte for byte as git diff
// prints them after its file header when the two line diffs agree.
// Changes whose contexts touch share one hunk; an "@@" line ends with
// git's default function name (the nearest earlier line of a that starts
// with a letter, "_" or "$"); a line without a final newline is followed
// by "\ No newline at end of file". Equal inputs give nil.
func Unified(a, b []byte, context int) ([]byte, error) {
	t := tokenizer{ids: make(map[string]rune)}
	aLines, bLines := splitLines(a), splitLines(b)
	aTok, err := t.tokens(aLines)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	bTok, err := t.tokens(bLines)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	hunks := diffHunks(aTok, bTok)
	if len(hunks) == 0 {
		return nil, nil
	}
	context = max(context, 0)
	var out bytes.Buffer
	for i := 0; i < len(hunks); {
		// Group the changes whose unchanged gap is at most 2*context.
		j := i + 1
		for j < len(hunks) && hunks[j].baseStart-hunks[j-1].baseEnd <= 2*context {
			j++
		}
		first, last := hunks[i], hunks[j-1]
		aStart := max(first.baseStart-context, 0)
		aEnd := min(last.baseEnd+context, len(aLines))
		bStart := first.sideStart - (first.baseStart - aStart)
		bEnd := last.sideEnd + (aEnd - last.baseEnd)
		fmt.Fprintf(&out, "@@ -%s +%s @@", hunkRange(aStart, aEnd-aStart), hunkRange(bStart, bEnd-bStart))
		if fn := funcName(aLines, aStart); fn != "" {
			out.WriteString(" " + fn)
		}
		out.WriteByte('\n')
		pos := aStart
		for _, h := range hunks[i:j] {
			writePrefixed(&out, ' ', aLines[pos:h.baseStart])
			writePrefixed(&out, '-', aLines[h.baseStart:h.baseEnd])
			writePrefixed(&out, '+', bLines[h.sideStart:h.sideEnd])
			pos = h.baseEnd
		}
		writePrefixed(&out, ' ', aLines[pos:aEnd])
		i = j
	}
	return out.Bytes(), nil
}

// hunkRange formats one side of a hunk header the way diff does: "start"
// for one line, "start,count" otherwise, and for an empty range the line
// before it.
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	default:
		return fmt.Sprintf("%d,%d", start+1, count)
	}
}

// funcName is git's default "function name" of a hunk starting at line
// start: the nearest line above it that starts like an identifier,
// truncated to 80 bytes and trimmed of trailing white space.
func funcName(lines [][]byte, start int) string {
	for i := start - 1; i >= 0; i-- {
		l := lines[i]
		if len(l) == 0 || !(l[0] >= 'a' && l[0] <= 'z' || l[0] >= 'A' && l[0] <= 'Z' || l[0] == '_' || l[0] == '$') {
			continue
		}
		l = l[:min(len(l), 80)]
		return string(bytes.TrimRight(l, " \t\n\v\f\r"))
	}
	return ""
}

func writePrefixed(out *bytes.Buffer, prefix byte, lines [][]byte) {
	for _, l := range lines {
		out.WriteByte(prefix)
		out.Write(l)
		if !bytes.HasSuffix(l, []byte("\n")) {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// DiffStat counts the lines a diff of a to b adds and deletes, as
// git diff --numstat does for text.
func DiffStat(a, b []byte) (added, deleted int, err error) {
	t := tokenizer{ids: make(map[string]rune)}
	aTok, err := t.tokens(splitLines(a))
	if err != nil {
		return 0, 0, fmt.Errorf("diff: %w", err)
	}
	bTok, err := t.tokens(splitLines(b))
	if err != nil {
		return 0, 0, fmt.Errorf("diff: %w", err)
	}
	for _, h := range diffHunks(aTok, bTok) {
		added += h.sideEnd - h.sideStart
		deleted += h.baseEnd - h.baseStart
	}
	return added, deleted, nil
}
