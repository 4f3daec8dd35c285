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

	"github.com/skillrepo/skillrepo/internal/testenv"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// Epoch is the fixed time of every commit a test library makes.
const Epoch = testenv.Epoch

// Env is a hermetic environment for the library and the git binary, with
// home as HOME (see package testenv).
func Env(home string) map[string]string { return testenv.Env(home) }

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
