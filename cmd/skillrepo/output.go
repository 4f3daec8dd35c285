package main

import (
	"encoding/json"
	"io"
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
