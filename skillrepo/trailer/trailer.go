// Package trailer is the commit message codec of skillrepo's writes: a
// subject, a body and a trailer block, rendered so git's own parser and
// this one agree, and read back with the rules of git's %(trailers). The
// keys and values skillrepo writes (its trailer vocabulary) are the
// domain's (docs/architecture.md §2).
package trailer

import "strings"

// Trailer is one "Key: value" line of a commit message's trailer block.
type Trailer struct {
	Key, Value string
}

// Message is a commit message: a subject, an optional body and a trailer
// block that git interpret-trailers reads.
type Message struct {
	Subject  string
	Body     string
	Trailers []Trailer
}

// String renders the message: subject, blank line, body, blank line,
// trailers. Every line of the trailer block is a trailer (so git's parser
// and ours agree); values are folded to one line.
func (m Message) String() string {
	var b strings.Builder
	b.WriteString(OneLine(m.Subject))
	b.WriteString("\n")
	if body := strings.TrimSpace(m.Body); body != "" {
		b.WriteString("\n")
		b.WriteString(body)
		b.WriteString("\n")
	}
	if len(m.Trailers) > 0 {
		b.WriteString("\n")
		for _, t := range m.Trailers {
			if t.Key == "" || strings.TrimSpace(t.Value) == "" {
				continue
			}
			b.WriteString(t.Key)
			b.WriteString(": ")
			b.WriteString(OneLine(t.Value))
			b.WriteString("\n")
		}
	}
	return b.String()
}

// OneLine folds s to one line: its words, one space apart.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Add appends a trailer when value is not empty.
func (m *Message) Add(key, value string) {
	if strings.TrimSpace(value) != "" {
		m.Trailers = append(m.Trailers, Trailer{key, value})
	}
}

// Parse reads the trailer block of a commit message with the
// rules git's own %(trailers) reads a commit with: the last paragraph
// (never the subject), continuation lines start with whitespace, and the
// paragraph counts only when every line is a trailer or at least 25 % are
// and one is a git-generated trailer (Signed-off-by, "(cherry picked from
// ...)"). A "---" line is not a divider here (it is only in a patch
// e-mail): a reject reason holding "---" and a paragraph of fake
// trailers before it must not stand in for the real ones (issue 40).
func Parse(message string) []Trailer {
	lines := strings.Split(strings.ReplaceAll(message, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	start := len(lines)
	for start > 0 && strings.TrimSpace(lines[start-1]) != "" {
		start--
	}
	if start == 0 {
		return nil // the only paragraph is the subject paragraph
	}
	var out []Trailer
	trailerLines, other, generated := 0, 0, false
	for _, l := range lines[start:] {
		if (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && len(out) > 0 {
			out[len(out)-1].Value += " " + strings.TrimSpace(l)
			continue
		}
		if strings.HasPrefix(l, "(cherry picked from commit ") {
			generated = true
			trailerLines++
			continue
		}
		k, v, ok := splitTrailer(l)
		if !ok {
			other++
			continue
		}
		if strings.EqualFold(k, "Signed-off-by") {
			generated = true
		}
		trailerLines++
		out = append(out, Trailer{k, v})
	}
	if other == 0 || (generated && trailerLines*4 >= (trailerLines+other)) {
		return out
	}
	return nil
}

func splitTrailer(l string) (key, value string, ok bool) {
	i := strings.IndexByte(l, ':')
	if i <= 0 {
		return "", "", false
	}
	key = l[:i]
	for _, r := range key {
		if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "", "", false
		}
	}
	return key, strings.TrimSpace(l[i+1:]), true
}

// Value returns the last value of key (case-insensitive), or "".
func Value(ts []Trailer, key string) string {
	v := ""
	for _, t := range ts {
		if strings.EqualFold(t.Key, key) {
			v = t.Value
		}
	}
	return v
}

// Values returns every value of key (case-insensitive).
func Values(ts []Trailer, key string) []string {
	var vs []string
	for _, t := range ts {
		if strings.EqualFold(t.Key, key) {
			vs = append(vs, t.Value)
		}
	}
	return vs
}
