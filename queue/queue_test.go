package queue

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func newStore(t *testing.T) (*Store, *time.Time) {
	t.Helper()
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s := &Store{Dir: filepath.Join(t.TempDir(), "queue")}
	s.Now = func() time.Time { return now }
	return s, &now
}

// A second request for a session that still waits merges into its slot:
// the union of what is due, the newest transcript, the first enqueue time.
func TestEnqueueMergesPerSession(t *testing.T) {
	s, now := newStore(t)
	a, merged, err := s.Enqueue(Entry{Kind: KindReview, SessionID: "s1", Transcript: "/t/1.jsonl", Due: Due{Memory: true}})
	if err != nil || merged {
		t.Fatalf("first enqueue: merged=%v err=%v", merged, err)
	}
	*now = now.Add(time.Minute)
	b, merged, err := s.Enqueue(Entry{Kind: KindReview, SessionID: "s1", Transcript: "/t/2.jsonl", Due: Due{Skills: true, Final: true}})
	if err != nil || !merged {
		t.Fatalf("second enqueue: merged=%v err=%v", merged, err)
	}
	if b.ID != a.ID || !b.Due.Memory || !b.Due.Skills || !b.Due.Final || b.Transcript != "/t/2.jsonl" || !b.EnqueuedAt.Equal(a.EnqueuedAt) {
		t.Fatalf("merged entry = %+v", b)
	}
	// Another session and another kind get their own entries.
	if _, merged, _ := s.Enqueue(Entry{Kind: KindReview, SessionID: "s2"}); merged {
		t.Error("another session merged")
	}
	if _, merged, _ := s.Enqueue(Entry{Kind: KindCurator}); merged {
		t.Error("a curator run merged into a review")
	}
	all, err := s.List()
	if err != nil || len(all) != 3 {
		t.Fatalf("List = %d entries, %v", len(all), err)
	}
	// A claimed entry is not merged into: the next request waits anew.
	if _, err := s.Claim(a.ID, "r-1"); err != nil {
		t.Fatal(err)
	}
	if _, merged, _ := s.Enqueue(Entry{Kind: KindReview, SessionID: "s1"}); merged {
		t.Error("merged into a running entry")
	}
}

