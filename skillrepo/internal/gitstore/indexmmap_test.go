package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A project whose index is large enough to be mapped (indexmmap.go): every
// write leaves what git expects, an index read before a write stays
// readable after it (its mapping is kept by the index, not the file), and
// a mapping no index uses any more is released.
func TestPrefixMappedIndex(t *testing.T) {
	l, env := newPrefixTestRepo(t)
	dir := l.Root
	for i := 0; i < 7000; i++ {
		p := filepath.Join(dir, "vendor", fmt.Sprintf("mod%02d", i/500), fmt.Sprintf("file%05d-with-a-longer-name.go", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package vendor\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, env, false, "add", "vendor")
	gitIn(t, dir, env, false, "commit", "-q", "-m", "vendor", "--", "vendor")
	fi, err := os.Stat(l.indexPath())
	if err != nil || fi.Size() < mmapIndexMin {
		t.Fatalf("index of %d bytes (%v): the test needs one of at least %d", fi.Size(), err, mmapIndexMin)
	}
	l = openTestRepoAt(t, dir, testPrefix, env)

	old, _, err := l.ReadIndex()
	if err != nil {
		t.Fatal(err)
	}
	if old.mapping == nil {
		t.Fatal("an index of this size was read, not mapped")
	}
	oldNames := countNames(old)
	for i, e := range []edit{
		{"ci-debugging/SKILL.md", "Pitfalls", "Traps"},
		{"ci-debugging/SKILL.md", "Traps", "Snags"},
	} {
		if _, err := patchFiles(l, e); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
		assertConsistent(t, l, env)
		runtime.GC()
	}
	// The index read before the writes is of a file renamed away twice;
	// its mapping is still there because old holds it.
	l.indexCache = nil
	runtime.GC()
	runtime.GC()
	if got := countNames(old); got != oldNames {
		t.Errorf("the old index lists %d names after the writes, %d before", got, oldNames)
	}
	if e, ok := old.lookup(".claude/skills/ci-debugging/SKILL.md"); !ok || e.Hash.IsZero() {
		t.Errorf("lookup in the old index: %v %v", e, ok)
	}
	runtime.KeepAlive(old)

	// Once nothing holds them, the mappings of the replaced index files
	// are released (on Linux, /proc/self/maps lists a mapped file that was
	// renamed over as "(deleted)").
	if runtime.GOOS != "linux" {
		return
	}
	old = nil
	deleted := func() int {
		b, err := os.ReadFile("/proc/self/maps")
		if err != nil {
			t.Skip(err)
		}
		n := 0
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, dir) && strings.HasSuffix(line, "(deleted)") {
				n++
			}
		}
		return n
	}
	deadline := time.Now().Add(5 * time.Second)
	for deleted() > 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := deleted(); n > 0 {
		t.Errorf("%d mappings of replaced index files are still there", n)
	}
}

func countNames(idx *Index) int {
	n := 0
	idx.EachName("", func([]byte) { n++ })
	return n
}
