package skillrepo

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testenv"
)

// testEnv is a hermetic environment for the library and the git binary.
func testEnv(t testing.TB) map[string]string {
	t.Helper()
	return testenv.Env(t.TempDir())
}

func openOpts(env map[string]string) OpenOptions {
	return OpenOptions{
		Getenv:      func(k string) string { return env[k] },
		Now:         func() time.Time { return time.Unix(1764500000, 0).UTC() },
		LockTimeout: 200 * time.Millisecond,
	}
}

// newTestLibrary initialises the example library in a temp folder.
func newTestLibrary(t *testing.T) (*Library, map[string]string) {
	t.Helper()
	env := testEnv(t)
	dir := filepath.Join(t.TempDir(), "lib")
	if _, err := Init(context.Background(), dir, InitOptions{OpenOptions: openOpts(env), Example: true}); err != nil {
		t.Fatalf("init: %v", err)
	}
	l, err := Open(dir, openOpts(env))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { l.repo.Close() })
	return l, env
}

// gitCmd runs the real git binary in the library and returns its output
// (gitIn and gitExec are in proposal_test.go).
func gitCmd(t *testing.T, l *Library, env map[string]string, args ...string) string {
	t.Helper()
	return gitIn(t, l.Root, env, false, args...)
}

// assertConsistent checks what every write must leave: a clean status and
// a clean fsck.
func assertConsistent(t *testing.T, l *Library, env map[string]string) {
	t.Helper()
	if st := gitCmd(t, l, env, "status", "--porcelain"); st != "" {
		t.Errorf("git status not clean:\n%s", st)
	}
	gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
}

func strp(s string) *string { return &s }

// person is the write policy of a person at their own library, the writer
// most tests write as (a Writer with no branch and origin user never
// fails to build).
func person(l *Library) *Policy {
	p, err := l.Policy(Writer{})
	if err != nil {
		panic(err)
	}
	return p
}

// writer is the write policy of w on l, for tests that write as an agent
// or on a branch.
func writer(t testing.TB, l *Library, w Writer) *Policy {
	t.Helper()
	p, err := l.Policy(w)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// rev is the commit r names in l's repository.
func rev(t *testing.T, l *Library, env map[string]string, r string) string {
	t.Helper()
	return strings.TrimSpace(gitCmd(t, l, env, "rev-parse", r))
}
