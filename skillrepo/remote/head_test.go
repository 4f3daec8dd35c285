package remote

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPushSetsHEADOfFreshBareRemote: a bare repository made with another
// default branch (master) gets its HEAD pointed at the pushed main, so a
// plain git clone checks out the skills; a second push leaves HEAD alone;
// a bare remote whose HEAD names an existing branch, and a remote with a
// work tree, are never touched. Both transports, real git.
func TestPushSetsHEADOfFreshBareRemote(t *testing.T) {
	for _, goGit := range []bool{false, true} {
		name := map[bool]string{false: "git", true: "go-git"}[goGit]
		t.Run(name, func(t *testing.T) {
			l, env := newTestLibrary(t)
			ctx := context.Background()
			root := t.TempDir()
			bare := filepath.Join(root, "skills.git")
			gitIn(t, root, env, false, "init", "-q", "--bare", "-b", "master", bare)
			url := bare
			if goGit {
				url = "file://" + bare
			}
			gitCmd(t, l, env, "remote", "add", "origin", url)
			res, err := New(l).Push(ctx, Options{GoGit: goGit})
			if err != nil {
				t.Fatal(err)
			}
			if res.HEAD == nil || !res.HEAD.Set || res.HEAD.Was != "master" {
				t.Fatalf("HEAD = %+v", res.HEAD)
			}
			if got := strings.TrimSpace(gitIn(t, bare, env, false, "symbolic-ref", "HEAD")); got != "refs/heads/main" {
				t.Fatalf("remote HEAD = %s", got)
			}
			clone := filepath.Join(root, "clone")
			gitIn(t, root, env, false, "clone", "-q", url, clone)
			if _, err := os.Stat(filepath.Join(clone, "ci-debugging", "SKILL.md")); err != nil {
				t.Fatalf("the clone checked out nothing: %v", err)
			}
			gitIn(t, bare, env, false, "fsck", "--strict", "--no-progress")

			// Pushing again (main exists there now) does nothing to HEAD.
			old, nu := "first** error", "first** failing line"
			patchMain(t, l, "ci-debugging", old, nu)
			if res, err = New(l).Push(ctx, Options{GoGit: goGit}); err != nil || res.HEAD != nil {
				t.Fatalf("second push: HEAD %+v, %v", res.HEAD, err)
			}
		})
	}
}

func TestPushLeavesChosenHEAD(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	root := t.TempDir()
	// A bare remote whose HEAD names a branch it has.
	bare := filepath.Join(root, "team.git")
	gitIn(t, root, env, false, "init", "-q", "--bare", "-b", "stable", bare)
	seed := filepath.Join(root, "seed")
	gitIn(t, root, env, false, "init", "-q", "-b", "stable", seed)
	gitIn(t, seed, env, false, "commit", "-q", "--allow-empty", "-m", "seed")
	gitIn(t, seed, env, false, "push", "-q", bare, "stable")
	gitCmd(t, l, env, "remote", "add", "team", bare)
	res, err := New(l).Push(ctx, Options{Remote: "team"})
	if err != nil || res.HEAD != nil {
		t.Fatalf("push: HEAD %+v, %v", res.HEAD, err)
	}
	if got := strings.TrimSpace(gitIn(t, bare, env, false, "symbolic-ref", "HEAD")); got != "refs/heads/stable" {
		t.Fatalf("remote HEAD moved to %s", got)
	}
	// A remote with a work tree: its HEAD is someone's checkout.
	wt := filepath.Join(root, "wt")
	gitIn(t, root, env, false, "init", "-q", "-b", "master", wt)
	gitIn(t, wt, env, false, "config", "receive.denyCurrentBranch", "ignore")
	gitCmd(t, l, env, "remote", "add", "wt", wt)
	if res, err = New(l).Push(ctx, Options{Remote: "wt"}); err != nil || res.HEAD != nil {
		t.Fatalf("push to a work tree: HEAD %+v, %v", res.HEAD, err)
	}
	if got := strings.TrimSpace(gitIn(t, wt, env, false, "symbolic-ref", "HEAD")); got != "refs/heads/master" {
		t.Fatalf("work tree HEAD moved to %s", got)
	}
}

// TestPushHintsForServer: over HTTP, a remote whose HEAD names no branch
// cannot be fixed by a push; the result says how.
func TestPushHintsForServer(t *testing.T) {
	l, env := newTestLibrary(t)
	url, bare := gitServerBare(t, env)
	// As a bare repository made with another default branch is.
	gitIn(t, bare, env, false, "symbolic-ref", "HEAD", "refs/heads/master")
	gitCmd(t, l, env, "remote", "add", "origin", url)
	res, err := New(l).Push(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.HEAD == nil || res.HEAD.Set || !strings.Contains(res.HEAD.Hint, "git symbolic-ref HEAD refs/heads/main") {
		t.Fatalf("HEAD = %+v", res.HEAD)
	}
	if got := strings.TrimSpace(gitIn(t, bare, env, false, "symbolic-ref", "HEAD")); got != "refs/heads/master" {
		t.Fatalf("a server's HEAD was changed to %s", got)
	}
}
