package remote

import (
	"context"
	"errors"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// gitServer serves bare repositories under a temp folder over smart HTTP
// on 127.0.0.1: the real git http-backend behind net/http/cgi, started by
// the test and stopped with it. It returns the URL of an empty repository.
func gitServer(t *testing.T, env map[string]string) string {
	t.Helper()
	url, _ := gitServerBare(t, env)
	return url
}

// gitServerBare is gitServer, also returning the bare repository's folder.
func gitServerBare(t *testing.T, env map[string]string) (url, bare string) {
	t.Helper()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not on PATH")
	}
	root := t.TempDir()
	bare = filepath.Join(root, "skills.git")
	gitIn(t, root, env, false, "init", "-q", "--bare", "-b", "main", bare)
	// Anonymous pushes over HTTP must be allowed explicitly.
	gitIn(t, bare, env, false, "config", "http.receivepack", "true")
	srv := httptest.NewServer(&cgi.Handler{
		Path: gitPath,
		Args: []string{"http-backend"},
		Root: "/git",
		Env: []string{
			"GIT_PROJECT_ROOT=" + root,
			"GIT_HTTP_EXPORT_ALL=1",
			"GIT_CONFIG_NOSYSTEM=1",
			"HOME=" + root,
		},
	})
	t.Cleanup(srv.Close)
	return srv.URL + "/git/skills.git", bare
}

