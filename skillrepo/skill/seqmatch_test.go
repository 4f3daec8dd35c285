package skill

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestSeqMatcherMatchesPython checks ratio and opcodes against Python's
// own difflib.SequenceMatcher(None, a, b): testdata/python-seqmatcher.json
// is the output of testdata/python-seqmatcher.py, a quarter of its cases
// long enough (200+ characters) for autojunk to apply.
func TestSeqMatcherMatchesPython(t *testing.T) {
	data, err := os.ReadFile("testdata/python-seqmatcher.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Reference string
		Cases     []struct {
			A, B    string
			Ratio   float64
			Opcodes [][]any
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	long := 0
	for i, c := range doc.Cases {
		a, b := []rune(c.A), []rune(c.B)
		if len(b) >= 200 {
			long++
		}
		m := newSeqMatcher(a, b)
		if got := m.ratio(); got != c.Ratio {
			t.Errorf("case %d: ratio = %v, want %v\na %q\nb %q", i, got, c.Ratio, c.A, c.B)
		}
		got := [][]any{}
		for _, op := range m.opcodes() {
			got = append(got, []any{string(op.tag), op.i1, op.i2, op.j1, op.j2})
		}
		if g, w := mustJSON(t, got), mustJSON(t, c.Opcodes); g != w {
			t.Errorf("case %d: opcodes\n got %s\nwant %s", i, g, w)
		}
	}
	if !strings.HasPrefix(doc.Reference, "Python 3") || len(doc.Cases) < 90 || long < 20 {
		t.Fatalf("testdata from %q has %d cases, %d long", doc.Reference, len(doc.Cases), long)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
