package overlap

import (
	"testing"
	"time"
)

// reportCPU adds cpu-ms/op to a benchmark's numbers.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// benchLibrary is 10,000 skills: the filler's long tail (bodies of about
// 1.5 KB from a Zipf vocabulary of 20,000 words) with the planted
// families in it.
func benchLibrary(n int) []Skill {
	return append(filler(n, 11), skillsOf(dockerCleanup, pgBloat, gateway, prFamily, falseFriends)...)
}

// BenchmarkFind10k is `curator overlap` without git: tokenise, index and
// cluster 10,000 skills.
func BenchmarkFind10k(b *testing.B) {
	lib := benchLibrary(10000)
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		if cs := Find(lib, Options{}); len(cs) == 0 {
			b.Fatal("no clusters")
		}
	}
}

// BenchmarkNewIndex10k is the index alone: what a write-time check builds
// when it has no index kept.
func BenchmarkNewIndex10k(b *testing.B) {
	lib := benchLibrary(10000)
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		NewIndex(lib)
	}
}

// BenchmarkQuery10k is the write-time check on a built index: one new
// skill against 10,000.
func BenchmarkQuery10k(b *testing.B) {
	ix := NewIndex(benchLibrary(10000))
	q := skillsOf(dockerCleanup)[1]
	q.Name = "docker-space-reclaim"
	b.ResetTimer()
	for b.Loop() {
		if m := ix.Query(q, DefaultThreshold); len(m) == 0 {
			b.Fatal("the copy was not found")
		}
	}
}
