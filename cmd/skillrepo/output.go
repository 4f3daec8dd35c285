package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// printJSON writes one JSON document (indented, newline-terminated).
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// hashString is the full hash, or "" for zero.
func hashString(h skillrepo.Hash) string {
	if h.IsZero() {
		return ""
	}
	return h.String()
}

func short(h skillrepo.Hash) string {
	if h.IsZero() {
		return "(none)"
	}
	return h.String()[:7]
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// table is a tabwriter over a buffer: a 10,000-row listing is otherwise
// tens of thousands of write calls. Flush writes both.
//
// Table rules, as gh prints them: the header row is printed only when
// stdout is a terminal (piped, every table is rows alone, so scripts
// never skip a line) and only above a first row (an empty table prints
// nothing), and it is coloured after the columns are aligned, so escape
// codes never count as width.
type table struct {
	*tabwriter.Writer
	buf    *bufio.Writer
	styler *firstLineStyler
	// head is the header row, written before the first row.
	head string
}

func newTable(w io.Writer) *table {
	buf := bufio.NewWriterSize(w, 64<<10)
	st := &firstLineStyler{w: buf}
	return &table{Writer: tabwriter.NewWriter(st, 0, 4, 2, ' ', 0), buf: buf, styler: st}
}

// header sets the header row, printed on a terminal, in bold when colour
// is on, above the first row. Call it before any row.
func (t *table) header(ios *iostreams, cols ...string) {
	if !ios.IsStdoutTTY() {
		return
	}
	t.styler.style = ios.Bold
	t.head = strings.Join(cols, "\t") + "\n"
}

// Write writes row text, the header first.
func (t *table) Write(p []byte) (int, error) {
	if t.head != "" && len(p) > 0 {
		head := t.head
		t.head = ""
		if _, err := io.WriteString(t.Writer, head); err != nil {
			return 0, err
		}
	}
	return t.Writer.Write(p)
}

// firstLineStyler passes bytes through, applying style to the first line
// (what tabwriter wrote for the header, already padded).
type firstLineStyler struct {
	w     io.Writer
	style func(string) string
	line  []byte
	done  bool
}

func (s *firstLineStyler) Write(p []byte) (int, error) {
	if s.style == nil || s.done {
		return s.w.Write(p)
	}
	i := bytes.IndexByte(p, '\n')
	if i < 0 {
		s.line = append(s.line, p...)
		return len(p), nil
	}
	s.done = true
	line := strings.TrimRight(string(append(s.line, p[:i]...)), " ")
	if _, err := io.WriteString(s.w, s.style(line)+"\n"); err != nil {
		return 0, err
	}
	if _, err := s.w.Write(p[i+1:]); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (t *table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	return t.buf.Flush()
}

// nounCount is "1 skill", "2 skills", "0 skills"; a noun ending in a
// consonant and y takes "ies" ("1 entry", "3 entries").
func nounCount(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	if strings.HasSuffix(noun, "y") && !strings.ContainsAny(noun[len(noun)-2:len(noun)-1], "aeiou") {
		return fmt.Sprintf("%d %sies", n, noun[:len(noun)-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
