package gitstore

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestRefCacheFollowsChanges: a listing through a RefCache gives what git
// lists after every kind of change to the refs (our compare-and-swap, git's
// update-ref, branch creation and deletion, a file rewritten in place with
// a value of the same length, pack-refs, a symbolic ref), and reuses the
// values of unchanged files.
func TestRefCacheFollowsChanges(t *testing.T) {
	l, env := newTestRepo(t)
	cache := NewRefCache()
	cache.settle = 0 // every file read may be kept (the test's changes are milliseconds apart)
	l.refs = cache
	head, err := l.ReadRef("refs/heads/main")
	if err != nil {
		t.Fatal(err)
	}
	gitCmd(t, l, env, "commit", "-q", "--allow-empty", "-m", "second")
	second, err := l.ReadRef("refs/heads/main")
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "refs/heads/proposals/"
	check := func(what string) {
		t.Helper()
		want := map[string]plumbing.Hash{}
		if out := strings.TrimSpace(gitCmd(t, l, env, "for-each-ref", "--format=%(refname) %(objectname) %(symref)", prefix)); out != "" {
			for _, line := range strings.Split(out, "\n") {
				f := strings.Fields(line)
				if len(f) == 2 { // a symbolic ref is not listed (ListRefs lists hashes)
					want[f[0]] = plumbing.NewHash(f[1])
				}
			}
		}
		for i := 0; i < 2; i++ { // the second listing reads through what the first kept
			got, err := l.ListRefs(prefix)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s: listed %v, git lists %v", what, got, want)
			}
			for n, h := range want {
				if got[n] != h {
					t.Fatalf("%s: %s is %s, git says %s", what, n, got[n], h)
				}
			}
		}
	}
	for _, b := range []string{"a", "b", "c", "x/y"} {
		gitCmd(t, l, env, "branch", "proposals/"+b, head.String())
	}
	check("created by git")
	if err := l.UpdateRef(prefix+"a", second, head, "move"); err != nil {
		t.Fatal(err)
	}
	check("moved by a compare-and-swap")
	gitCmd(t, l, env, "update-ref", prefix+"b", second.String())
	check("moved by git update-ref")
	gitCmd(t, l, env, "branch", "-D", "proposals/c")
	gitCmd(t, l, env, "branch", "proposals/d", second.String())
	check("one deleted, one created")
	time.Sleep(50 * time.Millisecond) // past the file system clock's tick
	if err := os.WriteFile(l.refPath(prefix+"x/y"), []byte(second.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("rewritten in place")
	gitCmd(t, l, env, "symbolic-ref", prefix+"sym", "refs/heads/main")
	check("a symbolic ref")
	gitCmd(t, l, env, "pack-refs", "--all")
	check("packed")
	gitCmd(t, l, env, "update-ref", prefix+"a", head.String())
	check("loose again over its packed copy")
	if runtime.GOOS == "linux" && cache.hits == 0 {
		t.Error("no value was reused")
	}

	// A file changed within the settle time is read again.
	fresh := NewRefCache()
	l.refs = fresh
	gitCmd(t, l, env, "update-ref", prefix+"new", second.String())
	for i := 0; i < 2; i++ {
		if _, err := l.ListRefs(prefix + "new"); err != nil {
			t.Fatal(err)
		}
	}
	if fresh.hits != 0 {
		t.Errorf("a ref written just now was reused %d times", fresh.hits)
	}
}
