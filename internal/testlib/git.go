package testlib

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Git runs the real git binary in dir with env (and the test's PATH) and
// returns its trimmed output; a failure fails the test.
func Git(tb testing.TB, dir string, env map[string]string, args ...string) string {
	tb.Helper()
	out, err := GitErr(dir, env, args...)
	if err != nil {
		tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

// GitErr runs git like [Git] and returns its combined output and error.
func GitErr(dir string, env map[string]string, args ...string) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", err
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, "PATH="+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// GitClean checks that git status is clean and git fsck --strict passes
// in dir: whatever was written left a consistent repository.
func GitClean(tb testing.TB, dir string, env map[string]string) {
	tb.Helper()
	if st := Git(tb, dir, env, "status", "--porcelain"); st != "" {
		tb.Errorf("git status not clean:\n%s", st)
	}
	if out, err := GitErr(dir, env, "fsck", "--strict", "--no-progress"); err != nil {
		tb.Errorf("git fsck --strict: %v\n%s", err, out)
	}
}

// Trailer is the value of a trailer key in the message of rev ("" when
// absent; several values joined by commas).
func Trailer(tb testing.TB, dir string, env map[string]string, rev, key string) string {
	tb.Helper()
	return Git(tb, dir, env, "log", "-1", "--format=%(trailers:key="+key+",valueonly,separator=%x2C)", rev)
}
