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
	addVendor(t, dir, env)
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
	patchTwice(t, l, env, func(int) { runtime.GC() })
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

// addVendor commits 7,000 files beside the library: an index of ~700 KB,
// past mmapIndexMin.
func addVendor(t *testing.T, dir string, env map[string]string) {
	t.Helper()
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
}

// A split index whose shared index is large: the shared index is mapped
// and the split's entries are kept beside it (Index.more), and writes
// leave a split index git reads as the same entries (git status, fsck,
// git ls-files -s against the merged index as we read it).
func TestPrefixMappedSharedIndex(t *testing.T) {
	l, env := newPrefixTestRepo(t)
	dir := l.Root
	addVendor(t, dir, env)
	gitIn(t, dir, env, false, "config", "core.splitIndex", "true")
	gitIn(t, dir, env, false, "update-index", "--split-index")
	l = openTestRepoAt(t, dir, testPrefix, env)
	patchTwice(t, l, env, func(i int) {
		l.indexCache = nil
		idx, _, err := l.ReadIndex()
		if err != nil {
			t.Fatal(err)
		}
		if idx.mapping == nil || idx.split == nil || idx.more == nil {
			t.Fatalf("write %d: the index is not a merged split index over a mapped shared index (mapping %v, split %v)", i, idx.mapping != nil, idx.split != nil)
		}
		if fi, err := os.Stat(l.indexPath()); err != nil || fi.Size() >= mmapIndexMin {
			t.Fatalf("write %d: .git/index is %d bytes (%v): no longer split", i, fi.Size(), err)
		}
		var ours []string
		idx.EachName("", func(n []byte) {
			e, _ := idx.lookup(string(n))
			ours = append(ours, fmt.Sprintf("%o %s 0\t%s", e.Mode, e.Hash, n))
		})
		theirs := strings.Split(strings.TrimSpace(gitIn(t, dir, env, false, "ls-files", "-s")), "\n")
		if len(ours) != len(theirs) {
			t.Fatalf("write %d: we read %d entries, git %d", i, len(ours), len(theirs))
		}
		for k := range ours {
			if ours[k] != theirs[k] {
				t.Fatalf("write %d: entry %d: we read %q, git %q", i, k, ours[k], theirs[k])
			}
		}
	})
}

// patchTwice makes two engine writes to the library, checks each with
// git (assertConsistent), then calls after with the write's number.
func patchTwice(t *testing.T, l *Repo, env map[string]string, after func(i int)) {
	t.Helper()
	for i, e := range []edit{
		{"ci-debugging/SKILL.md", "Pitfalls", "Traps"},
		{"ci-debugging/SKILL.md", "Traps", "Snags"},
	} {
		if _, err := patchFiles(l, e); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
		assertConsistent(t, l, env)
		after(i)
	}
}

func countNames(idx *Index) int {
	n := 0
	idx.EachName("", func([]byte) { n++ })
	return n
}
