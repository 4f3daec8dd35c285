package webui

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
)

// The page benchmarks run on a generated library named by
// $SKILLREPO_UI_BENCH_LIB (bench/ui.sh makes one: 10,000 skills, 2,000
// commits, 1,000 proposals); without it they skip. Besides the wall time
// each reports cpu-ns/op, the process's CPU time per request (garbage
// collection included), which a loaded machine disturbs less.
func benchPage(b *testing.B, path string) {
	dir := os.Getenv("SKILLREPO_UI_BENCH_LIB")
	if dir == "" {
		b.Skip("set SKILLREPO_UI_BENCH_LIB to a generated library (bash bench/ui.sh makes one)")
	}
	srv, err := New(Options{Root: dir})
	if err != nil {
		b.Fatal(err)
	}
	get := func() {
		r := httptest.NewRequest("GET", path, nil)
		r.Host = "127.0.0.1:1"
		r.AddCookie(&http.Cookie{Name: CookieName, Value: srv.Token()})
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
		}
	}
	get() // the history index and owners cache are built once
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		get()
	}
	if cpu > 0 {
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkOverview(b *testing.B)     { benchPage(b, "/") }
func BenchmarkSkillList(b *testing.B)    { benchPage(b, "/skills") }
func BenchmarkSkillSearch(b *testing.B)  { benchPage(b, "/skills?q=skill-042") }
func BenchmarkProposalList(b *testing.B) { benchPage(b, "/proposals") }
