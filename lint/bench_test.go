package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillrepo/skillrepo/bench/genlib"
)

// benchLibrary generates a library of n skills once per benchmark.
func benchLibrary(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "lib")
	o := genlib.Defaults()
	o.Skills, o.Categories = n, n/100
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
	dir := benchLibrary(b, n)
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
