package curator

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDue(t *testing.T) {
	last := ago(7 * Day)
	justBefore := ago(7*Day - time.Second)
	on := Schedule{Enabled: true, IntervalHours: 168}
	tests := []struct {
		name     string
		st       RunState
		s        Schedule
		due      bool
		seed     bool
		nextZero bool
	}{
		{name: "disabled", st: RunState{LastRunAt: &last}, s: Schedule{IntervalHours: 168}, nextZero: true},
		{name: "paused", st: RunState{Paused: true, LastRunAt: &last}, s: on, nextZero: true},
		{name: "first sight seeds and waits", st: RunState{}, s: on, seed: true},
		{name: "exactly one interval later", st: RunState{LastRunAt: &last}, s: on, due: true},
		{name: "one second early", st: RunState{LastRunAt: &justBefore}, s: on},
		{name: "default interval when unset", st: RunState{LastRunAt: &justBefore}, s: Schedule{Enabled: true}},
		{name: "short interval", st: RunState{LastRunAt: &justBefore}, s: Schedule{Enabled: true, IntervalHours: 1}, due: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Due(tt.st, tt.s, testNow)
			if d.Due != tt.due || d.Seed != tt.seed || d.Next.IsZero() != tt.nextZero {
				t.Errorf("got %+v", d)
			}
			if d.Reason == "" {
				t.Error("no reason")
			}
		})
	}
	d := Due(RunState{}, on, testNow)
	if want := testNow.Add(168 * time.Hour); !d.Next.Equal(want) {
		t.Errorf("seed next = %s, want %s", d.Next, want)
	}
}

func TestStore(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(filepath.Join(dir, "skillrepo"))
	st, err := s.Load()
	if err != nil || st.LastRunAt != nil || st.Paused {
		t.Fatalf("load of a missing file = %+v, %v", st, err)
	}
	if _, err := os.Stat(s.Path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("Load created the state file")
	}

	if _, err := s.Seed(testNow); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seed(testNow.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	st, err = s.Load()
	if err != nil {
		t.Fatal(err)
	}
	if st.LastRunAt == nil || !st.LastRunAt.Equal(testNow) || st.LastRunSummary != SeedSummary || st.RunCount != 0 {
		t.Fatalf("after seeding twice: %+v", st)
	}
	if Due(st, Schedule{Enabled: true}, testNow.Add(168*time.Hour)).Due != true {
		t.Error("not due one interval after seeding")
	}

	if _, err := s.SetPaused(true); err != nil {
		t.Fatal(err)
	}
	st, _ = s.Load()
	if !st.Paused || Due(st, Schedule{Enabled: true}, testNow.Add(1000*time.Hour)).Due {
		t.Fatalf("pause did not stick: %+v", st)
	}
	if _, err := s.SetPaused(false); err != nil {
		t.Fatal(err)
	}
	st, _ = s.Load()
	if st.Paused || st.LastRunAt == nil {
		t.Fatalf("resume lost state: %+v", st)
	}

	entries, _ := os.ReadDir(filepath.Dir(s.Path))
	for _, e := range entries {
		if e.Name() != StateFileName && e.Name() != StateFileName+".lock" {
			t.Errorf("stray file %s left behind", e.Name())
		}
	}
}

func TestStoreRejectsBadFiles(t *testing.T) {
	tests := []struct {
		name, content string
		want          error
	}{
		{name: "corrupt", content: "{not json"},
		{name: "newer", content: `{"version": 99}`, want: ErrStateVersion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(t.TempDir())
			if err := os.WriteFile(s.Path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := s.Load()
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if _, err := s.SetPaused(true); err == nil {
				t.Fatal("update over a bad file succeeded")
			}
			b, _ := os.ReadFile(s.Path)
			if string(b) != tt.content {
				t.Error("bad file was overwritten")
			}
		})
	}
}
