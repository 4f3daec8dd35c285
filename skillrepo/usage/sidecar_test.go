package usage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testenv"
)

func TestUsageKeepsHermesRecords(t *testing.T) {
	dir := t.TempDir()
	// A record as Hermes writes it, with keys this version does not know.
	in := `{
  "old-skill": {"agent_created": true, "use_count": 3, "view_count": 1, "last_used_at": "2026-05-01T12:00:00.123456+00:00", "state": "stale", "sync": true, "future_field": {"x": 1}},
  "bogus": 7
}`
	os.WriteFile(filepath.Join(dir, File), []byte(in), 0o600)
	u := &Sidecar{path: filepath.Join(dir, File), now: func() time.Time { return time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC) }}
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
	p := filepath.Join(dir, File)
	os.WriteFile(p, []byte("{not json"), 0o600)
	u := &Sidecar{path: p, now: time.Now}
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
	u := &Sidecar{path: filepath.Join(t.TempDir(), File), now: time.Now}
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

// TestUsageNamedUpdateWritesWhatUpdateWrites: the single-record writes
// (a counted use, a patch, a state change, a forget) decode only their
// records, and must leave exactly the file a whole-sidecar Update leaves.
func TestUsageNamedUpdateWritesWhatUpdateWrites(t *testing.T) {
	at := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	seed := func(t *testing.T) *Sidecar {
		u := &Sidecar{path: filepath.Join(t.TempDir(), File), now: func() time.Time { return at }}
		err := u.Update(func(recs map[string]*Record) error {
			for i := range 50 {
				r := NewRecord(at.Add(-time.Duration(i) * time.Hour))
				r.UseCount = i
				if i%7 == 0 {
					r.Extra = map[string]json.RawMessage{"future_field": json.RawMessage(`{"x":[1,2]}`), "note": json.RawMessage(`"a <b> & c"`)}
				}
				recs[fmt.Sprintf("skill-%02d", i)] = r
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	now := FormatTime(at)
	bump := func(recs map[string]*Record) error {
		r := recs["skill-07"]
		r.UseCount++
		r.LastUsedAt = now
		return nil
	}
	patch := func(r *Record) { r.PatchCount++; r.PatchGeneration++; r.LastPatchedAt = now }
	for _, tc := range []struct {
		name  string
		named func(u *Sidecar) error
		whole func(recs map[string]*Record) error // the same change, with every record decoded
	}{
		{"bump", func(u *Sidecar) error { return u.updateNamed([]string{"skill-07"}, bump) }, bump},
		{"use once", func(u *Sidecar) error { _, err := u.BumpOnce("skill-07", true, "toolu_1"); return err }, func(recs map[string]*Record) error {
			r := recs["skill-07"]
			r.UseCount, r.ViewCount, r.LastUsedAt, r.LastViewedAt = r.UseCount+1, r.ViewCount+1, now, now
			r.Extra = map[string]json.RawMessage{"future_field": json.RawMessage(`{"x":[1,2]}`), "note": json.RawMessage(`"a <b> & c"`), useKeysKey: json.RawMessage(`["toolu_1"]`)}
			return nil
		}},
		{"patch two, one new", func(u *Sidecar) error { return u.BumpPatch("skill-03", "brand-new") }, func(recs map[string]*Record) error {
			recs["brand-new"] = NewRecord(at)
			patch(recs["skill-03"])
			patch(recs["brand-new"])
			return nil
		}},
		{"archive", func(u *Sidecar) error { return u.SetState("skill-14", StateArchived) }, func(recs map[string]*Record) error {
			recs["skill-14"].State, recs["skill-14"].ArchivedAt = StateArchived, now
			return nil
		}},
		{"forget", func(u *Sidecar) error { return u.Forget("skill-21") }, func(recs map[string]*Record) error { delete(recs, "skill-21"); return nil }},
		{"forget absent", func(u *Sidecar) error { return u.Forget("nobody") }, func(map[string]*Record) error { return nil }},
		{"forget the last", func(u *Sidecar) error {
			for i := range 50 {
				if err := u.Forget(fmt.Sprintf("skill-%02d", i)); err != nil {
					return err
				}
			}
			return nil
		}, func(recs map[string]*Record) error { clear(recs); return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			named, whole := seed(t), seed(t)
			if err := tc.named(named); err != nil {
				t.Fatal(err)
			}
			if err := whole.Update(tc.whole); err != nil {
				t.Fatal(err)
			}
			a, _ := os.ReadFile(named.path)
			b, _ := os.ReadFile(whole.path)
			if !bytes.Equal(a, b) {
				t.Fatalf("named update wrote\n%s\nwhole update wrote\n%s", a, b)
			}
		})
	}
}

// TestUsageNamedUpdateKeepsOthersAsRead: a record another program wrote
// (its own key order and layout, keys we do not know) is not rewritten by
// a write to another record.
func TestUsageNamedUpdateKeepsOthersAsRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), File)
	in := `{"theirs": {"use_count": 3, "agent_created": true, "zzz": [1, 2]}, "ours": {"use_count": 1}}`
	os.WriteFile(p, []byte(in), 0o600)
	u := &Sidecar{path: p, now: time.Now}
	if err := u.BumpUse("ours"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if !strings.Contains(string(b), `"theirs": {"use_count": 3, "agent_created": true, "zzz": [1, 2]}`) {
		t.Errorf("the other record was rewritten:\n%s", b)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	recs, _ := u.Load()
	if recs["ours"].UseCount != 2 || recs["theirs"].UseCount != 3 {
		t.Errorf("recs = %+v %+v", recs["ours"], recs["theirs"])
	}
}

// BenchmarkRecordUseSidecar is the sidecar's part of a counted use (the
// PostToolUse hook) on libraries of 1,000 and 10,000 records.
func BenchmarkRecordUseSidecar(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			u := &Sidecar{path: filepath.Join(b.TempDir(), File), now: time.Now}
			if err := u.Update(func(recs map[string]*Record) error {
				for i := range n {
					r := NewRecord(time.Now())
					r.UseCount = 3
					recs[fmt.Sprintf("skill-%05d", i)] = r
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := u.BumpOnce(fmt.Sprintf("skill-%05d", i%n), true, fmt.Sprint("toolu_", i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzUsageSidecar: whatever .usage.json holds, loading it never panics.
func FuzzUsageSidecar(f *testing.F) {
	f.Add([]byte(`{"a":{"use_count":1,"created_by":"agent"}}`))
	f.Add([]byte(`{"a":{"use_count":"x"}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), File)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		u := &Sidecar{path: p, now: time.Now}
		u.Load()
	})
}

// A sidecar that is a FIFO or a link to /dev/zero is refused at once, not
// waited on or read without end.
func TestUsageSidecarNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := testenv.Mkfifo(fifo); err != nil {
		t.Skip(err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, zero} {
		done := make(chan error, 1)
		go func() {
			_, err := (&Sidecar{path: p, now: time.Now}).Load()
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: loaded", p)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Load hangs", p)
		}
	}
}
