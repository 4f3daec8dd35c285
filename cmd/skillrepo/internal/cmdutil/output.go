package cmdutil

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

// PrintJSON writes one JSON document (indented, newline-terminated).
func PrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// HashString is the full hash, or "" for zero.
func HashString(h skillrepo.Hash) string {
	if h.IsZero() {
		return ""
	}
	return h.String()
}

// Short is the hash's first seven digits, or "(none)" for zero.
func Short(h skillrepo.Hash) string {
	if h.IsZero() {
		return "(none)"
	}
	return h.String()[:7]
}

// RFC3339 is t in UTC as RFC 3339, or "" for zero.
func RFC3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// Table is a tabwriter over a buffer: a 10,000-row listing is otherwise
// tens of thousands of write calls. Flush writes both.
//
// Table rules, as gh prints them: the header row is printed only when
// stdout is a terminal (piped, every table is rows alone, so scripts
// never skip a line) and only above a first row (an empty table prints
// nothing), and it is coloured after the columns are aligned, so escape
// codes never count as width.
type Table struct {
	*tabwriter.Writer
	buf    *bufio.Writer
	styler *firstLineStyler
	// head is the header row, written before the first row.
	head string
}

// NewTable is a table writing to w.
func NewTable(w io.Writer) *Table {
	buf := bufio.NewWriterSize(w, 64<<10)
	st := &firstLineStyler{w: buf}
	return &Table{Writer: tabwriter.NewWriter(st, 0, 4, 2, ' ', 0), buf: buf, styler: st}
}

// Header sets the header row, printed on a terminal, in bold when colour
// is on, above the first row. Call it before any row.
func (t *Table) Header(ios *IOStreams, cols ...string) {
	if !ios.IsStdoutTTY() {
		return
	}
	t.styler.style = ios.Bold
	t.head = strings.Join(cols, "\t") + "\n"
}

// Write writes row text, the header first.
func (t *Table) Write(p []byte) (int, error) {
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

func (t *Table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	return t.buf.Flush()
}

// NounCount is "1 skill", "2 skills", "0 skills"; a noun ending in a
// consonant and y takes "ies" ("1 entry", "3 entries").
func NounCount(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	if strings.HasSuffix(noun, "y") && !strings.ContainsAny(noun[len(noun)-2:len(noun)-1], "aeiou") {
		return fmt.Sprintf("%d %sies", n, noun[:len(noun)-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// NonNil is s, or an empty slice for nil (a JSON list is [] and never null).
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Dash is s, or "-" for an empty table cell.
func Dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Age formats how long ago t was, the way a queue is read: 45s, 12m, 3h, 5d.
func Age(now, t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
