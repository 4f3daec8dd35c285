package skillrepo

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestUsageKeepsHermesRecords(t *testing.T) {
	dir := t.TempDir()
	// A record as Hermes writes it, with keys this version does not know.
	in := `{
  "old-skill": {"agent_created": true, "use_count": 3, "view_count": 1, "last_used_at": "2026-05-01T12:00:00.123456+00:00", "state": "stale", "sync": true, "future_field": {"x": 1}},
  "bogus": 7
}`
	os.WriteFile(filepath.Join(dir, UsageFile), []byte(in), 0o600)
	u := &Usage{path: filepath.Join(dir, UsageFile), now: func() time.Time { return time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC) }}
	recs, err := u.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := recs["old-skill"]
	if r == nil || !r.AgentCreated() || r.UseCount != 3 || r.State != StateStale {
		t.Fatalf("record = %+v", r)
	}
	if _, ok := recs["bogus"]; ok {
		t.Error("a non-object record was kept")
	}
	if got := r.LastActivity(); !got.Equal(time.Date(2026, 5, 1, 12, 0, 0, 123456000, time.UTC)) {
		t.Errorf("last activity = %v", got)
	}
	if err := u.BumpView("old-skill"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(u.path)
	for _, want := range []string{`"future_field": {`, `"sync": true`, `"agent_created": true`, `"view_count": 2`, `"use_count": 4`, `"last_viewed_at": "2026-11-30T00:00:00.000000+00:00"`} {
		if !strings.Contains(string(b), want) && !strings.Contains(strings.Join(strings.Fields(string(b)), ""), strings.Join(strings.Fields(want), "")) {
			t.Errorf("rewritten file lacks %s:\n%s", want, b)
		}
	}
	if fi, _ := os.Stat(u.path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v", fi.Mode())
	}
}

func TestUsageCorruptFileSetAside(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, UsageFile)
	os.WriteFile(p, []byte("{not json"), 0o600)
	u := &Usage{path: p, now: time.Now}
	recs, err := u.Load()
	if err != nil || len(recs) != 0 {
		t.Fatalf("load corrupt = %v, %v", recs, err)
	}
	if err := u.BumpUse("x"); err != nil {
		t.Fatal(err)
	}
	aside, _ := filepath.Glob(p + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("corrupt file not kept aside: %v", aside)
	}
	if b, _ := os.ReadFile(aside[0]); string(b) != "{not json" {
		t.Errorf("aside content = %q", b)
	}
	recs, _ = u.Load()
	if recs["x"] == nil || recs["x"].UseCount != 1 {
		t.Errorf("recs = %+v", recs)
	}
}

func TestUsageConcurrentBumpsLoseNothing(t *testing.T) {
	u := &Usage{path: filepath.Join(t.TempDir(), UsageFile), now: time.Now}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 10; k++ {
				if err := u.BumpUse("s"); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	recs, _ := u.Load()
	if recs["s"].UseCount != 80 {
		t.Errorf("use_count = %d, want 80", recs["s"].UseCount)
	}
}
