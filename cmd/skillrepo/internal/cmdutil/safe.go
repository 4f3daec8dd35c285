package cmdutil

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// OneLine is the first line of s, at most 100 characters, terminal-safe:
// a message shown in a table cell.
func OneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:100]) + "…"
	}
	return TerminalSafe(s)
}

// OrDash is s terminal-safe, or "-" for an empty cell.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return TerminalSafe(s)
}

// TerminalSafe escapes what a terminal would act on rather than show — a
// control character (an escape sequence clears the screen, a newline
// forges a row of a table), a bidirectional override — as Go escapes
// it: queue files hold what hooks and agents wrote.
func TerminalSafe(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unsafeRune(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || r == utf8.RuneError || r == 0x2028 || r == 0x2029 || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
