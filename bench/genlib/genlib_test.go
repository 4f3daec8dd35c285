package genlib_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillrepo/skillrepo/bench/genlib"
	"github.com/skillrepo/skillrepo/lint"
)

func collect(t *testing.T, o genlib.Options) []genlib.File {
	t.Helper()
	var files []genlib.File
	if err := genlib.Files(o, func(f genlib.File) error { files = append(files, f); return nil }); err != nil {
		t.Fatal(err)
	}
	return files
}

func TestFilesDeterministic(t *testing.T) {
	o := genlib.Options{Skills: 20, Categories: 3, Support: 5, BodyLines: 40, Seed: 7}
	a, b := collect(t, o), collect(t, o)
	if len(a) != 1+20*6 || len(a) != len(b) {
		t.Fatalf("%d and %d files, want %d", len(a), len(b), 1+20*6)
	}
	for k := range a {
		if a[k].Path != b[k].Path || !bytes.Equal(a[k].Data, b[k].Data) {
			t.Fatalf("file %d differs between runs: %s", k, a[k].Path)
		}
	}
	o.Seed = 8
	c := collect(t, o)
	if bytes.Equal(a[1].Data, c[1].Data) {
		t.Error("another seed gave the same SKILL.md")
	}
	if got := genlib.SkillDir(4, o); got != "cat-001/skill-00004" {
		t.Errorf("SkillDir = %s", got)
	}
	if got := genlib.SkillDir(4, genlib.Options{}); got != "skill-00004" {
		t.Errorf("flat SkillDir = %s", got)
	}
}

// TestWriteLintsClean checks that the generated library is what the lint
// benchmark assumes: valid skills whose support files are all linked, and
// exactly the dangling links asked for.
func TestWriteLintsClean(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	o := genlib.Options{Skills: 30, Categories: 0, Support: 4, BodyLines: 30, DanglingEvery: 10, Seed: 1}
	st, err := genlib.Write(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Skills != 30 || st.Files != 1+30*5 {
		t.Fatalf("stats %+v", st)
	}
	if _, err := genlib.Write(dir, o); err == nil {
		t.Error("Write into an existing folder succeeded")
	}
	rep, err := lint.Check(os.DirFS(dir), lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skills) != 30 || len(rep.Findings) != 3 {
		t.Fatalf("%d skills, findings %+v", len(rep.Skills), rep.Findings)
	}
	for _, f := range rep.Findings {
		if f.Rule != "link-dangling" {
			t.Errorf("unexpected finding %+v", f)
		}
	}
}

// TestRealShapeLintsClean checks the real-shaped library: varied sizes,
// nested folders, imports, and every support file reached, so lint finds
// no dangling reference or orphan beyond the planted ones.
func TestRealShapeLintsClean(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	o := genlib.Options{Skills: 60, Categories: 3, DanglingEvery: 20, Seed: 1, Shape: genlib.ShapeReal}
	st, err := genlib.Write(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Skills != 60 || st.Files < 60*3 {
		t.Fatalf("stats %+v: want 60 skills with support files", st)
	}
	again := collect(t, o)
	if len(again) != st.Files {
		t.Fatalf("Files gave %d files, Write %d", len(again), st.Files)
	}
	rep, err := lint.Check(os.DirFS(dir), lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dangling := 0
	for _, f := range rep.Findings {
		switch f.Rule {
		case "body-too-long", "body-too-many-tokens":
		case "link-dangling":
			dangling++
		default:
			t.Errorf("unexpected finding %+v", f)
		}
	}
	if len(rep.Skills) != 60 || dangling != 3 {
		t.Errorf("%d skills, %d dangling links; want 60 and 3", len(rep.Skills), dangling)
	}
}
