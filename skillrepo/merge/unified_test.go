package merge

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// gitUnified returns git diff's hunks of a to b, without the file header.
func gitUnified(t *testing.T, a, b string, context int) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a": a, "b": b})
	cmd := gitCmd(t, dir, "-c", "diff.indentHeuristic=false", "diff", "--no-index", "--no-color", "-U"+strconv.Itoa(context), "a", "b")
	out, _ := cmd.Output() // exit 1 means "differences found"
	s := string(out)
	i := strings.Index(s, "\n@@ ")
	if i < 0 {
		return ""
	}
	return s[i+1:]
}

func TestUnified(t *testing.T) {
	long := strings.Repeat("x\n", 3)
	tests := []struct{ name, a, b string }{
		{"one change", skill, strings.Replace(skill, "2. read all pages", "2. read every page", 1)},
		{"two changes far apart", skill, strings.Replace(strings.Replace(skill, "name: pdf-extract", "name: pdf", 1), "- encrypted files need a password", "- encrypted", 1)},
		{"changes exactly 2*context apart share a hunk", "a\n1\n2\n3\n4\n5\n6\nb\n", "A\n1\n2\n3\n4\n5\n6\nB\n"},
		{"changes 2*context+1 apart are separate hunks", "a\n1\n2\n3\n4\n5\n6\n7\nb\n", "A\n1\n2\n3\n4\n5\n6\n7\nB\n"},
		{"added file", "", "new\nfile\n"},
		{"deleted file", "old\nfile\n", ""},
		{"insertion at start", long, "new\n" + long},
		{"no newline at end, both", "a\nb", "a\nc"},
		{"newline added at end", "a\nb", "a\nb\n"},
		{"newline removed at end", "a\nb\n", "a\nb"},
		{"function name from an earlier line", "name:\n  x\n  y\n  z\n  w\n  v\n", "name:\n  x\n  y\n  z\n  w\n  V\n"},
		{"function name cut at 80 bytes", strings.Repeat("L", 90) + " \n1\n2\n3\n4\n", strings.Repeat("L", 90) + " \n1\n2\n3\n4\n5\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Unified([]byte(tt.a), []byte(tt.b), 3)
			if err != nil {
				t.Fatal(err)
			}
			if want := gitUnified(t, tt.a, tt.b, 3); string(got) != want {
				t.Errorf("Unified =\n%s\ngit diff =\n%s", got, want)
			}
		})
	}
	if got, _ := Unified([]byte(skill), []byte(skill), 3); got != nil {
		t.Errorf("equal inputs give %q, want nil", got)
	}
}

// TestUnifiedMatchesGitRandom compares with git diff on random texts
// whenever the two line diffs agree (see sameDiffsAsGit), for contexts 0
// to 3.
func TestUnifiedMatchesGitRandom(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 20
	}
	r := rand.New(rand.NewPCG(3, 4))
	compared := 0
	for i := range n {
		aLines := randomLines(r, "abcdefgh", 14)
		a, b := strings.Join(aLines, ""), strings.Join(edit(r, aLines, "abcdefghij"), "")
		ctx := i % 4
		if !sameDiffAsGit(t, a, b) {
			continue
		}
		compared++
		got, err := Unified([]byte(a), []byte(b), ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := gitUnified(t, a, b, ctx); string(got) != want {
			t.Errorf("a %q b %q -U%d\nUnified =\n%s\ngit diff =\n%s", a, b, ctx, got, want)
		}
		added, deleted, err := DiffStat([]byte(a), []byte(b))
		if err != nil {
			t.Fatal(err)
		}
		if plus, minus := strings.Count("\n"+string(got), "\n+"), strings.Count("\n"+string(got), "\n-"); added != plus || deleted != minus {
			t.Errorf("DiffStat = +%d -%d, the diff shows +%d -%d", added, deleted, plus, minus)
		}
	}
	if compared < n*80/100 {
		t.Errorf("diffs agreed with git in only %d of %d cases", compared, n)
	}
}
