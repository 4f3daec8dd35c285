package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillrepo/skillrepo/bench/genlib"
)

// benchLibrary generates a library of n skills of the given shape
// (genlib.ShapeUniform or genlib.ShapeReal) once per benchmark.
func benchLibrary(b *testing.B, n int, shape string) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "lib")
	o := genlib.Defaults()
	o.Skills, o.Categories, o.Shape = n, n/100, shape
	if _, err := genlib.Write(dir, o); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkCheck lints a generated 2,000-skill library (8,001 files)
// through os.DirFS (what the CLI uses) and through an os.Root's FS, which
// re-walks every path component on open. The whole-process comparison
// with reading the files is bench/lint.sh.
func BenchmarkCheck(b *testing.B) {
	const n = 2000
	dir := benchLibrary(b, n, genlib.ShapeUniform)
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	for _, tc := range []struct {
		name string
		fsys fs.FS
	}{{"DirFS", os.DirFS(dir)}, {"RootFS", root.FS()}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				rep, err := Check(tc.fsys, Options{})
				if err != nil || len(rep.Skills) != n || len(rep.Findings) != 0 {
					b.Fatalf("%v: %d skills, findings %v", err, len(rep.Skills), rep.Findings)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/skill")
		})
	}
}

// BenchmarkCheckReal lints 300 real-shaped skills (bench/genlib/real.go:
// large Markdown with tables, fenced code and links), where the Markdown
// scan is most of the time; profile it with
//
//	go test ./lint -run XXX -bench CheckReal -benchtime 3x -cpuprofile /tmp/cpu.out
func BenchmarkCheckReal(b *testing.B) {
	const n = 300
	fsys := os.DirFS(benchLibrary(b, n, genlib.ShapeReal))
	for b.Loop() {
		rep, err := Check(fsys, Options{})
		if err != nil || len(rep.Skills) != n {
			b.Fatalf("%v: %d skills", err, len(rep.Skills))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/skill")
}

// BenchmarkOneSkillFiles lints one skill holding n files in references/
// that nothing names (every one an orphan, the worst case: each must be
// looked up in what the texts name). The time per file must stay flat
// from 8,000 to 32,000 files: it grew with the square before (8k files
// 1.5 s, 32k 14.6 s).
//
//	go test ./lint -run XXX -bench OneSkillFiles -benchtime 3x
func BenchmarkOneSkillFiles(b *testing.B) {
	for _, n := range []int{8000, 32000} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "big")
			refs := filepath.Join(dir, "references")
			if err := os.MkdirAll(refs, 0o755); err != nil {
				b.Fatal(err)
			}
			md := "---\nname: big\ndescription: Use when testing a skill with many files.\n---\nRead references/f1.md.\n"
			if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
				b.Fatal(err)
			}
			for k := 1; k <= n; k++ {
				body := fmt.Sprintf("# Note %d\n\nSee also notes/f%d.md.\n", k, k+n)
				if err := os.WriteFile(filepath.Join(refs, fmt.Sprintf("f%d.md", k)), []byte(body), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			fsys := os.DirFS(dir)
			b.ResetTimer()
			for b.Loop() {
				rep, err := Check(fsys, Options{RootName: "big"})
				if err != nil || len(hits(rep, "file-orphan")) != n-1 {
					b.Fatalf("%v: %d orphans, want %d", err, len(hits(rep, "file-orphan")), n-1)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/file")
		})
	}
}
