package usage

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func kinds(evs []HistoryEvent) string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Kind+":"+e.Skill)
	}
	return strings.Join(out, " ")
}

func testHistory(t *testing.T, max int64) *History {
	t.Helper()
	clock := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	return &History{path: filepath.Join(t.TempDir(), "usage", historyName), max: max, now: func() time.Time {
		clock = clock.Add(time.Minute)
		return clock
	}}
}

// TestUsageHistoryTornAndForeignLines: a torn last line (a writer killed
// mid-write), a foreign overlong line and junk are skipped by readers, and
// the next append starts on a line of its own.
func TestUsageHistoryTornAndForeignLines(t *testing.T) {
	h := testHistory(t, maxHistoryFile)
	if err := h.Append(HistoryEvent{Kind: HistoryLoad, Skill: "a"}); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	long := `{"kind":"load","skill":"` + strings.Repeat("x", 3*maxHistoryLine) + `"}`
	fmt.Fprintf(f, "not json\n%s\n{\"time\":\"2026-12-01T00:00:00Z\",\"kind\":\"lo", long)
	f.Close()
	evs, err := h.Read(HistoryFilter{})
	if err != nil || kinds(evs) != "load:a" {
		t.Fatalf("read with a torn last line: %s, %v", kinds(evs), err)
	}
	if err := h.Append(HistoryEvent{Kind: HistoryPatch, Skill: "b"}); err != nil {
		t.Fatal(err)
	}
	evs, err = h.Read(HistoryFilter{})
	if err != nil || kinds(evs) != "load:a patch:b" {
		t.Fatalf("after the next append: %s, %v", kinds(evs), err)
	}
}

// TestUsageHistoryBounded: the history rotates at its cap and keeps two
// generations, a read returns the newest events, and a hostile field is
// clipped so every line stays under maxHistoryLine.
func TestUsageHistoryBounded(t *testing.T) {
	const max = 4096
	h := testHistory(t, max)
	for i := range 200 {
		if err := h.Append(HistoryEvent{Kind: HistoryUse, Skill: fmt.Sprintf("s%03d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{h.path, h.rotated()} {
		fi, err := os.Stat(p)
		if err != nil || fi.Size() > max {
			t.Fatalf("%s: %v, %v bytes (cap %d)", p, err, fi, max)
		}
	}
	evs, err := h.Read(HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) == 0 || len(evs) >= 200 || evs[len(evs)-1].Skill != "s199" {
		t.Fatalf("read %d events, last %+v", len(evs), evs[len(evs)-1])
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Skill <= evs[i-1].Skill {
			t.Fatalf("out of order at %d: %s after %s", i, evs[i].Skill, evs[i-1].Skill)
		}
	}
	if last, err := h.Read(HistoryFilter{Limit: 3}); err != nil || kinds(last) != "use:s197 use:s198 use:s199" {
		t.Fatalf("limit 3: %s %v", kinds(last), err)
	}
	if since, err := h.Read(HistoryFilter{Since: evs[len(evs)-1].Time}); err != nil || len(since) != 1 {
		t.Fatalf("since the last: %d %v", len(since), err)
	}

	h = testHistory(t, maxHistoryFile)
	huge := strings.Repeat("é", 1<<20)
	if err := h.Append(HistoryEvent{Kind: HistoryGoal, Session: huge, Detail: huge + "\n" + huge, Outcome: huge}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(h.path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) >= maxHistoryLine || bytes.Count(b, []byte("\n")) != 1 {
		t.Fatalf("line of %d bytes, %d newlines", len(b), bytes.Count(b, []byte("\n")))
	}
	if evs, err := h.Read(HistoryFilter{}); err != nil || len(evs) != 1 || !strings.HasSuffix(evs[0].Session, "…") {
		t.Fatalf("clipped event: %v %v", evs, err)
	}
}

// TestUsageHistoryRefusesNonRegular: a history path that is a symlink or
// a FIFO is refused, not followed nor blocked on.
func TestUsageHistoryRefusesNonRegular(t *testing.T) {
	h := testHistory(t, maxHistoryFile)
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, h.path); err != nil {
		t.Fatal(err)
	}
	if err := h.Append(HistoryEvent{Kind: HistoryUse}); err == nil {
		t.Error("append through a symlink: no error")
	}
	if _, err := h.Read(HistoryFilter{}); err == nil {
		t.Error("read through a symlink: no error")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("symlink target changed: %q", b)
	}
}
