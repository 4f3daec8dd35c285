package skillrepo

import (
	"encoding/json"
	"testing"
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
