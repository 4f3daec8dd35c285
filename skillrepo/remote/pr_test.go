package remote

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/gitserver"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// fakeHostCLI installs a recording gh or glab on the library's PATH: it
// appends each call's arguments (each ended by NUL, a call by RS) to
// calls, and its standard input to stdin; `auth status` exits authExit;
// a create prints createOut on stdout, or createErr on stderr with exit 1.
// It stands in for the host's program only: the branch it names was
// pushed to a real git server.
type fakeHostCLI struct {
	dir, calls, stdin string
}

func newFakeHostCLI(t *testing.T, env map[string]string, prog string, authExit int, createOut, createErr string) *fakeHostCLI {
	t.Helper()
	dir := t.TempDir()
	f := &fakeHostCLI{dir: dir, calls: filepath.Join(dir, "calls"), stdin: filepath.Join(dir, "stdin")}
	script := `#!/bin/sh
for a in "$@"; do printf '%s\0' "$a" >> '` + f.calls + `'; done
printf '\036' >> '` + f.calls + `'
case "$1 $2" in
"auth status") [ ` + itoa(authExit) + ` = 0 ] || echo "You are not logged into any hosts" >&2; exit ` + itoa(authExit) + ` ;;
"pr create"|"mr create")
  cat > '` + f.stdin + `'
  if [ -n '` + createErr + `' ]; then printf '%s\n' '` + createErr + `' >&2; exit 1; fi
  echo '` + createOut + `' ;;
esac
`
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, prog), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env["PATH"] = bin + string(os.PathListSeparator) + os.Getenv("PATH")
	return f
}

func itoa(n int) string { return string(rune('0' + n)) }

// Calls are the recorded argument lists.
func (f *fakeHostCLI) Calls(t *testing.T) [][]string {
	t.Helper()
	data, err := os.ReadFile(f.calls)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\x1e"), "\x1e") {
		out = append(out, strings.Split(strings.TrimSuffix(line, "\x00"), "\x00"))
	}
	return out
}

