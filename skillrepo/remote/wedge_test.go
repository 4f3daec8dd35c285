package remote

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// pushConfig commits config.yaml with body in l by git and pushes main.
func pushConfig(t *testing.T, l *skillrepo.Library, env map[string]string, body, msg string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(l.Root, config.Path), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, l, env, "commit", "-q", "-am", msg)
	gitCmd(t, l, env, "push", "-q", "origin", "main")
}

// A broken config.yaml from the remote does not wedge remote sync: while
// it is broken the sync fast-forwards main only (no push, no merge), and
// the teammate's fix arrives by the next sync (issue 40 item 9: every
// later sync exited 1 and the fix never came by itself).
func TestRemoteSyncBrokenConfigFromRemote(t *testing.T) {
	s := newShared(t, nil, 2, bothMain())
	a, b := s.libs[0], s.libs[1]
	good := "version: 1\nremote:\n  main: both\n"
	pushConfig(t, a, s.env, good, "share main both ways")
	syncRemote(t, b, SyncOptions{})
	pushConfig(t, b, s.env, good+"bogus: [\n", "a broken config")
	if res := syncRemote(t, a, SyncOptions{}); res.Main != MainFastForward {
		t.Fatalf("the broken config's sync: main %s", res.Main)
	}
	a = reopen(t, a, s.env)
	if a.ConfigProblem() == nil {
		t.Fatal("the config from the remote has no problem")
	}
	res, err := New(a).Sync(context.Background(), SyncOptions{})
	if err == nil || !strings.Contains(err.Error(), "not valid YAML") || !res.Fetched {
		t.Fatalf("sync with the broken config: %+v, %v", res, err)
	}
	pushConfig(t, b, s.env, good, "fix the config")
	res, err = New(a).Sync(context.Background(), SyncOptions{})
	if err != nil || res.Main != MainFastForward {
		t.Fatalf("the fix did not arrive: %+v, %v", res, err)
	}
	if got := rev(t, a, s.env, "main"); got != s.remoteMain(t) {
		t.Errorf("main %s, the remote's %s", got, s.remoteMain(t))
	}
	a = reopen(t, a, s.env)
	if err := a.ConfigProblem(); err != nil || a.Config.Remote.Main != config.MainBoth {
		t.Fatalf("after the fix: %v, remote.main %s", err, a.Config.Remote.Main)
	}
	// Sharing goes on: a's own write is pushed.
	patchMain(t, a, "ci-debugging", "Pitfalls", "Traps")
	if res := syncRemote(t, a, SyncOptions{}); res.Main != MainPushed {
		t.Errorf("after the fix: main %s", res.Main)
	}
	s.check(t)
}

// A sync whose main cannot come in (the remote's commit is refused here)
// shows the failure in status, and a tracked symlink the remote replaced
// with a folder comes in (issue 40 item 9: every sync failed on it while
// status said "failures": []).
func TestRemoteSyncSymlinkBecomesFolder(t *testing.T) {
	s := newShared(t, nil, 2, bothMain())
	a, b := s.libs[0], s.libs[1]
	if err := os.Symlink("ci-debugging", filepath.Join(b.Root, "link")); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, b, s.env, "add", "link")
	gitCmd(t, b, s.env, "commit", "-q", "-m", "a link")
	gitCmd(t, b, s.env, "push", "-q", "origin", "main")
	syncRemote(t, a, SyncOptions{})
	gitCmd(t, b, s.env, "rm", "-q", "link")
	if err := os.MkdirAll(filepath.Join(b.Root, "link"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.Root, "link", "notes.md"), []byte("a folder now\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, b, s.env, "add", "link")
	gitCmd(t, b, s.env, "commit", "-q", "-m", "the link becomes a folder")
	gitCmd(t, b, s.env, "push", "-q", "origin", "main")
	if res := syncRemote(t, a, SyncOptions{}); res.Main != MainFastForward {
		t.Fatalf("main %s", res.Main)
	}
	if fi, err := os.Lstat(filepath.Join(a.Root, "link")); err != nil || !fi.IsDir() {
		t.Fatalf("link: %v %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(a.Root, "ci-debugging", "notes.md")); err == nil {
		t.Fatal("written through the old link")
	}
	// A commit this clone refuses (a symlink out of the library): the
	// sync fails, status says so, and says it no more once main came in.
	if err := os.Symlink("/etc", filepath.Join(b.Root, "out")); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, b, s.env, "add", "out")
	gitCmd(t, b, s.env, "commit", "-q", "-m", "a link out")
	gitCmd(t, b, s.env, "push", "-q", "origin", "main")
	if _, err := New(a).Sync(context.Background(), SyncOptions{}); err == nil {
		t.Fatal("a symlink out of the library came in")
	}
	st, err := New(a).Status()
	if err != nil {
		t.Fatal(err)
	}
	if f := st.Failures["main"]; f == nil || !strings.Contains(f.Message, "out") {
		t.Fatalf("status failures: %+v", st.Failures)
	}
}

// A diverge whose move of main is refused (an uncommitted edit in the
// way) leaves no diverged-* proposal: main still holds the work, and a
// proposal at main's tip would be an empty one (issue 40 item 12).
func TestRemoteSyncRefusedDivergeLeavesNoProposal(t *testing.T) {
	s := newShared(t, nil, 2, bothMain())
	a, b := s.libs[0], s.libs[1]
	patchMain(t, b, "ci-debugging", "Pitfalls", "Traps from b")
	syncRemote(t, b, SyncOptions{})
	patchMain(t, a, "ci-debugging", "Pitfalls", "Traps from a")
	main := rev(t, a, s.env, "main")
	p := filepath.Join(a.Root, "ci-debugging", "SKILL.md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(data, "an edit of the person's\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(a).Sync(context.Background(), SyncOptions{}); err == nil {
		t.Fatal("the diverge moved main over an uncommitted edit")
	}
	if got := rev(t, a, s.env, "main"); got != main {
		t.Fatalf("main moved: %s", got)
	}
	if refs := strings.TrimSpace(gitCmd(t, a, s.env, "for-each-ref", "refs/heads/proposals/")); refs != "" {
		t.Fatalf("a refused diverge left proposals:\n%s", refs)
	}
	if b, _ := os.ReadFile(p); !strings.Contains(string(b), "an edit of the person's") {
		t.Fatal("the person's edit is gone")
	}
	// Once the edit is recorded, the diverge goes through: the work is a
	// proposal and main follows the remote's.
	if _, err := a.Sync(context.Background(), skillrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := New(a).Sync(context.Background(), SyncOptions{})
	if err != nil || res.Main != MainProposed || !strings.HasPrefix(res.Proposal, "diverged-") {
		t.Fatalf("the second sync: %+v %v", res, err)
	}
}
