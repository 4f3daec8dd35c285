package review

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Latest is the session counted last, whatever its file's name (an id
// that is not a safe file name is hashed); none counted is not an error.
func TestCounterStoreLatest(t *testing.T) {
	s := CounterStore{Dir: filepath.Join(t.TempDir(), "sessions")}
	if _, ok, err := s.Latest(); ok || err != nil {
		t.Fatalf("empty store: ok=%v err=%v", ok, err)
	}
	t0 := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	for i, c := range []Counters{
		{SessionID: "older", TurnsSinceMemory: 1, UpdatedAt: t0},
		{SessionID: "newest/with:odd id", TurnsSinceMemory: 4, IterationsSinceSkill: 7, UpdatedAt: t0.Add(2 * time.Minute)},
		{SessionID: "middle", TurnsSinceMemory: 2, UpdatedAt: t0.Add(time.Minute)},
	} {
		if err := s.Save(c); err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
	}
	// A broken file beside them is skipped, not an error.
	if err := os.WriteFile(filepath.Join(s.Dir, "broken.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, ok, err := s.Latest()
	if err != nil || !ok || c.SessionID != "newest/with:odd id" || c.TurnsSinceMemory != 4 || c.IterationsSinceSkill != 7 {
		t.Errorf("Latest = %+v, %v, %v", c, ok, err)
	}
}