func (f *fakeHostCLI) Stdin(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(f.stdin)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func prConfig(host config.RemotePullRequest) config.Remote {
	c := bothMain()
	c.PullRequest = host
	return c
}

// TestPullRequestGH: gh is called only when it is installed and `gh auth
// status` passes, with the arguments a real gh needs to open the pull
// request without a prompt; the body carries the proposal's summary,
// skills, diff stats, lint verdict, trailers and the local approve
// command.
func TestPullRequestGH(t *testing.T) {
	s := newShared(t, nil, 1, prConfig(config.PullRequestGH))
	a, ctx := s.libs[0], context.Background()
	gh := newFakeHostCLI(t, s.env, "gh", 0, "https://github.example/team/skills/pull/7", "")
	propose(t, a, "p1", "ci-debugging", "Pitfalls", "Traps")
	res, err := New(a).Publish(ctx, "p1", PublishOptions{Summary: "Renamed the pitfalls section after a failed CI run."})
	if err != nil {
		t.Fatal(err)
	}
	if res.PullRequest != "https://github.example/team/skills/pull/7" {
		t.Fatalf("publish = %+v", res)
	}
	hostPort := strings.TrimPrefix(s.srv.URL, "http://")
	hostPort, _, _ = strings.Cut(hostPort, "/")
	calls := gh.Calls(t)
	want := [][]string{
		{"auth", "status", "--hostname", hostPort},
		{"pr", "create", "--head", "proposals/p1", "--base", "main",
			"--title", "skillrepo: Renamed the pitfalls section after a failed CI run.",
			"--body-file", "-", "--repo", hostPort + "/git/skills"},
	}
	if !slices.EqualFunc(calls, want, slices.Equal[[]string]) {
		t.Fatalf("gh calls:\n%q\nwant\n%q", calls, want)
	}
	body := gh.Stdin(t)
	for _, w := range []string{
		"Renamed the pitfalls section after a failed CI run.",
		"Proposal `p1` by background-review (review `r-p1`)",
		"- skill: patch ci-debugging",
		"**Skills touched:** `ci-debugging`",
		"**Diff:** 1 file(s), +1 −1",
		"| `ci-debugging/SKILL.md` | modified | 1 | 1 |",
		"**Lint:** clean: no new lint errors in ci-debugging",
		"**Merge:** merges into main cleanly.",
		"Skill-Origin: background-review\nReview-Id: r-p1\n",
		"skillrepo proposal approve p1",
	} {
		if !strings.Contains(body, w) {
			t.Errorf("body lacks %q:\n%s", w, body)
		}
	}
	if st := proposalRemotes(t, a)["p1"]; st.PullRequest != res.PullRequest || st.State != "published" {
		t.Errorf("listing state = %+v", st)
	}
	// A new commit moves the branch; the pull request follows it: gh is
	// not called again.
	propose(t, a, "p1", "ci-debugging", "first** error", "first** error line")
	if res, err := New(a).Publish(ctx, "p1", PublishOptions{}); err != nil || !res.Pushed || res.PullRequest == "" {
		t.Fatalf("publish again = %+v, %v", res, err)
	}
	if n := len(gh.Calls(t)); n != 2 {
		t.Errorf("gh called %d times, want 2", n)
	}
	s.check(t)
}

func TestPullRequestNotOpened(t *testing.T) {
	t.Run("not logged in", func(t *testing.T) {
		s := newShared(t, nil, 1, prConfig(config.PullRequestGH))
		a := s.libs[0]
		gh := newFakeHostCLI(t, s.env, "gh", 1, "https://never", "")
		propose(t, a, "p1", "ci-debugging", "Pitfalls", "Traps")
		res, err := New(a).Publish(context.Background(), "p1", PublishOptions{})
		if err != nil || !res.Pushed || res.PullRequest != "" || !strings.Contains(res.PullRequestNote, "gh is not logged in") || !strings.Contains(res.PullRequestNote, "gh auth login") {
			t.Fatalf("publish = %+v, %v", res, err)
		}
		if calls := gh.Calls(t); len(calls) != 1 || calls[0][0] != "auth" {
			t.Errorf("gh calls = %q; want only auth status", calls)
		}
	})
	t.Run("not installed", func(t *testing.T) {
		s := newShared(t, nil, 1, prConfig(config.PullRequestGH))
		a := s.libs[0]
		s.env["PATH"] = t.TempDir() // no gh there
		propose(t, a, "p1", "ci-debugging", "Pitfalls", "Traps")
		res, err := New(a).Publish(context.Background(), "p1", PublishOptions{})
		if err != nil || !res.Pushed || !strings.Contains(res.PullRequestNote, "gh is not installed") {
			t.Fatalf("publish = %+v, %v", res, err)
		}
	})
	t.Run("already exists", func(t *testing.T) {
		s := newShared(t, nil, 1, prConfig(config.PullRequestGH))
		a := s.libs[0]
		newFakeHostCLI(t, s.env, "gh", 0, "", `a pull request for branch "proposals/p1" into branch "main" already exists: https://github.example/team/skills/pull/3`)
		propose(t, a, "p1", "ci-debugging", "Pitfalls", "Traps")
		res, err := New(a).Publish(context.Background(), "p1", PublishOptions{})
		if err != nil || res.PullRequest != "https://github.example/team/skills/pull/3" {
			t.Fatalf("publish = %+v, %v", res, err)
		}
	})
}

func TestPullRequestGLab(t *testing.T) {
	s := newShared(t, nil, 1, prConfig(config.PullRequestGLab))
	a := s.libs[0]
	glab := newFakeHostCLI(t, s.env, "glab", 0, "https://gitlab.example/team/skills/-/merge_requests/4", "")
	propose(t, a, "p1", "ci-debugging", "Pitfalls", "Traps")
	res, err := New(a).Publish(context.Background(), "p1", PublishOptions{})
	if err != nil || res.PullRequest != "https://gitlab.example/team/skills/-/merge_requests/4" {
		t.Fatalf("publish = %+v, %v", res, err)
	}
	calls := glab.Calls(t)
	if len(calls) != 2 {
		t.Fatalf("glab calls = %q", calls)
	}
	create := calls[1]
	if !slices.Equal(create[:8], []string{"mr", "create", "--source-branch", "proposals/p1", "--target-branch", "main", "--title", "skillrepo: skill: patch ci-debugging"}) ||
		create[8] != "--description" || !strings.Contains(create[9], "skillrepo proposal approve p1") ||
		!slices.Equal(create[10:], []string{"--yes", "--repo", s.url}) {
		t.Errorf("glab mr create arguments = %q", create)
	}
}

// glab is told the repository without the password the remote's URL
// carries: its arguments are in the process list (issue 40 item 12).
func TestPullRequestGLabNoPasswordInArgs(t *testing.T) {
	srv := gitserver.HTTP(t, gitserver.Options{User: "ada", Password: "s3cret-pw"})
	url := srv.Init(t, sharedRepo)
	a, env := newTestLibrary(t)
	gitCmd(t, a, env, "remote", "add", "origin", strings.Replace(url, "://", "://ada:s3cret-pw@", 1))
	gitCmd(t, a, env, "push", "-q", "origin", "main")
	a.Config.Remote = prConfig(config.PullRequestGLab)
	glab := newFakeHostCLI(t, env, "glab", 0, "https://gitlab.example/team/skills/-/merge_requests/5", "")
	propose(t, a, "p1", "ci-debugging", "Pitfalls", "Traps")
	if _, err := New(a).Publish(context.Background(), "p1", PublishOptions{}); err != nil {
		t.Fatal(err)
	}
	calls := glab.Calls(t)
	for _, c := range calls {
		for _, arg := range c {
			if strings.Contains(arg, "s3cret-pw") {
				t.Errorf("glab got the password: %q", c)
			}
		}
	}
	if create := calls[len(calls)-1]; create[len(create)-1] != url {
		t.Errorf("glab --repo %q, want %q", create[len(create)-1], url)
	}
}
