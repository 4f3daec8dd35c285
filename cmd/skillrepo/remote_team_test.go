package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/gitserver"
	"github.com/skillrepo/skillrepo/internal/statefile"
)

// A team in processes: libraries sharing one remote on a real git
// server, driven by the skillrepo binary exactly as agents' hooks and
// people run it (testscript's TestMain puts it on PATH), with its
// detached background syncs. See docs/remote.md §8.

type team struct {
	url   string
	bare  string // its folder, for the server-side checks
	env   []string
	clone []string
}

// teamConfig is the remote: section every clone shares.
const teamConfig = `version: 1
main_branch: main
runtime: generic
remote:
  name: origin
  main: both
  proposals: push
  pull_request: off
`

func teamEnv(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	return []string{
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Team Member", "GIT_AUTHOR_EMAIL=member@example.com",
		"GIT_COMMITTER_NAME=Team Member", "GIT_COMMITTER_EMAIL=member@example.com",
		"PATH=" + os.Getenv("PATH"), "NO_COLOR=1", "SKILLREPO_LOCK_TIMEOUT=20s",
	}
}

// newTeam makes n clones of one library on a remote: the first imports
// the example, commits the remote: section, runs setup and pushes; the
// rest clone.
func newTeam(t *testing.T, url, bare string, n int, setup ...func(tm *team, dir string)) *team {
	t.Helper()
	if _, err := exec.LookPath("skillrepo"); err != nil {
		t.Skip("the skillrepo binary is not on PATH (testscript's TestMain puts it there)")
	}
	tm := &team{url: url, bare: bare, env: teamEnv(t)}
	root := t.TempDir()
	first := filepath.Join(root, "clone-0")
	tm.run(t, root, "skillrepo", "init", "--example", first)
	tm.run(t, first, "git", "remote", "add", "origin", url)
	if err := os.WriteFile(filepath.Join(first, ".skillrepo", "config.yaml"), []byte(teamConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.run(t, first, "git", "commit", "-qam", "share the library")
	for _, fn := range setup {
		fn(tm, first)
	}
	tm.run(t, first, "git", "push", "-q", "origin", "main")
	tm.run(t, first, "git", "fetch", "-q", "origin")
	tm.clone = append(tm.clone, first)
	for i := 1; i < n; i++ {
		dir := filepath.Join(root, "clone-"+strconv.Itoa(i))
		tm.run(t, root, "git", "clone", "-q", url, dir)
		tm.clone = append(tm.clone, dir)
	}
	return tm
}

// exec runs a program in dir and returns stdout, stderr and its error.
func (tm *team) exec(dir, stdin string, name string, args ...string) (string, string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = tm.env
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	return out.String(), errOut.String(), err
}

func (tm *team) run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	out, errOut, err := tm.exec(dir, "", name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, errOut)
	}
	return strings.TrimSpace(out)
}

func (tm *team) rev(t *testing.T, dir, r string) string {
	t.Helper()
	return tm.run(t, dir, "git", "rev-parse", r)
}

func (tm *team) remoteMain(t *testing.T) string {
	t.Helper()
	return tm.run(t, tm.bare, "git", "rev-parse", "refs/heads/main")
}

// sessionStart runs the SessionStart hook as Claude Code runs it.
func (tm *team) sessionStart(t *testing.T, dir string) {
	t.Helper()
	in := `{"session_id":"s-` + filepath.Base(dir) + `","hook_event_name":"SessionStart","source":"startup","cwd":"` + dir + `"}`
	if out, errOut, err := tm.exec(dir, in, "skillrepo", "hooks", "run", "claude-code", "SessionStart"); err != nil {
		t.Fatalf("SessionStart hook: %v\n%s%s", err, out, errOut)
	}
}

// quiet waits until no background remote sync runs or waits in any
// clone (their locks are free twice in a row), at most limit.
func (tm *team) quiet(t *testing.T, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	free := 0
	for free < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("background syncs still running after %s", limit)
		}
		busy := false
		for _, dir := range tm.clone {
			for _, name := range []string{"sync.lock", "queued.lock"} {
				if statefile.Held(filepath.Join(dir, ".git", "skillrepo", "remote", name)) {
					busy = true
				}
			}
		}
		if busy {
			free = 0
		} else {
			free++
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// TestSessionStartSyncsInBackground: the SessionStart hook answers the
// agent while the remote is still being fetched (the host is slow), and
// the background sync brings the other clone's work in afterwards.
func TestSessionStartSyncsInBackground(t *testing.T) {
	srv := gitserver.HTTP(t, gitserver.Options{})
	tm := newTeam(t, srv.Init(t, "skills.git"), srv.Dir("skills.git"), 2)
	a, b := tm.clone[0], tm.clone[1]
	tm.run(t, b, "skillrepo", "skill", "patch", "ci-debugging", "--old", "Pitfalls", "--new", "Traps")
	tm.run(t, b, "skillrepo", "remote", "sync")
	want := tm.remoteMain(t)
	before := tm.rev(t, a, "main")
	if before == want {
		t.Fatal("set-up: a already has b's work")
	}

	srv.SetDelay(time.Second) // every request of the fetch waits
	start := time.Now()
	tm.sessionStart(t, a)
	if got := tm.rev(t, a, "main"); got != before {
		t.Fatalf("main moved before the hook returned: the hook waited for the network")
	}
	deadline := time.Now().Add(90 * time.Second)
	for tm.rev(t, a, "main") != want {
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(a, ".git", "skillrepo", "logs", "remote.log"))
			t.Fatalf("the background sync did not bring b's work in; remote log:\n%s", log)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if took := time.Since(start); took < 2*time.Second {
		t.Errorf("the sync took %s through a host that holds each request 1 s: it did not go through the slow host", took)
	}
	srv.SetDelay(0)
	tm.quiet(t, time.Minute)
	if data, err := os.ReadFile(filepath.Join(a, "ci-debugging", "SKILL.md")); err != nil || !bytes.Contains(data, []byte("Traps")) {
		t.Errorf("a's work tree lacks b's change: %v", err)
	}
	if st := tm.run(t, a, "git", "status", "--porcelain"); st != "" {
		t.Errorf("git status after the sync:\n%s", st)
	}
}
