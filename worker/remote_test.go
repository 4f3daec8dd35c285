package worker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/internal/gitserver"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// share gives the fixture's library a remote on a real git server and
// the remote: section (main: both, proposals: push), with write approval
// as given, committed; it returns the server.
func (f *fixture) share(writeApproval bool) *gitserver.Server {
	f.t.Helper()
	srv := gitserver.HTTP(f.t, gitserver.Options{})
	url := srv.Init(f.t, "skills.git")
	p := filepath.Join(f.lib.Root, filepath.FromSlash(config.Path))
	data, err := os.ReadFile(p)
	if err != nil {
		f.t.Fatal(err)
	}
	cfg := string(data)
	if writeApproval {
		cfg = strings.Replace(cfg, "write_approval: false", "write_approval: true", 1)
	}
	cfg += "\nremote:\n  main: both\n  proposals: push\n"
	if err := os.WriteFile(p, []byte(cfg), 0o644); err != nil {
		f.t.Fatal(err)
	}
	f.git("commit", "-qam", "share the library")
	f.git("remote", "add", "origin", url)
	f.git("push", "-q", "origin", "main")
	return srv
}

// TestWorkerPublishesProposal: a review with write approval on leaves a
// proposal; the worker publishes it on the remote right after the entry.
func TestWorkerPublishesProposal(t *testing.T) {
	f := newFixture(t, createReply("pnpm-workflows"), fakemodel.Reply{Content: "Created pnpm-workflows."})
	srv := f.share(true)
	e := f.enqueue("s-1")
	f.run()
	got, err := f.store.Get(e.ID)
	if err != nil || got.Outcome == nil || got.Outcome.Proposal == "" || got.Outcome.Merged {
		t.Fatalf("entry = %+v, %v\nlog:\n%s", got, err, f.log.String())
	}
	branch := "refs/heads/proposals/" + got.Outcome.Proposal
	tip := strings.TrimSpace(f.git("rev-parse", branch))
	if on := srv.Refs(t, "skills.git", "refs/heads/proposals/")[branch]; on != tip {
		t.Fatalf("server has %s at %q, want %s\nlog:\n%s", branch, on, tip, f.log.String())
	}
	if !strings.Contains(f.log.String(), "published "+got.Outcome.Proposal) {
		t.Errorf("the worker log does not say so:\n%s", f.log.String())
	}
	f.clean()
}

// TestWorkerSharesMain: a review with write approval off lands on main;
// the worker sends main out with a lease.
func TestWorkerSharesMain(t *testing.T) {
	f := newFixture(t, createReply("pnpm-workflows"), fakemodel.Reply{Content: "Created pnpm-workflows."})
	srv := f.share(false)
	e := f.enqueue("s-1")
	f.run()
	got, err := f.store.Get(e.ID)
	if err != nil || got.Outcome == nil || !got.Outcome.Merged {
		t.Fatalf("entry = %+v, %v\nlog:\n%s", got, err, f.log.String())
	}
	main := strings.TrimSpace(f.git("rev-parse", "main"))
	if on := srv.Git(t, srv.Dir("skills.git"), "rev-parse", "main"); on != main {
		t.Fatalf("server main %s, want %s\nlog:\n%s", on, main, f.log.String())
	}
	if f := srv.Forced(t, "skills.git"); len(f) > 0 {
		t.Errorf("forced: %+v", f)
	}
	f.clean()
}
