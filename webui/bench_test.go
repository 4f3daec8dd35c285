package webui

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
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

// BenchmarkOverviewAfterWrite is the overview's first request after main
// moved: before each request a patch of one skill lands on main (not
// timed, nor counted in cpu-ns/op), so what one request computed from
// main's old tip (ownership, the proposals' merge checks, the skill
// catalogue, the history index) is stale for the next.
func BenchmarkOverviewAfterWrite(b *testing.B) {
	dir := os.Getenv("SKILLREPO_UI_BENCH_LIB")
	if dir == "" {
		b.Skip("set SKILLREPO_UI_BENCH_LIB to a generated library (bash bench/ui.sh makes one)")
	}
	srv, err := New(Options{Root: dir})
	if err != nil {
		b.Fatal(err)
	}
	lib, err := skillrepo.Open(dir, skillrepo.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	pol, err := lib.Policy(skillrepo.Writer{})
	if err != nil {
		b.Fatal(err)
	}
	skills, err := lib.Snapshot("")
	if err != nil {
		b.Fatal(err)
	}
	all, err := skills.Skills()
	if err != nil || len(all) == 0 {
		b.Fatalf("no skills: %v", err)
	}
	name := all[len(all)/3].Name
	marker := fmt.Sprintf("bench-marker-%d", time.Now().UnixNano())
	add := "\n" + marker + "-0\n"
	if _, err := pol.Apply(context.Background(), []skillrepo.Op{{Action: skillrepo.ActionWriteFile, Name: name, FilePath: "references/bench-write.md", FileContent: &add}}, false); err != nil {
		b.Fatal(err)
	}
	get := func() {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = "127.0.0.1:1"
		r.AddCookie(&http.Cookie{Name: CookieName, Value: srv.Token()})
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("GET /: %d %s", w.Code, w.Body)
		}
	}
	get()
	var cpu time.Duration
	for i := 1; b.Loop(); i++ {
		b.StopTimer()
		text := fmt.Sprintf("\n%s-%d\n", marker, i)
		if _, err := pol.Apply(context.Background(), []skillrepo.Op{{Action: skillrepo.ActionWriteFile, Name: name, FilePath: "references/bench-write.md", FileContent: &text}}, false); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c := cpuTime()
		get()
		cpu += cpuTime() - c
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}
