package indexfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillrepo/skillrepo/overlap"
)

func doc(key, name string, terms ...string) overlap.Doc {
	d := overlap.Doc{Key: key, Name: name}
	for _, t := range terms {
		d.Terms = append(d.Terms, overlap.TermCount{Term: t, Count: 1})
	}
	return d
}

// An index built and saved opens at its tree; a move saved as a delta
// is applied by the next open; a file that is not ours, or cut short, is
// not opened (the domain rebuilds it).
func TestBuildMoveOpen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "overlap.bin")
	t1, t2 := Tree{1}, Tree{2}
	st, err := Build(p, t1, []overlap.Doc{doc("a", "a", "docker", "compose"), doc("b", "b", "git", "bisect")}, true)
	if err != nil || st.Len() != 2 {
		t.Fatalf("build: %v, %d docs", err, st.Len())
	}
	x := Open(p, 1<<20)
	if x == nil || x.Tree() != t1 || x.Stored().Len() != 2 || !x.Stored().Has("a") {
		t.Fatalf("open after build: %+v", x)
	}
	if err := x.Move(t2, []string{"a"}, []overlap.Doc{doc("c", "c", "kubernetes")}, true); err != nil {
		t.Fatal(err)
	}
	y := Open(p, 1<<20)
	if y == nil || y.Tree() != t2 || y.Stored().Has("a") || !y.Stored().Has("c") || !y.Stored().Has("b") {
		t.Fatalf("open after a move: %+v", y)
	}

	// Over the size limit, cut short, or another format: not opened.
	if Open(p, 10) != nil {
		t.Error("a file over the limit was opened")
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"cut": b[:headSize-1], "foreign": append([]byte("not ours\n"), b...)} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if Open(p, 1<<20) != nil {
			t.Errorf("%s: opened", name)
		}
	}
}
