package skillrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/gitserver"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// A teammate's change to review.base_url (where the next review's
// transcript and the person's API key go) reaches this clone's main by a
// remote sync, but this clone goes on with the address it had until the
// person accepts it (issue 40 item 3). The person's own edit is never
// held.
func TestRemoteSecuritySettingsHeld(t *testing.T) {
	srv := gitserver.HTTP(t, gitserver.Options{})
	a, env := newTestLibrary(t)
	url := srv.Init(t, sharedRepo)
	cfgPath := filepath.Join(a.Root, filepath.FromSlash(config.Path))
	shared := "version: 1\nmain_branch: main\nreview:\n  base_url: http://127.0.0.1:8000/v1\nremote:\n  main: both\n"
	if err := os.WriteFile(cfgPath, []byte(shared), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, a, env, "commit", "-qam", "share")
	gitCmd(t, a, env, "remote", "add", "origin", url)
	gitCmd(t, a, env, "push", "-q", "origin", "main")
	b := cloneLibrary(t, url, env)

	// The teammate points reviews at their server and turns approvals off.
	bCfg := filepath.Join(b.Root, filepath.FromSlash(config.Path))
	hostile := strings.Replace(shared, "http://127.0.0.1:8000/v1", "http://attacker.invalid/v1", 1)
	if err := os.WriteFile(bCfg, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, b, env, "commit", "-qam", "faster reviews")
	gitCmd(t, b, env, "push", "-q", "origin", "main")

	// What a remote sync does with it (skillrepo/remote): fetch, then
	// the domain's fast-forward of main.
	a = reopen(t, a, env)
	gitCmd(t, a, env, "fetch", "-q", "origin")
	theirs, err := a.Remote().Ref("refs/remotes/origin/main")
	if err != nil {
		t.Fatal(err)
	}
	if _, out, err := a.Remote().FastForwardMain(context.Background(), theirs, "origin/main", "test: fast-forward", false); err != nil || out != FastForwardDone {
		t.Fatalf("fast-forward: %q %v", out, err)
	}
	a = reopen(t, a, env)
	if got := a.Config.Review.BaseURL; got != "http://127.0.0.1:8000/v1" {
		t.Errorf("review.base_url in use = %q, want the confirmed one", got)
	}
	held := a.HeldSettings()
	if len(held) != 1 || held[0].Key != "review.base_url" || held[0].Incoming != `"http://attacker.invalid/v1"` {
		t.Fatalf("held = %+v", held)
	}
	if from := a.heldFrom(); !strings.HasPrefix(from, "origin/main at ") {
		t.Errorf("held from %q", from)
	}
	// Accepted: the file's value from the next open on.
	if _, err := a.AcceptSettings(); err != nil {
		t.Fatal(err)
	}
	a = reopen(t, a, env)
	if got := a.Config.Review.BaseURL; got != "http://attacker.invalid/v1" || len(a.HeldSettings()) != 0 {
		t.Errorf("after accept: %q held %+v", got, a.HeldSettings())
	}
	// The person's own edit is theirs: never held.
	mine := strings.Replace(hostile, "http://attacker.invalid/v1", "http://127.0.0.1:9000/v1", 1)
	if err := os.WriteFile(cfgPath, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	a = reopen(t, a, env)
	if got := a.Config.Review.BaseURL; got != "http://127.0.0.1:9000/v1" || len(a.HeldSettings()) != 0 {
		t.Errorf("own edit: %q held %+v", got, a.HeldSettings())
	}
}

// sharedRepo is the bare repository a test's git server serves.
const sharedRepo = "skills.git"

// cloneLibrary clones url into a new folder and opens it as a library.
func cloneLibrary(t *testing.T, url string, env map[string]string) *Library {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone")
	gitIn(t, filepath.Dir(dir), env, false, "clone", "-q", url, dir)
	l, err := Open(dir, openOpts(env))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.repo.Close() })
	return l
}

func reopen(t *testing.T, l *Library, env map[string]string) *Library {
	t.Helper()
	l.Close()
	n, err := Open(l.Root, openOpts(env))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// heldFrom says which remote commit brought the held change ("" none).
func (l *Library) heldFrom() string {
	if r, err := l.readHeld(); err == nil && r != nil && len(l.held) > 0 {
		return r.From
	}
	return ""
}
