package skillrepo

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testenv"
)

// FuzzOwnersCache: whatever the owners cache holds, decoding it never
// panics (a cache that does not decode is rebuilt; the history cache's
// own fuzz test is in package history).
func FuzzOwnersCache(f *testing.F) {
	f.Add([]byte("SRHI"))
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeOwners(data)
	})
}

// FuzzHermesSeen: whatever the last Hermes curator run seen holds, it
// decodes to a run (a broken file is a first sight, which records nothing).
func FuzzHermesSeen(f *testing.F) {
	f.Add([]byte(`{"run_count":3,"last_run_at":"2026-12-01T00:00:00Z"}`))
	f.Add([]byte(`{"run_count":"x"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		seen := parseHermesSeen(data)
		var want hermesCuratorSeen
		if json.Unmarshal(data, &want) != nil && seen.RunCount != -1 {
			t.Fatalf("a broken file read as run %d", seen.RunCount)
		}
	})
}

// FuzzUsageSidecar: whatever .usage.json holds, loading it never panics.
func FuzzUsageSidecar(f *testing.F) {
	f.Add([]byte(`{"a":{"use_count":1,"created_by":"agent"}}`))
	f.Add([]byte(`{"a":{"use_count":"x"}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), UsageFile)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		u := &Usage{path: p, now: time.Now}
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
			_, err := (&Usage{path: p, now: time.Now}).Load()
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
