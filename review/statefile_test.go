package review

import (
	"os"
	"testing"
)

// FuzzCounterFile: whatever a session's counter file holds, Load never
// panics: it reads counters or says why it cannot.
func FuzzCounterFile(f *testing.F) {
	f.Add([]byte(`{"version":1,"session_id":"s1","turns_since_review":3}`))
	f.Add([]byte(`{"version":999}`))
	f.Add([]byte("\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := CounterStore{Dir: t.TempDir()}
		if err := os.WriteFile(s.file("s1"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		s.Load("s1")
	})
}
