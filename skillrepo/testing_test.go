package skillrepo

import (
	"context"
	"os"
	"os/exec"
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

// gitStdin runs git in dir with stdin as its input.
func gitStdin(t *testing.T, dir string, env map[string]string, stdin string, args ...string) string {
	t.Helper()
	cmd := gitExec(t, dir, env, args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
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

// gitTry runs git and returns its error instead of failing the test.
func gitTry(l *Library, env map[string]string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = l.Root
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd.Run()
}
