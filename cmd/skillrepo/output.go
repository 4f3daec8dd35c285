package main

import (
	"bufio"
	"encoding/json"
	"io"
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
type table struct {
	*tabwriter.Writer
	buf *bufio.Writer
}

func newTable(w io.Writer) *table {
	buf := bufio.NewWriterSize(w, 64<<10)
	return &table{Writer: tabwriter.NewWriter(buf, 0, 4, 2, ' ', 0), buf: buf}
}

func (t *table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	return t.buf.Flush()
}
