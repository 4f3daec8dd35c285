package remote

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testenv"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// The remote room's tests build real libraries and share them through
// real git servers (internal/gitserver), as the domain's own tests do.

// testEnv is a hermetic environment for the library and the git binary.
func testEnv(t testing.TB) map[string]string {
	t.Helper()
	return testenv.Env(t.TempDir())
}

func openOpts(env map[string]string) skillrepo.OpenOptions {
	return skillrepo.OpenOptions{
		Getenv:      func(k string) string { return env[k] },
		Now:         func() time.Time { return time.Unix(1764500000, 0).UTC() },
		LockTimeout: 200 * time.Millisecond,
	}
}

// newTestLibrary initialises the example library in a temp folder.
func newTestLibrary(t *testing.T) (*skillrepo.Library, map[string]string) {
	t.Helper()
	env := testEnv(t)
	dir := filepath.Join(t.TempDir(), "lib")
	if _, err := skillrepo.Init(context.Background(), dir, skillrepo.InitOptions{OpenOptions: openOpts(env), Example: true}); err != nil {
		t.Fatalf("init: %v", err)
	}
	l, err := skillrepo.Open(dir, openOpts(env))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return l, env
}

// gitExec is the real git binary in dir with env.
func gitExec(t *testing.T, dir string, env map[string]string, args ...string) *exec.Cmd {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
}

// gitIn runs git in dir; with allowFail a non-zero exit returns the output.
func gitIn(t *testing.T, dir string, env map[string]string, allowFail bool, args ...string) string {
	t.Helper()
	out, err := gitExec(t, dir, env, args...).CombinedOutput()
	if err != nil && !allowFail {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// gitCmd runs git in the library and returns its output.
func gitCmd(t *testing.T, l *skillrepo.Library, env map[string]string, args ...string) string {
	t.Helper()
	return gitIn(t, l.Root, env, false, args...)
}

// rev is the commit r names in l's repository.
func rev(t *testing.T, l *skillrepo.Library, env map[string]string, r string) string {
	t.Helper()
	return strings.TrimSpace(gitCmd(t, l, env, "rev-parse", r))
}

// assertConsistent checks what every write must leave: a clean status and
// a clean fsck.
func assertConsistent(t *testing.T, l *skillrepo.Library, env map[string]string) {
	t.Helper()
	if st := gitCmd(t, l, env, "status", "--porcelain"); st != "" {
		t.Errorf("git status not clean:\n%s", st)
	}
	gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
}

func strp(s string) *string { return &s }

// person is the write policy of a person at their own library.
func person(t testing.TB, l *skillrepo.Library) *skillrepo.Policy {
	t.Helper()
	return write(t, l, skillrepo.Writer{})
}

// write is the write policy of w on l.
func write(t testing.TB, l *skillrepo.Library, w skillrepo.Writer) *skillrepo.Policy {
	t.Helper()
	p, err := l.Policy(w)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// propose stages a review's patch as proposal id, as a background review
// leaves it (its tip's Skill-Origin says so).
func propose(t *testing.T, l *skillrepo.Library, id, name, old, new string) {
	t.Helper()
	w := skillrepo.Writer{Stage: skillrepo.ProposalBranch(id), From: l.MainBranch(),
		Provenance: skillrepo.Provenance{Origin: skillrepo.OriginBackgroundReview, ReviewID: "r-" + id, Model: "m"}}
	if _, err := write(t, l, w).Apply(context.Background(), []skillrepo.Op{{Action: skillrepo.ActionPatch, Name: name, OldString: strp(old), NewString: strp(new)}}, false); err != nil {
		t.Fatalf("propose %s: %v", id, err)
	}
}

// patchMain writes one patch straight to main, as a person.
func patchMain(t *testing.T, l *skillrepo.Library, name, old, new string) {
	t.Helper()
	if _, err := person(t, l).Apply(context.Background(), []skillrepo.Op{{Action: skillrepo.ActionPatch, Name: name, OldString: strp(old), NewString: strp(new)}}, false); err != nil {
		t.Fatalf("patch main: %v", err)
	}
}

func readWorktree(t *testing.T, l *skillrepo.Library, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(l.Root, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// reopen closes l and opens its library again (what the next command
// sees).
func reopen(t *testing.T, l *skillrepo.Library, env map[string]string) *skillrepo.Library {
	t.Helper()
	l.Close()
	n, err := skillrepo.Open(l.Root, openOpts(env))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}