func TestClaimRetryDrop(t *testing.T) {
	s, _ := newStore(t)
	e, _, err := s.Enqueue(Entry{Kind: KindReview, SessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Claim(e.ID[:10], "r-20261201-aaaaaa")
	if err != nil {
		t.Fatal(err)
	}
	if c.State != Running || c.Attempts != 1 || c.ReviewID != "r-20261201-aaaaaa" || len(c.ReviewIDs) != 1 {
		t.Fatalf("claimed = %+v", c)
	}
	if _, err := s.Claim(e.ID, "r-2"); err == nil {
		t.Error("a running entry was claimed twice")
	}
	if _, err := s.Retry(e.ID); err == nil {
		t.Error("a running entry was retried")
	}
	if _, err := s.Drop(e.ID, false); err == nil {
		t.Error("a running entry was dropped without force")
	}
	if _, err := s.Update(e.ID, func(e *Entry) error { e.State, e.LastError = Failed, "model down"; return nil }); err != nil {
		t.Fatal(err)
	}
	r, err := s.Retry(e.ID)
	if err != nil || r.State != Queued || r.Attempts != 0 || r.LastError != "model down" {
		t.Fatalf("Retry = %+v, %v", r, err)
	}
	if _, err := s.Drop(e.ID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(e.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get after drop: %v", err)
	}
}

// A file that does not parse is listed as corrupt, never run, and can be
// dropped; nothing else is touched.
func TestCorruptEntry(t *testing.T) {
	s, _ := newStore(t)
	if _, _, err := s.Enqueue(Entry{Kind: KindReview, SessionID: "ok"}); err != nil {
		t.Fatal(err)
	}
	bad := "q-20261201-100000-abcdef"
	if err := os.WriteFile(filepath.Join(s.Dir, bad+".json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	all, err := s.List()
	if err != nil || len(all) != 2 {
		t.Fatalf("List = %+v, %v", all, err)
	}
	got, _ := s.Get(bad)
	if got.State != Corrupt || got.LastError == "" {
		t.Fatalf("corrupt entry = %+v", got)
	}
	if _, err := s.Claim(bad, ""); err == nil {
		t.Error("a corrupt entry was claimed")
	}
	if _, err := s.Drop(bad, false); err != nil {
		t.Fatal(err)
	}
}

func TestGetAmbiguousPrefix(t *testing.T) {
	s, _ := newStore(t)
	for _, sess := range []string{"a", "b"} {
		if _, _, err := s.Enqueue(Entry{Kind: KindReview, SessionID: sess}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Get("q-2026"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("Get(prefix of two) = %v, want ErrAmbiguous", err)
	}
}

func TestPruneKeepsNewestDoneAndAllFailed(t *testing.T) {
	s, now := newStore(t)
	var ids []string
	for i := 0; i < 5; i++ {
		*now = now.Add(time.Second)
		e, _, err := s.Enqueue(Entry{Kind: KindReview, SessionID: string(rune('a' + i))})
		if err != nil {
			t.Fatal(err)
		}
		state := Done
		if i == 0 {
			state = Failed
		}
		if _, err := s.Update(e.ID, func(e *Entry) error { e.State = state; return nil }); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	if err := s.Prune(2); err != nil {
		t.Fatal(err)
	}
	all, _ := s.List()
	var got []string
	for _, e := range all {
		got = append(got, e.ID)
	}
	want := []string{ids[0], ids[3], ids[4]}
	if len(got) != len(want) {
		t.Fatalf("after prune: %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("after prune: %v, want %v", got, want)
		}
	}
}

// Hooks of many sessions enqueue at once: every request lands, in its
// own entry, and no file is half written.
func TestConcurrentEnqueue(t *testing.T) {
	s := New(t.TempDir())
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, _, err := s.Enqueue(Entry{Kind: KindReview, SessionID: string(rune('A' + i))}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	all, err := s.List()
	if err != nil || len(all) != 16 {
		t.Fatalf("List = %d, %v", len(all), err)
	}
	for _, e := range all {
		if e.State != Queued || e.Version != Version {
			t.Errorf("entry %+v", e)
		}
	}
}

// RequestInterrupt asks only running reviews that compete for a local
// model, once; a new claim starts without the request.
func TestRequestInterrupt(t *testing.T) {
	s, _ := newStore(t)
	mk := func(kind Kind, session string, claim, interruptible bool) Entry {
		t.Helper()
		e, _, err := s.Enqueue(Entry{Kind: kind, SessionID: session})
		if err != nil {
			t.Fatal(err)
		}
		if claim {
			if e, err = s.Claim(e.ID, "r-"+session); err != nil {
				t.Fatal(err)
			}
		}
		e, err = s.Update(e.ID, func(x *Entry) error { x.Interruptible = interruptible; return nil })
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	local := mk(KindReview, "local", true, true)
	mk(KindReview, "remote", true, false)
	mk(KindReview, "waiting", false, true)
	mk(KindCurator, "", true, true)
	asked, err := s.RequestInterrupt()
	if err != nil || len(asked) != 1 || asked[0].ID != local.ID || asked[0].InterruptRequested == nil {
		t.Fatalf("asked %+v, %v", asked, err)
	}
	if again, err := s.RequestInterrupt(); err != nil || len(again) != 0 {
		t.Errorf("asked twice: %+v %v", again, err)
	}
	// The worker puts it back; the next claim is a fresh attempt.
	if _, err := s.Update(local.ID, func(x *Entry) error { x.State, x.Interruptions = Queued, 1; return nil }); err != nil {
		t.Fatal(err)
	}
	e, err := s.Claim(local.ID, "r-2")
	if err != nil || e.InterruptRequested != nil || e.Interruptible || e.Interruptions != 1 {
		t.Errorf("claimed again: %+v %v", e, err)
	}
}