// cloneLibrary clones url into a new folder and opens it as a library.
func cloneLibrary(t *testing.T, url string, env map[string]string) *skillrepo.Library {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone")
	gitIn(t, filepath.Dir(dir), env, false, "clone", "-q", url, dir)
	l, err := skillrepo.Open(dir, openOpts(env))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// Fixture (A publishes; B and C propose at the same time; D approves):
//
//	A: o (import) --push--> remote main
//	B: o---x  proposals/b1  \
//	C: o---y  proposals/c1   } pushed concurrently
//	D: pull; approve b1, c1: o---m1---m2 main; push
//	A, B, C: pull -> main = m2, no proposal branch left anywhere
func TestPushPullTeamFlow(t *testing.T) {
	for _, goGit := range []bool{false, true} {
		name := "git"
		if goGit {
			name = "go-git"
		}
		t.Run(name, func(t *testing.T) {
			if goGit && testing.Short() {
				t.Skip("go-git transport is slow")
			}
			a, env := newTestLibrary(t)
			ctx := context.Background()
			url := gitServer(t, env)
			gitCmd(t, a, env, "remote", "add", "origin", url)
			opts := Options{GoGit: goGit}
			res, err := New(a).Push(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Transport != name || len(res.Updates) != 1 || res.Updates[0].Ref != "refs/heads/main" {
				t.Fatalf("first push = %+v", res)
			}

			b, c, d := cloneLibrary(t, url, env), cloneLibrary(t, url, env), cloneLibrary(t, url, env)
			propose(t, b, "b1", "ci-debugging", "Pitfalls", "Pitfalls to avoid")
			propose(t, c, "c1", "git-bisect-regressions", "when done.", "when done, always.")
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, l := range []*skillrepo.Library{b, c} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = New(l).Push(ctx, opts)
				}()
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatalf("concurrent pushes: %v", err)
			}

			pull, err := New(d).Pull(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := refNames(pull.Refs); got != "refs/heads/proposals/b1 refs/heads/proposals/c1" {
				t.Fatalf("pull brought %q", got)
			}
			outcomes, err := person(t, d).ApproveAll(ctx, skillrepo.ApproveOptions{By: "D <d@example.com>"})
			if err != nil || len(outcomes) != 2 || outcomes[0].Err != nil || outcomes[1].Err != nil {
				t.Fatalf("approve all = %+v, %v", outcomes, err)
			}
			if _, err := New(d).Push(ctx, opts); err != nil {
				t.Fatal(err)
			}
			remoteRefs := gitIn(t, d.Root, env, false, "ls-remote", "origin")
			if strings.Contains(remoteRefs, "proposals/") {
				t.Errorf("approved proposals still on the remote:\n%s", remoteRefs)
			}

			for _, l := range []*skillrepo.Library{a, b, c} {
				if _, err := New(l).Pull(ctx, opts); err != nil {
					t.Fatal(err)
				}
				if got, want := gitCmd(t, l, env, "rev-parse", "main"), gitCmd(t, d, env, "rev-parse", "main"); got != want {
					t.Errorf("%s: main %s, want %s", l.Root, got, want)
				}
				for _, p := range []string{"ci-debugging/SKILL.md", "git-bisect-regressions/SKILL.md"} {
					if _, err := os.Stat(filepath.Join(l.Root, p)); err != nil {
						t.Error(err)
					}
				}
				if !strings.Contains(readWorktree(t, l, "ci-debugging/SKILL.md"), "Pitfalls to avoid") ||
					!strings.Contains(readWorktree(t, l, "git-bisect-regressions/SKILL.md"), "when done, always.") {
					t.Errorf("%s: work tree misses an approved change", l.Root)
				}
				if out := gitCmd(t, l, env, "branch", "--list", "proposals/*"); out != "" {
					t.Errorf("%s: proposal branches left: %q", l.Root, out)
				}
				assertConsistent(t, l, env)
			}

			// A moves main on its own while the remote moved too: push is
			// refused, never forced, and pull does not merge.
			patchMain(t, a, "ci-debugging", "Pitfalls to avoid", "Pitfalls we met")
			patchMain(t, d, "ci-debugging", "first** error", "first** error line")
			if _, err := New(d).Push(ctx, opts); err != nil {
				t.Fatal(err)
			}
			remoteMain := gitIn(t, d.Root, env, false, "rev-parse", "main")
			_, err = New(a).Push(ctx, opts)
			var rr *RejectedError
			if !errors.As(err, &rr) || !errors.Is(err, skillrepo.ErrConflict) || rr.Hint() == "" {
				t.Fatalf("push of a diverged main: %v", err)
			}
			if got := strings.Fields(gitIn(t, a.Root, env, false, "ls-remote", "origin", "refs/heads/main"))[0]; got+"\n" != remoteMain {
				t.Errorf("remote main moved to %s", got)
			}
			aMain := gitCmd(t, a, env, "rev-parse", "main")
			if _, err := New(a).Pull(ctx, opts); !errors.As(err, &rr) {
				t.Fatalf("pull of a diverged main: %v", err)
			}
			if gitCmd(t, a, env, "rev-parse", "main") != aMain {
				t.Error("pull moved a diverged main")
			}
		})
	}
}

// TestPushRejectedProposal: a proposal rejected here is deleted on the
// remote and its record travels to other clones, which do not bring the
// branch back.
func TestPushRejectedProposal(t *testing.T) {
	a, env := newTestLibrary(t)
	ctx := context.Background()
	url := gitServer(t, env)
	gitCmd(t, a, env, "remote", "add", "origin", url)
	propose(t, a, "r1", "ci-debugging", "Pitfalls", "Traps")
	if _, err := New(a).Push(ctx, Options{}); err != nil {
		t.Fatal(err)
	}
	b := cloneLibrary(t, url, env)
	if _, err := New(b).Pull(ctx, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := person(t, b).RejectProposal(ctx, "r1", skillrepo.RejectOptions{Reason: "no"}); err != nil {
		t.Fatal(err)
	}
	if _, err := New(b).Push(ctx, Options{}); err != nil {
		t.Fatal(err)
	}
	remote := gitIn(t, b.Root, env, false, "ls-remote", "origin")
	if strings.Contains(remote, "refs/heads/proposals/r1") || !strings.Contains(remote, "refs/skillrepo/rejected/r1") {
		t.Errorf("remote refs after reject + push:\n%s", remote)
	}
	c := cloneLibrary(t, url, env)
	if _, err := New(c).Pull(ctx, Options{}); err != nil {
		t.Fatal(err)
	}
	rejected, err := c.Proposals().List(skillrepo.ProposalQuery{Rejected: true})
	if err != nil || len(rejected) != 1 || rejected[0].Rejection.Reason != "no" {
		t.Fatalf("rejected in a fresh clone = %+v, %v", rejected, err)
	}
	// A still has the branch: its pull sees the record and keeps its
	// branch (it is A's own), and push does not resurrect it remotely
	// because the record settles it... A's push sends its branch back,
	// which is A's choice; here we check pull does not delete A's work.
	if _, err := New(a).Pull(ctx, Options{}); err != nil {
		t.Fatal(err)
	}
	if out := gitCmd(t, a, env, "branch", "--list", "proposals/r1"); out == "" {
		t.Error("pull deleted a local proposal branch that main does not contain")
	}
}

func refNames(us []RefUpdate) string {
	var names []string
	for _, u := range us {
		names = append(names, u.Ref)
	}
	return strings.Join(names, " ")
}

// TestPushBehindSendsNothing: a clone that fetched, and whose main and
// proposal are therefore known to be behind the remote's, pushes nothing
// and is not refused; one that did not fetch is refused with the hint.
func TestPushBehindSendsNothing(t *testing.T) {
	a, env := newTestLibrary(t)
	ctx := context.Background()
	url := gitServer(t, env)
	gitCmd(t, a, env, "remote", "add", "origin", url)
	propose(t, a, "p1", "ci-debugging", "Pitfalls", "Traps")
	if _, err := New(a).Push(ctx, Options{}); err != nil {
		t.Fatal(err)
	}
	b := cloneLibrary(t, url, env)
	if _, err := New(b).Pull(ctx, Options{}); err != nil {
		t.Fatal(err)
	}
	propose(t, a, "p1", "ci-debugging", "first** error", "first** error line")
	patchMain(t, a, "git-bisect-regressions", "when done.", "when done, always.")
	if _, err := New(a).Push(ctx, Options{}); err != nil {
		t.Fatal(err)
	}
	var rr *RejectedError
	if _, err := New(b).Push(ctx, Options{}); !errors.As(err, &rr) || len(rr.Refs) != 2 {
		t.Fatalf("push before fetching = %v, want main and p1 refused", err)
	}
	gitCmd(t, b, env, "fetch", "-q", "origin")
	res, err := New(b).Push(ctx, Options{})
	if err != nil || len(res.Updates) != 0 {
		t.Fatalf("push from behind = %+v, %v; want nothing sent", res, err)
	}
}
