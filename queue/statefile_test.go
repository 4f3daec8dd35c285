package queue

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testenv"
)

// An entry file that is a FIFO, or a link to /dev/zero, must not hang or
// fill the memory of queue list, status or the worker: each is listed as
// a corrupt entry saying why, and the other entries still list.
func TestListSurvivesNonRegularEntries(t *testing.T) {
	s := New(t.TempDir())
	good, _, err := s.Enqueue(Entry{Kind: KindReview, SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(s.Dir, "q-20260101-000000-aaaaaa.json")
	if err := testenv.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(s.Dir, "q-20260101-000001-bbbbbb.json")); err != nil {
		t.Fatal(err)
	}
	done := make(chan []Entry, 1)
	go func() {
		entries, err := s.List()
		if err != nil {
			t.Error(err)
		}
		done <- entries
	}()
	select {
	case entries := <-done:
		states := map[string]State{}
		for _, e := range entries {
			states[e.ID] = e.State
		}
		if states["q-20260101-000000-aaaaaa"] != Corrupt || states["q-20260101-000001-bbbbbb"] != Corrupt || states[good.ID] != Queued {
			t.Errorf("states = %v", states)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("queue list hangs on a FIFO entry")
	}
}

// FuzzEntryFile: whatever an entry file holds, reading it never panics;
// a file that does not parse is a corrupt entry, never an error that
// stops the listing.
func FuzzEntryFile(f *testing.F) {
	f.Add([]byte(`{"version":1,"id":"q-20260101-000000-abcdef","kind":"review","state":"pending"}`))
	f.Add([]byte(`{"id":"q-20260101-000000-abcdef","version":99}`))
	f.Add([]byte("\x00\xff{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := New(t.TempDir())
		os.MkdirAll(s.Dir, 0o755)
		const id = "q-20260101-000000-abcdef"
		if err := os.WriteFile(s.path(id), data, 0o644); err != nil {
			t.Fatal(err)
		}
		entries, err := s.List()
		if err != nil {
			t.Fatalf("list: %v", err)
		}
		if len(entries) != 1 || entries[0].ID != id {
			t.Fatalf("entries = %+v", entries)
		}
	})
}
