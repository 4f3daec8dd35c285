package cmdutil

import (
	"strings"
	"testing"
)

// queue list and show print what hooks and agents wrote into the queue
// files: a session id with an escape sequence or a newline (issue 40
// item 12) is shown escaped, never acted on by the terminal nor taken
// for a row of the table.
func TestTerminalSafe(t *testing.T) {
	for in, want := range map[string]string{
		"491e126e-1e71-469c-ade2-fcc8af567c74": "491e126e-1e71-469c-ade2-fcc8af567c74",
		"\x1b[2J\x1b[H":                        `\x1b[2J\x1b[H`,
		"s1\nq-forged\treview\tqueued":         `s1\nq-forged\treview\tqueued`,
		"a\u202eb":                             `a\u202eb`,
		"café":                                 "café",
	} {
		got := OrDash(in)
		if got != want {
			t.Errorf("OrDash(%q) = %q, want %q", in, got, want)
		}
		if strings.ContainsAny(got, "\x1b\n\t\r") {
			t.Errorf("OrDash(%q) = %q still holds a control character", in, got)
		}
	}
	if got := OneLine("failed: \x1b]0;pwned\x07 here"); got != `failed: \x1b]0;pwned\a here` {
		t.Errorf("oneLine: %q", got)
	}
}
