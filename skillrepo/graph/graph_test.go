package graph

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/testenv"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// A repository made by the git binary: main with three commits, a branch
// forked after the first with two of its own, committed one second apart
// so the walk's order is git's.
func testRepo(t *testing.T) (*gitstore.Store, map[string]gitstore.Hash) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	dir := t.TempDir()
	env := testenv.Env(t.TempDir())
	n := 0
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		date := "@" + strconv.Itoa(testenv.Epoch+n) + " +0000"
		cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	commits := map[string]gitstore.Hash{}
	commit := func(name string) {
		n++
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", name)
		git("commit", "-qm", name)
		commits[name] = gitstore.NewHash(git("rev-parse", "HEAD"))
	}
	git("init", "-q", "-b", "main")
	commit("m1")
	git("switch", "-qc", "side")
	commit("s1")
	commit("s2")
	git("switch", "-q", "main")
	commit("m2")
	commit("m3")
	repo, err := gitstore.Open(dir, gitstore.Options{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	return repo.NewStore(true), commits
}

// The merge base of main and a branch is the fork point, and what the
// branch brings is its own commits, newest first; with nothing of ours
// (an unborn branch), everything reachable from the tip comes in.
func TestMergeBaseAndIncoming(t *testing.T) {
	store, c := testRepo(t)
	g := New(store)
	base, onlyB, err := g.MergeBase(c["m3"], c["s2"])
	if err != nil || base != c["m1"] || !slices.Equal(onlyB, []gitstore.Hash{c["s2"], c["s1"]}) {
		t.Fatalf("MergeBase = %s %v, %v; want m1 and [s2 s1]", base, onlyB, err)
	}
	in, err := g.Incoming(c["m3"], c["s2"])
	if err != nil || !slices.Equal(in, onlyB) {
		t.Errorf("Incoming(main, side) = %v, %v; want %v", in, err, onlyB)
	}
	in, err = g.Incoming(gitstore.ZeroHash, c["s2"])
	if err != nil || !slices.Equal(in, []gitstore.Hash{c["s2"], c["s1"], c["m1"]}) {
		t.Errorf("Incoming(unborn, side) = %v, %v; want s2 s1 m1", in, err)
	}
	if base, onlyB, err := g.MergeBase(c["s2"], c["s2"]); err != nil || base != c["s2"] || len(onlyB) != 0 {
		t.Errorf("MergeBase of a commit with itself = %s %v, %v", base, onlyB, err)
	}
}
