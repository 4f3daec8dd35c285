package skillrepo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/history"
)

// Benchmarks on a generated library (bench/histgen); set
// SKILLREPO_BENCH_LIB to its folder and SKILLREPO_BENCH_SKILL to the hot
// skill (default hot-tool). bench/history.sh runs them side by side with
// git.
func benchLibrary(b *testing.B) (*Library, string) {
	b.Helper()
	dir := os.Getenv("SKILLREPO_BENCH_LIB")
	if dir == "" {
		b.Skip("SKILLREPO_BENCH_LIB not set (see bench/history.sh)")
	}
	l, err := Open(dir, OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.repo.Close() })
	name := os.Getenv("SKILLREPO_BENCH_SKILL")
	if name == "" {
		name = "hot-tool"
	}
	return l, name
}

func dropHistoryCache(b *testing.B, l *Library) {
	b.Helper()
	os.RemoveAll(filepath.Join(l.repo.StateDir(), "cache"))
}

func BenchmarkSkillLogCold(b *testing.B) {
	l, name := benchLibrary(b)
	for b.Loop() {
		b.StopTimer()
		dropHistoryCache(b, l)
		b.StartTimer()
		if _, err := l.History().Log(name, history.LogOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSkillLogWarm(b *testing.B) {
	l, name := benchLibrary(b)
	if _, err := l.History().Log(name, history.LogOptions{}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := l.History().Log(name, history.LogOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSkillBlameWarm(b *testing.B) {
	l, name := benchLibrary(b)
	if _, err := l.History().Log(name, history.LogOptions{}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := l.History().Blame(name, "", history.BlameOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOwnersWarmHistory(b *testing.B) {
	l, _ := benchLibrary(b)
	if _, err := l.Owners().At(""); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		os.Remove(l.ownersCachePath())
		if _, err := l.Owners().At(""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSkillBlameCold(b *testing.B) {
	l, name := benchLibrary(b)
	for b.Loop() {
		b.StopTimer()
		dropHistoryCache(b, l)
		b.StartTimer()
		if _, err := l.History().Blame(name, "", history.BlameOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
