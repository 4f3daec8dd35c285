package goals

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testenv"
)

// A goal state file that is a FIFO (or a link to /dev/zero) must not hang
// the Stop hook: it is refused at once as not a regular file.
func TestLoadRefusesNonRegularState(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	for _, tc := range []struct {
		name string
		make func(p string) error
	}{
		{"fifo", func(p string) error { return testenv.Mkfifo(p) }},
		{"dev-zero", func(p string) error { return os.Symlink("/dev/zero", p) }},
	} {
		session := "sess-" + tc.name
		if err := tc.make(filepath.Join(s.Dir, session+".json")); err != nil {
			t.Skip(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := s.Load(session)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: loaded as a goal state", tc.name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Load hangs", tc.name)
		}
	}
}

// FuzzStateFile: whatever a goal state file holds, Load never panics.
func FuzzStateFile(f *testing.F) {
	f.Add([]byte(`{"version":1,"goal":"ship it","session":"s1"}`))
	f.Add([]byte(`{"version":99}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := Store{Dir: t.TempDir()}
		if err := os.WriteFile(filepath.Join(s.Dir, "s1.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		s.Load("s1")
	})
}
