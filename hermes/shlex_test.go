package hermes

import (
	"slices"
	"testing"
)

// TestSplitAndQuoteAsPython: Python's shlex.split and shlex.quote gave
// these (Hermes splits a hook command with the first).
func TestSplitAndQuoteAsPython(t *testing.T) {
	splits := []struct {
		in   string
		want []string
	}{
		{"a b c", []string{"a", "b", "c"}},
		{"/x/skillrepo hooks run hermes post_tool_call --library /home/u/.hermes/skills", []string{"/x/skillrepo", "hooks", "run", "hermes", "post_tool_call", "--library", "/home/u/.hermes/skills"}},
		{`'/a b/c' --x 'it'"'"'s'`, []string{"/a b/c", "--x", "it's"}},
		{`"dq \$x \a" tail`, []string{`dq \$x \a`, "tail"}},
		{`a\ b`, []string{"a b"}},
		{`''`, []string{""}},
	}
	for _, tt := range splits {
		if got, err := Split(tt.in); err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Split(%q) = %q %v, want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`'open`, `"open`, `trailing\`} {
		if _, err := Split(bad); err == nil {
			t.Errorf("Split(%q) accepted", bad)
		}
	}
	quotes := [][2]string{{"/x/y", "/x/y"}, {"/a b/c", "'/a b/c'"}, {"it's", `'it'"'"'s'`}, {"", "''"}, {"a@b%c+d=e:f,g.h/i-j_k", "a@b%c+d=e:f,g.h/i-j_k"}, {"é", "'é'"}}
	for _, q := range quotes {
		if got := Quote(q[0]); got != q[1] {
			t.Errorf("Quote(%q) = %q, want %q", q[0], got, q[1])
		}
		if w, err := Split(Quote(q[0])); err != nil || len(w) != 1 || w[0] != q[0] {
			t.Errorf("Split(Quote(%q)) = %q %v", q[0], w, err)
		}
	}
}
