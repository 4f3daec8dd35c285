package skillrepo

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// fuzzLibrary is the example library, made once per fuzzing process.
func fuzzLibrary(f *testing.F) *Library {
	env := testEnv(f)
	dir := filepath.Join(f.TempDir(), "lib")
	if _, err := Init(context.Background(), dir, InitOptions{OpenOptions: openOpts(env), Example: true}); err != nil {
		f.Fatalf("init: %v", err)
	}
	l, err := Open(dir, openOpts(env))
	if err != nil {
		f.Fatalf("open: %v", err)
	}
	f.Cleanup(func() { l.Close() })
	return l
}

// FuzzPinsAgreed: whatever the recorded pins agreement holds, the
// effective pins are read without panicking, sorted, each once.
func FuzzPinsAgreed(f *testing.F) {
	f.Add([]byte(`{"file":["ci-debugging"],"usage":["ci-debugging"]}`))
	f.Add([]byte(`{"file":null,"usage":["x","x",""]}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"file":"x"}`))
	l := fuzzLibrary(f)
	if err := os.MkdirAll(filepath.Dir(l.pinsAgreedPath()), 0o755); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(l.pinsAgreedPath(), data, 0o644); err != nil {
			t.Fatal(err)
		}
		pins, err := l.Owners().Pins("")
		if err != nil {
			t.Fatalf("pins: %v", err)
		}
		for i := 1; i < len(pins); i++ {
			if pins[i-1] >= pins[i] {
				t.Fatalf("pins not sorted and unique: %q", pins)
			}
		}
	})
}
