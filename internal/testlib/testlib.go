// Package testlib builds real libraries for tests and benchmarks outside
// package skillrepo: a hermetic git environment (private HOME, no system
// config, fixed identities and dates, so hashes are stable) and the example
// library.
package testlib

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// Epoch is the fixed time of every commit a test library makes.
const Epoch = 1764500000

// Env is a hermetic environment for the library and the git binary, with
// home as HOME.
func Env(home string) map[string]string {
	return map[string]string{
		"HOME":                home,
		"XDG_CONFIG_HOME":     filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Test Author",
		"GIT_AUTHOR_EMAIL":    "author@example.com",
		"GIT_COMMITTER_NAME":  "Test Committer",
		"GIT_COMMITTER_EMAIL": "committer@example.com",
		"GIT_AUTHOR_DATE":     "@1764500000 +0000",
		"GIT_COMMITTER_DATE":  "@1764500000 +0000",
	}
}

// ExampleLibrary initialises the example library in a temp folder and
// opens it (closed at the end of the test). It returns the library and
// the environment its git commands should run with.
func ExampleLibrary(tb testing.TB) (*skillrepo.Library, map[string]string) {
	tb.Helper()
	env := Env(tb.TempDir())
	opts := skillrepo.OpenOptions{
		Getenv:      func(k string) string { return env[k] },
		Now:         func() time.Time { return time.Unix(Epoch, 0).UTC() },
		LockTimeout: time.Second,
	}
	dir := filepath.Join(tb.TempDir(), "lib")
	if _, err := skillrepo.Init(context.Background(), dir, skillrepo.InitOptions{OpenOptions: opts, Example: true}); err != nil {
		tb.Fatalf("init example library: %v", err)
	}
	lib, err := skillrepo.Open(dir, opts)
	if err != nil {
		tb.Fatalf("open example library: %v", err)
	}
	tb.Cleanup(func() { lib.Close() })
	return lib, env
}
