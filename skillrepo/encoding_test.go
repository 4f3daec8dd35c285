package skillrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A SKILL.md that is not UTF-8, has a BOM or CRLF line ends is handled,
// never a crash: invalid UTF-8 is refused, BOM and CRLF are accepted.
func TestEncodings(t *testing.T) {
	l, _ := newTestLibrary(t)
	ctx := context.Background()
	cases := []struct {
		name, content string
		ok            bool
	}{
		{"bom-skill", "\ufeff---\nname: bom-skill\ndescription: Use when testing BOMs.\n---\nbody\n", true},
		{"crlf-skill", "---\r\nname: crlf-skill\r\ndescription: Use when testing CRLF.\r\n---\r\nbody\r\n", true},
		{"latin1-skill", "---\nname: latin1-skill\ndescription: caf\xe9\n---\nbody\n", false},
	}
	for _, c := range cases {
		content := c.content
		_, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionCreate, Name: c.name, Content: &content}}})
		if (err == nil) != c.ok {
			t.Errorf("%s: err = %v, want ok=%v", c.name, err, c.ok)
		}
	}
	if b, err := os.ReadFile(filepath.Join(l.Root, "crlf-skill", "SKILL.md")); err != nil || !strings.Contains(string(b), "\r\n") {
		t.Errorf("CRLF content not kept byte for byte: %q %v", b, err)
	}
}
