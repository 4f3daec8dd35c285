package merge

import (
	"fmt"
	"strings"
	"testing"
)

// skill is a SKILL.md-like base text for the table cases.
const skill = `---
name: pdf-extract
description: Extract text from PDF files
---
# PDF extraction

1. open the file
2. read all pages
3. join the text

## Pitfalls
- scanned pages need OCR
- encrypted files need a password
`

func TestMerge3(t *testing.T) {
	tests := []struct {
		name               string
		base, ours, theirs string
		conflicts          int
		want               string // checked when not empty
	}{
		{
			name:   "disjoint edits",
			base:   skill,
			ours:   strings.Replace(skill, "1. open the file", "1. open the file read-only", 1),
			theirs: strings.Replace(skill, "- encrypted files need a password", "- encrypted files need the owner password", 1),
			want: strings.Replace(strings.Replace(skill, "1. open the file", "1. open the file read-only", 1),
				"- encrypted files need a password", "- encrypted files need the owner password", 1),
		},
		{
			name:      "same line different edits",
			base:      skill,
			ours:      strings.Replace(skill, "2. read all pages", "2. read every page", 1),
			theirs:    strings.Replace(skill, "2. read all pages", "2. read pages lazily", 1),
			conflicts: 1,
		},
		{
			name:   "same line identical edits",
			base:   skill,
			ours:   strings.Replace(skill, "2. read all pages", "2. read every page", 1),
			theirs: strings.Replace(skill, "2. read all pages", "2. read every page", 1),
			want:   strings.Replace(skill, "2. read all pages", "2. read every page", 1),
		},
		{
			name:      "adjacent lines",
			base:      skill,
			ours:      strings.Replace(skill, "1. open the file", "1. open it", 1),
			theirs:    strings.Replace(skill, "2. read all pages", "2. read each page", 1),
			conflicts: 1,
		},
		{
			name:      "delete section vs edit inside it",
			base:      skill,
			ours:      strings.Replace(skill, "## Pitfalls\n- scanned pages need OCR\n- encrypted files need a password\n", "", 1),
			theirs:    strings.Replace(skill, "- scanned pages need OCR", "- scanned pages need OCR (tesseract)", 1),
			conflicts: 1,
		},
		{
			name:   "delete vs edit elsewhere",
			base:   skill,
			ours:   strings.Replace(skill, "## Pitfalls\n- scanned pages need OCR\n- encrypted files need a password\n", "", 1),
			theirs: strings.Replace(skill, "1. open the file", "1. open the file first", 1),
			want:   strings.Replace(strings.Replace(skill, "## Pitfalls\n- scanned pages need OCR\n- encrypted files need a password\n", "", 1), "1. open the file", "1. open the file first", 1),
		},
		{
			name:      "both append at EOF",
			base:      skill,
			ours:      skill + "- large files are slow\n",
			theirs:    skill + "- forms are not text\n",
			conflicts: 1,
		},
		{
			name:   "both append the same at EOF",
			base:   skill,
			ours:   skill + "- forms are not text\n",
			theirs: skill + "- forms are not text\n",
			want:   skill + "- forms are not text\n",
		},
		{
			name:   "insert at start and append at end",
			base:   skill,
			ours:   "<!-- generated -->\n" + skill,
			theirs: skill + "- forms are not text\n",
			want:   "<!-- generated -->\n" + skill + "- forms are not text\n",
		},
		{
			name:   "EOF without newline, edit elsewhere",
			base:   "a\nb\nc\nd\ne",
			ours:   "a\nB\nc\nd\ne",
			theirs: "a\nb\nc\nd\nE",
			want:   "a\nB\nc\nd\nE",
		},
		{
			name:   "EOF newline added on one side",
			base:   "a\nb\nc\nd\ne",
			ours:   "A\nb\nc\nd\ne",
			theirs: "a\nb\nc\nd\ne\n",
			want:   "A\nb\nc\nd\ne\n",
		},
		{
			name:      "EOF without newline, both change last line",
			base:      "a\nb\nc",
			ours:      "a\nb\nC",
			theirs:    "a\nb\nc2",
			conflicts: 1,
		},
		{
			name:      "EOF newline added vs last line edited",
			base:      "a\nb\nc",
			ours:      "a\nb\nc\n",
			theirs:    "a\nb\nC",
			conflicts: 1,
		},
		{
			name:   "CRLF disjoint",
			base:   "a\r\nb\r\nc\r\nd\r\ne\r\n",
			ours:   "A\r\nb\r\nc\r\nd\r\ne\r\n",
			theirs: "a\r\nb\r\nc\r\nd\r\nE\r\n",
			want:   "A\r\nb\r\nc\r\nd\r\nE\r\n",
		},
		{
			name:      "CRLF conflict markers",
			base:      "a\r\nb\r\nc\r\nd\r\n",
			ours:      "a\r\nB\r\nc\r\nd\r\n",
			theirs:    "a\r\nb2\r\nc\r\nd\r\n",
			conflicts: 1,
			want:      "a\r\n<<<<<<< ours\r\nB\r\n||||||| base\r\nb\r\n=======\r\nb2\r\n>>>>>>> theirs\r\nc\r\nd\r\n",
		},
		{
			name:      "CRLF ours, LF theirs",
			base:      "a\r\nb\r\nc\r\n",
			ours:      "a\r\nB\r\nc\r\n",
			theirs:    "a\nb\nc\n",
			conflicts: 1,
		},
		{
			name:      "empty base add/add",
			base:      "",
			ours:      "---\nname: x\n---\nours\n",
			theirs:    "---\nname: x\n---\ntheirs\n",
			conflicts: 1,
		},
		{
			name:   "empty base identical add",
			base:   "",
			ours:   "same\n",
			theirs: "same\n",
			want:   "same\n",
		},
		{
			name:   "one side unchanged",
			base:   skill,
			ours:   skill,
			theirs: strings.ToUpper(skill),
			want:   strings.ToUpper(skill),
		},
		{
			name:      "two separate conflicts",
			base:      "a\nb\nc\nd\ne\nf\ng\n",
			ours:      "a\nB1\nc\nd\ne\nF1\ng\n",
			theirs:    "a\nB2\nc\nd\ne\nF2\ng\n",
			conflicts: 2,
			want: "a\n<<<<<<< ours\nB1\n||||||| base\nb\n=======\nB2\n>>>>>>> theirs\nc\nd\ne\n" +
				"<<<<<<< ours\nF1\n||||||| base\nf\n=======\nF2\n>>>>>>> theirs\ng\n",
		},
		{
			name:      "chained overlaps make one conflict",
			base:      "a\nb\nc\nd\ne\nf\n",
			ours:      "a\nB\nc\nD\ne\nf\n",
			theirs:    "a\nb\nC\nd\nE\nf\n",
			conflicts: 1,
		},
		{
			name:   "insertion one line apart from an edit",
			base:   "a\nb\nc\nd\n",
			ours:   "a\nnew\nb\nc\nd\n",
			theirs: "a\nb\nC\nd\n",
			want:   "a\nnew\nb\nC\nd\n",
		},
		{
			name:   "ambiguous insertion of a repeated line",
			base:   "x\ny\nx\ny\nz\n",
			ours:   "x\ny\nx\ny\nx\ny\nz\n",
			theirs: "X\ny\nx\ny\nz\n",
			want:   "X\ny\nx\ny\nx\ny\nz\n",
		},
		{
			name:      "missing newline inside a conflict section",
			base:      "a\nb",
			ours:      "a\nb1",
			theirs:    "a\nb2",
			conflicts: 1,
			want:      "a\n<<<<<<< ours\nb1\n||||||| base\nb\n=======\nb2\n>>>>>>> theirs\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Merge3([]byte(tt.base), []byte(tt.ours), []byte(tt.theirs))
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Conflicts) != tt.conflicts || got.Clean != (tt.conflicts == 0) {
				t.Errorf("conflicts = %d (clean %v), want %d\n%s", len(got.Conflicts), got.Clean, tt.conflicts, got.Merged)
			}
			if tt.want != "" && string(got.Merged) != tt.want {
				t.Errorf("merged =\n%q\nwant\n%q", got.Merged, tt.want)
			}
			checkAgainstGit(t, tt.base, tt.ours, tt.theirs, got)
		})
	}
}

// BenchmarkMerge3 merges two disjoint edits of a 300-line file (docs/git-format.md
// §8 measured 0.11 ms for this shape).
func BenchmarkMerge3(b *testing.B) {
	var base strings.Builder
	for i := range 300 {
		fmt.Fprintf(&base, "line %d of the skill body\n", i)
	}
	ours := strings.Replace(base.String(), "line 10 of", "LINE 10 of", 1)
	theirs := strings.Replace(base.String(), "line 250 of", "LINE 250 of", 1)
	for b.Loop() {
		if r, err := Merge3([]byte(base.String()), []byte(ours), []byte(theirs)); err != nil || !r.Clean {
			b.Fatal(err, r.Clean)
		}
	}
}
