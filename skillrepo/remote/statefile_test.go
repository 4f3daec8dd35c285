package remote

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// fuzzLibrary is the example library, made once per fuzzing process.
func fuzzLibrary(f *testing.F) *skillrepo.Library {
	env := testEnv(f)
	dir := filepath.Join(f.TempDir(), "lib")
	if _, err := skillrepo.Init(context.Background(), dir, skillrepo.InitOptions{OpenOptions: openOpts(env), Example: true}); err != nil {
		f.Fatalf("init: %v", err)
	}
	l, err := skillrepo.Open(dir, openOpts(env))
	if err != nil {
		f.Fatalf("open: %v", err)
	}
	f.Cleanup(func() { l.Close() })
	return l
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
	store := New(l).remoteStore()
	if err := os.MkdirAll(store.dir, 0o755); err != nil {
		f.Fatal(err)
	}
	props, err := l.Proposals().List(skillrepo.ProposalQuery{})
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
		st, err := New(l).Status()
		if err != nil {
			t.Fatalf("status: %v", err)
		}
		for op, fail := range st.Failures {
			if fail == nil {
				t.Fatalf("status hands on a nil failure for %q", op)
			}
		}
		if _, err := New(l).Proposals(props); err != nil {
			t.Fatalf("proposal remotes: %v", err)
		}
		if err := store.record(func(r *remoteRecord) {
			if r.Failures == nil {
				r.Failures = map[string]*Failure{}
			}
			r.Failures["fetch"] = &Failure{Op: "fetch", Kind: "unreachable"}
		}); err != nil {
			t.Fatalf("record: %v", err)
		}
		if st, err := New(l).Status(); err != nil || st.Failures["fetch"] == nil || st.Failures["fetch"].Kind != "unreachable" {
			t.Fatalf("after a record: %+v, %v", st, err)
		}
	})
}
