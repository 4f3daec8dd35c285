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

// FuzzRemoteState: whatever remote.json and published.json hold, status
// and proposal listings read them without panicking and hand on no
// failure that is not there (a null entry is no failure), and the next
// record of a failure rewrites them into files that read back.
func FuzzRemoteState(f *testing.F) {
	f.Add([]byte(`{"remote":"origin","failures":{"fetch":{"op":"fetch","kind":"auth"}}}`), []byte(`{"a":{"tip":"x","branch":"proposals/a"}}`))
	f.Add([]byte(`{"failures":{"fetch":null}}`), []byte(`{"a":null}`))
	f.Add([]byte(`{"last_fetch":"not a time"}`), []byte(`{"../../config":{"pending":true}}`))
	f.Add([]byte(`[]`), []byte(`"x"`))
	l := fuzzLibrary(f)
	store := l.remoteStore()
	if err := os.MkdirAll(store.dir, 0o755); err != nil {
		f.Fatal(err)
	}
	props, err := l.Proposals().List(ProposalQuery{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, state, published []byte) {
		if err := os.WriteFile(filepath.Join(store.dir, remoteStateFile), state, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(store.dir, remotePublishedFile), published, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := l.Remote().Status()
		if err != nil {
			t.Fatalf("status: %v", err)
		}
		for op, fail := range st.Failures {
			if fail == nil {
				t.Fatalf("status hands on a nil failure for %q", op)
			}
		}
		if _, err := l.Proposals().Remotes(props); err != nil {
			t.Fatalf("proposal remotes: %v", err)
		}
		if err := store.record(func(r *remoteRecord) {
			if r.Failures == nil {
				r.Failures = map[string]*RemoteFailure{}
			}
			r.Failures["fetch"] = &RemoteFailure{Op: "fetch", Kind: "unreachable"}
		}); err != nil {
			t.Fatalf("record: %v", err)
		}
		if st, err := l.Remote().Status(); err != nil || st.Failures["fetch"] == nil || st.Failures["fetch"].Kind != "unreachable" {
			t.Fatalf("after a record: %+v, %v", st, err)
		}
	})
}
