package webui

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// fileDiff is one file of a diff, ready for the unified and the
// side-by-side views.
type fileDiff struct {
	Path, Status   string
	Added, Deleted int
	Binary         bool
	Unified        []diffLine
	Split          []splitRow
}

// diffLine is one line of a unified diff: Kind is "hunk", "ctx", "add"
// or "del"; Old and New the line numbers (0: none).
type diffLine struct {
	Kind     string
	Old, New int
	Text     string
}

// splitRow is one row of the side-by-side view: the old line on the
// left, the new one on the right (nil: none on that side).
type splitRow struct {
	Hunk        string
	Left, Right *diffLine
}

// maxDiffLines bounds a file's diff on a page.
const maxDiffLines = 5000

func parseDiff(fd skillrepo.FileDiff) fileDiff {
	out := fileDiff{Path: fd.Path, Status: fd.Status, Added: fd.Added, Deleted: fd.Deleted, Binary: fd.Binary}
	out.Unified = parseHunks(fd.Hunks)
	out.Split = split(out.Unified)
	return out
}

// parsePatch splits a multi-file unified diff (git's "diff --git"
// sections, as skill log --patch prints) into files.
func parsePatch(patch string) []fileDiff {
	var out []fileDiff
	var cur *fileDiff
	var hunks bytes.Buffer
	flush := func() {
		if cur != nil {
			cur.Unified = parseHunks(hunks.Bytes())
			cur.Split = split(cur.Unified)
			for _, l := range cur.Unified {
				switch l.Kind {
				case "add":
					cur.Added++
				case "del":
					cur.Deleted++
				}
			}
			out = append(out, *cur)
		}
		hunks.Reset()
	}
	inHunks := false
	for _, line := range strings.SplitAfter(patch, "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			flush()
			f := strings.Fields(line)
			cur = &fileDiff{Path: strings.TrimPrefix(f[len(f)-1], "b/"), Status: "modified"}
			inHunks = false
		case cur == nil:
		case !inHunks && strings.HasPrefix(line, "new file"):
			cur.Status = "added"
		case !inHunks && strings.HasPrefix(line, "deleted file"):
			cur.Status = "deleted"
		case !inHunks && strings.HasPrefix(line, "Binary files"):
			cur.Binary = true
		case strings.HasPrefix(line, "@@"):
			inHunks = true
			hunks.WriteString(line)
		case inHunks:
			hunks.WriteString(line)
		}
	}
	flush()
	return out
}

func parseHunks(b []byte) []diffLine {
	var out []diffLine
	oldN, newN := 0, 0
	for _, line := range strings.Split(string(b), "\n") {
		if len(out) >= maxDiffLines {
			out = append(out, diffLine{Kind: "hunk", Text: "… (diff cut at " + strconv.Itoa(maxDiffLines) + " lines)"})
			break
		}
		if line == "" {
			continue
		}
		switch line[0] {
		case '@':
			oldN, newN = hunkStart(line)
			out = append(out, diffLine{Kind: "hunk", Text: line})
		case '+':
			out = append(out, diffLine{Kind: "add", New: newN, Text: line[1:]})
			newN++
		case '-':
			out = append(out, diffLine{Kind: "del", Old: oldN, Text: line[1:]})
			oldN++
		case ' ':
			out = append(out, diffLine{Kind: "ctx", Old: oldN, New: newN, Text: line[1:]})
			oldN++
			newN++
		case '\\': // "\ No newline at end of file"
		}
	}
	return out
}

// hunkStart reads "@@ -a,b +c,d @@".
func hunkStart(h string) (old, new int) {
	f := strings.Fields(h)
	num := func(s string) int {
		s = strings.TrimLeft(s, "-+")
		if i := strings.IndexByte(s, ','); i >= 0 {
			s = s[:i]
		}
		n, _ := strconv.Atoi(s)
		return n
	}
	if len(f) >= 3 {
		return num(f[1]), num(f[2])
	}
	return 0, 0
}

// split pairs a run of deletions with the additions after it, row by
// row, as a side-by-side diff shows them.
func split(lines []diffLine) []splitRow {
	var out []splitRow
	for i := 0; i < len(lines); {
		l := lines[i]
		switch l.Kind {
		case "hunk":
			out = append(out, splitRow{Hunk: l.Text})
			i++
		case "ctx":
			out = append(out, splitRow{Left: &lines[i], Right: &lines[i]})
			i++
		default:
			var dels, adds []*diffLine
			for i < len(lines) && lines[i].Kind == "del" {
				dels = append(dels, &lines[i])
				i++
			}
			for i < len(lines) && lines[i].Kind == "add" {
				adds = append(adds, &lines[i])
				i++
			}
			for j := 0; j < max(len(dels), len(adds)); j++ {
				var row splitRow
				if j < len(dels) {
					row.Left = dels[j]
				}
				if j < len(adds) {
					row.Right = adds[j]
				}
				out = append(out, row)
			}
		}
	}
	return out
}
