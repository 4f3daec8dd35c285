package remote

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/gitserver"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// shared is a team's library on a real git server: the first clone
// pushed the import; more clones come from the server.
type shared struct {
	srv  *gitserver.Server
	url  string
	env  map[string]string
	libs []*skillrepo.Library
}

const sharedRepo = "skills.git"

// newShared makes n libraries sharing one remote over srv (HTTP when
// nil), each with the remote: section cfg.
func newShared(t *testing.T, srv *gitserver.Server, n int, cfg config.Remote) *shared {
	t.Helper()
	if srv == nil {
		srv = gitserver.HTTP(t, gitserver.Options{})
	}
	a, env := newTestLibrary(t)
	s := &shared{srv: srv, url: srv.Init(t, sharedRepo), env: env}
	gitCmd(t, a, env, "remote", "add", "origin", s.url)
	gitCmd(t, a, env, "push", "-q", "origin", "main")
	gitCmd(t, a, env, "fetch", "-q", "origin")
	s.libs = append(s.libs, a)
	for len(s.libs) < n {
		s.libs = append(s.libs, cloneLibrary(t, s.url, env))
	}
	for _, l := range s.libs {
		l.Config.Remote = cfg
	}
	return s
}

func (s *shared) remoteMain(t *testing.T) string {
	t.Helper()
	return s.srv.Git(t, s.srv.Dir(sharedRepo), "rev-parse", "refs/heads/main")
}

// check is what every shared test ends with: nothing was forced on the
// server (its reflogs), and every repository passes git fsck --strict
// with a clean work tree.
func (s *shared) check(t *testing.T) {
	t.Helper()
	if f := s.srv.Forced(t, sharedRepo); len(f) > 0 {
		t.Errorf("forced updates on the server: %+v", f)
	}
	s.srv.Fsck(t, sharedRepo)
	for _, l := range s.libs {
		assertConsistent(t, l, s.env)
	}
}

func bothMain() config.Remote {
	c := config.DefaultRemote()
	c.Main, c.Proposals = config.MainBoth, config.ProposalsPush
	return c
}

// rev is the commit a revision names in l.

func syncRemote(t *testing.T, l *skillrepo.Library, opts SyncOptions) *SyncResult {
	t.Helper()
	res, err := New(l).Sync(context.Background(), opts)
	if err != nil {
		t.Fatalf("sync %s: %v", l.Root, err)
	}
	return res
}

func TestConfigRemoteSection(t *testing.T) {
	for _, tc := range []struct {
		yaml, err string
		want      config.Remote
	}{
		{"", "", config.DefaultRemote()},
		{"remote:\n  main: both\n  proposals: push\n  pull_request: gh\n", "", config.Remote{Name: "origin", Main: config.MainBoth, Proposals: config.ProposalsPush, PullRequest: config.PullRequestGH}},
		{"remote:\n  name: team\n  main: pull\n", "", config.Remote{Name: "team", Main: config.MainPull, Proposals: config.ProposalsOff, PullRequest: config.PullRequestOff}},
		{"remote:\n  main: sometimes\n", `remote.main: want pull, push, both or off, got "sometimes"`, config.Remote{}},
		{"remote:\n  pull_request: gitea\n", `remote.pull_request: want off, gh or glab, got "gitea"`, config.Remote{}},
		{"remote:\n  proposals: yes\n", `remote.proposals: want push or off, got "yes"`, config.Remote{}},
		{"remote:\n  name: --upload-pack=x\n", "starts with '-'", config.Remote{}},
		{"remote:\n  name: https://example.com/x.git\n", "is not a remote's name", config.Remote{}},
		{"remote:\n  mian: both\n", "remote.mian: unknown key", config.Remote{}},
	} {
		cfg, err := config.Parse([]byte("version: 1\n"+tc.yaml), t.TempDir())
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.yaml, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.yaml, err)
		case cfg.Remote != tc.want:
			t.Errorf("%q: %+v, want %+v", tc.yaml, cfg.Remote, tc.want)
		}
	}
}

// TestPublishProposal: a proposal goes to the remote with a lease; new
// commits move it forward; a branch someone else moved on the host is
// never overwritten. Over smart HTTP and git://.
func TestPublishProposal(t *testing.T) {
	for _, proto := range []string{"http", "git"} {
		t.Run(proto, func(t *testing.T) {
			var srv *gitserver.Server
			if proto == "git" {
				srv = gitserver.Daemon(t)
			}
			s := newShared(t, srv, 1, bothMain())
			a, ctx := s.libs[0], context.Background()
			propose(t, a, "p1", "ci-debugging", "Pitfalls", "Traps")
			res, err := New(a).Publish(ctx, "p1", PublishOptions{})
			if err != nil {
				t.Fatal(err)
			}
			tip := rev(t, a, s.env, "proposals/p1")
			if !res.Pushed || res.Tip.String() != tip || res.PullRequestNote != "remote.pull_request is off" {
				t.Fatalf("publish = %+v", res)
			}
			if got := s.srv.Refs(t, sharedRepo, "refs/heads/proposals/")["refs/heads/proposals/p1"]; got != tip {
				t.Fatalf("server proposals/p1 = %q, want %s", got, tip)
			}
			states := proposalRemotes(t, a)
			if states["p1"].State != "published" || states["p1"].At.IsZero() {
				t.Fatalf("remote state = %+v", states)
			}
			// Publishing again sends nothing.
			if res, err := New(a).Publish(ctx, "p1", PublishOptions{}); err != nil || res.Pushed {
				t.Fatalf("publish again = %+v, %v", res, err)
			}
			// A new commit: unpushed, then published (a fast-forward).
			propose(t, a, "p1", "ci-debugging", "first** error", "first** error line")
			if st := proposalRemotes(t, a)["p1"].State; st != "unpushed" {
				t.Fatalf("after a new commit: %q", st)
			}
			if res, err := New(a).Publish(ctx, "p1", PublishOptions{}); err != nil || !res.Pushed {
				t.Fatalf("publish the new commit = %+v, %v", res, err)
			}
			// A reviewer pushes a fix to the branch on the host; this
			// clone, not having fetched, makes a commit of its own: the
			// lease fails, the fetch shows a diverged branch, nothing is
			// overwritten.
			reviewer := filepath.Join(t.TempDir(), "reviewer")
			s.srv.Git(t, s.srv.Root, "clone", "-q", "-b", "proposals/p1", s.url, reviewer)
			if err := os.WriteFile(filepath.Join(reviewer, "NOTE.md"), []byte("reviewed\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			s.srv.Git(t, reviewer, "add", "NOTE.md")
			s.srv.Git(t, reviewer, "commit", "-q", "-m", "reviewer's note")
			s.srv.Git(t, reviewer, "push", "-q", "origin", "proposals/p1")
			theirs := s.srv.Git(t, reviewer, "rev-parse", "HEAD")
			propose(t, a, "p1", "git-bisect-regressions", "when done.", "when done, always.")
			_, err = New(a).Publish(ctx, "p1", PublishOptions{})
			var rr *RejectedError
			if !errors.As(err, &rr) || !errors.Is(err, skillrepo.ErrConflict) || !strings.Contains(rr.Hint(), "git merge origin/proposals/p1") {
				t.Fatalf("publish over a reviewer's commit = %v", err)
			}
			if got := s.srv.Refs(t, sharedRepo, "refs/heads/proposals/")["refs/heads/proposals/p1"]; got != theirs {
				t.Errorf("server proposals/p1 = %s, want the reviewer's %s", got, theirs)
			}
			if st := proposalRemotes(t, a)["p1"].State; st != "diverged" {
				t.Errorf("state after the refusal = %q", st)
			}
			s.check(t)
		})
	}
}

func proposalRemotes(t *testing.T, l *skillrepo.Library) map[string]ProposalState {
	t.Helper()
	props, err := l.Proposals().List(skillrepo.ProposalQuery{CheckMerge: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(l).Proposals(props)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestSyncRemoteShareMain: two clones write to main; each sync brings
// the other's work in (a fast-forward or a three-way merge) and pushes
// with a lease; both end on the remote's main.
func TestSyncRemoteShareMain(t *testing.T) {
	s := newShared(t, nil, 2, bothMain())
	a, b := s.libs[0], s.libs[1]
	patchMain(t, b, "ci-debugging", "Pitfalls", "Traps")
	if res := syncRemote(t, b, SyncOptions{}); res.Main != MainPushed || res.Pushes != 1 {
		t.Fatalf("b's sync = %+v", res)
	}
	patchMain(t, a, "git-bisect-regressions", "when done.", "when done, always.")
	res := syncRemote(t, a, SyncOptions{})
	if res.Main != MainPushed || res.Rounds != 1 {
		t.Fatalf("a's sync = %+v", res)
	}
	merge := rev(t, a, s.env, "main")
	if merge != s.remoteMain(t) || strings.TrimSpace(gitCmd(t, a, s.env, "rev-list", "--count", "--merges", "-1", "main")) != "1" {
		t.Fatalf("a's main %s is not the merge on the remote %s", merge, s.remoteMain(t))
	}
	if v := strings.TrimSpace(gitCmd(t, a, s.env, "log", "-1", "--format=%(trailers:key=Remote,valueonly)", "main")); v != "origin" {
		t.Errorf("merge commit's Remote trailer = %q", v)
	}
	if res := syncRemote(t, b, SyncOptions{}); res.Main != MainFastForward || res.After.String() != merge {
		t.Fatalf("b's second sync = %+v", res)
	}
	for _, l := range s.libs {
		if !strings.Contains(readWorktree(t, l, "ci-debugging/SKILL.md"), "Traps") ||
			!strings.Contains(readWorktree(t, l, "git-bisect-regressions/SKILL.md"), "when done, always.") {
			t.Errorf("%s: work tree misses a change", l.Root)
		}
	}
	// Up to date: nothing moves, nothing is pushed.
	if res := syncRemote(t, a, SyncOptions{}); res.Main != MainUpToDate || res.Pushes != 0 {
		t.Errorf("idle sync = %+v", res)
	}
	s.check(t)
}

// TestSyncRemoteModes: pull never pushes; push never brings the
// remote's main in unless a push needs it.
func TestSyncRemoteModes(t *testing.T) {
	cfg := bothMain()
	s := newShared(t, nil, 2, cfg)
	a, b := s.libs[0], s.libs[1]
	a.Config.Remote.Main, b.Config.Remote.Main = config.MainPull, config.MainPush
	before := s.remoteMain(t)
	patchMain(t, a, "ci-debugging", "Pitfalls", "Traps")
	if res := syncRemote(t, a, SyncOptions{}); res.Main != MainAhead || res.Pushes != 0 {
		t.Fatalf("pull-only sync with a commit = %+v", res)
	}
	if s.remoteMain(t) != before {
		t.Fatal("remote.main: pull pushed main")
	}
	// b pushes; a (pull) merges it in; b (push) does not take a's back.
	patchMain(t, b, "git-bisect-regressions", "when done.", "when done, always.")
	if res := syncRemote(t, b, SyncOptions{}); res.Main != MainPushed {
		t.Fatalf("push-only sync = %+v", res)
	}
	if res := syncRemote(t, a, SyncOptions{}); res.Main != MainMerged {
		t.Fatalf("pull-only sync after b's push = %+v", res)
	}
	if res := syncRemote(t, b, SyncOptions{}); res.Main != MainUpToDate {
		t.Fatalf("push-only sync with nothing to send = %+v", res)
	}
	s.check(t)
}

// TestSyncRemoteConflictBecomesProposal: both clones change the same
// line; the second to sync keeps its work as a published proposal and
// its main follows the remote's. Nothing is lost or forced.
func TestSyncRemoteConflictBecomesProposal(t *testing.T) {
	s := newShared(t, nil, 2, bothMain())
	a, b := s.libs[0], s.libs[1]
	patchMain(t, b, "ci-debugging", "Pitfalls", "Traps")
	syncRemote(t, b, SyncOptions{})
	patchMain(t, a, "ci-debugging", "Pitfalls", "Snares")
	ours := rev(t, a, s.env, "main")
	res := syncRemote(t, a, SyncOptions{})
	if res.Main != MainProposed || !strings.HasPrefix(res.Proposal, "diverged-") || !strings.Contains(res.Reason, "ci-debugging/SKILL.md") {
		t.Fatalf("sync of a conflict = %+v", res)
	}
	if got := rev(t, a, s.env, "main"); got != s.remoteMain(t) {
		t.Errorf("a's main %s, want the remote's %s", got, s.remoteMain(t))
	}
	if got := rev(t, a, s.env, skillrepo.ProposalBranch(res.Proposal)); got != ours {
		t.Errorf("proposal %s at %s, want a's old main %s", res.Proposal, got, ours)
	}
	if len(res.Published) != 1 || res.Published[0].ID != res.Proposal {
		t.Fatalf("published = %+v", res.Published)
	}
	if got := s.srv.Refs(t, sharedRepo, "refs/heads/proposals/")["refs/heads/"+skillrepo.ProposalBranch(res.Proposal)]; got != ours {
		t.Errorf("server has the proposal at %q, want %s", got, ours)
	}
	if !strings.Contains(readWorktree(t, a, "ci-debugging/SKILL.md"), "Traps") {
		t.Error("a's work tree does not follow the remote's main")
	}
	// The next sync neither proposes again nor moves anything.
	if res := syncRemote(t, a, SyncOptions{}); res.Main != MainUpToDate || res.Proposal != "" {
		t.Errorf("sync after = %+v", res)
	}
	s.check(t)
}

// TestSyncRemoteLostRaces: a server whose main always moves while our
// push is received (another clone winning every race): the sync fetches,
// merges and retries a bounded number of times, then leaves this clone's
// work as a published proposal.
func TestSyncRemoteLostRaces(t *testing.T) {
	s := newShared(t, nil, 1, bothMain())
	a := s.libs[0]
	// The hook runs outside the push's quarantine and moves main by one
	// commit of another writer before the push's update is applied.
	s.srv.Hook(t, sharedRepo, "pre-receive", `#!/bin/sh
unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES
export GIT_AUTHOR_NAME=other GIT_AUTHOR_EMAIL=other@example.com GIT_COMMITTER_NAME=other GIT_COMMITTER_EMAIL=other@example.com
while read old new ref; do
  [ "$ref" = refs/heads/main ] || continue
  cur=$(git rev-parse refs/heads/main)
  c=$(git commit-tree -p "$cur" -m "another clone" "$cur^{tree}")
  git update-ref refs/heads/main "$c" "$cur"
done
exit 0
`)
	patchMain(t, a, "ci-debugging", "Pitfalls", "Traps")
	ours := rev(t, a, s.env, "main")
	res := syncRemote(t, a, SyncOptions{Attempts: 3})
	if res.Main != MainProposed || res.Pushes != 3 || !strings.Contains(res.Reason, "gave up after 3 pushes") {
		t.Fatalf("sync = %+v", res)
	}
	tip := rev(t, a, s.env, skillrepo.ProposalBranch(res.Proposal))
	if gitIn(t, a.Root, s.env, true, "merge-base", "--is-ancestor", ours, tip) != "" {
		t.Fatal("the proposal does not hold the clone's commit")
	}
	if got := s.srv.Refs(t, sharedRepo, "refs/heads/proposals/")["refs/heads/"+skillrepo.ProposalBranch(res.Proposal)]; got != tip {
		t.Errorf("server has the proposal at %q, want %s", got, tip)
	}
	if got := rev(t, a, s.env, "main"); got != s.remoteMain(t) {
		t.Errorf("a's main %s, want the remote's %s", got, s.remoteMain(t))
	}
	s.check(t)
}

// TestSyncRemoteSettlesHostApprovals: proposals a person approved on the
// host — a merge commit, a squash, a rebase — are settled here by the
// next sync.
func TestSyncRemoteSettlesHostApprovals(t *testing.T) {
	s := newShared(t, nil, 1, bothMain())
	a, ctx := s.libs[0], context.Background()
	propose(t, a, "merged", "ci-debugging", "Pitfalls", "Traps")
	propose(t, a, "squashed", "git-bisect-regressions", "when done.", "when done, always.")
	propose(t, a, "rebased", "ci-debugging", "first** error", "first** error line")
	propose(t, a, "open", "docker-cleanup", "Measure first", "Measure before anything")
	for _, id := range []string{"merged", "squashed", "rebased", "open"} {
		if _, err := New(a).Publish(ctx, id, PublishOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	person := filepath.Join(t.TempDir(), "person")
	git := func(args ...string) string { t.Helper(); return s.srv.Git(t, person, args...) }
	s.srv.Git(t, s.srv.Root, "clone", "-q", s.url, person)
	git("merge", "-q", "--no-ff", "-m", "Merge pull request 1", "origin/proposals/merged")
	git("merge", "-q", "--squash", "origin/proposals/squashed")
	git("commit", "-q", "-m", "Squashed pull request 2")
	git("cherry-pick", "origin/proposals/rebased")
	git("push", "-q", "origin", "main", ":proposals/merged", ":proposals/squashed", ":proposals/rebased")

	res := syncRemote(t, a, SyncOptions{})
	if strings.Join(res.Settled, " ") != "merged rebased squashed" || res.Main != MainFastForward {
		t.Fatalf("sync = %+v", res)
	}
	props, err := a.Proposals().List(skillrepo.ProposalQuery{})
	if err != nil || len(props) != 1 || props[0].ID != "open" {
		t.Fatalf("proposals left = %v, %v", props, err)
	}
	for _, id := range []string{"squashed", "rebased"} {
		rev(t, a, s.env, skillrepo.SettledRefPrefix+id)
	}
	if st := proposalRemotes(t, a)["open"].State; st != "published" {
		t.Errorf("open proposal's remote state = %q", st)
	}
	// Closed on the host without merging: the listing says so.
	git("push", "-q", "origin", ":proposals/open")
	syncRemote(t, a, SyncOptions{})
	if st := proposalRemotes(t, a)["open"].State; st != "closed" {
		t.Errorf("closed proposal's remote state = %q", st)
	}
	s.check(t)
}

// TestSyncRemoteLocalApprovalDeletesRemoteBranch: a proposal approved
// here is pushed with main and its branch on the host goes (leased).
func TestSyncRemoteLocalApprovalDeletesRemoteBranch(t *testing.T) {
	s := newShared(t, nil, 1, bothMain())
	a, ctx := s.libs[0], context.Background()
	propose(t, a, "p1", "ci-debugging", "Pitfalls", "Traps")
	if _, err := New(a).Publish(ctx, "p1", PublishOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := person(t, a).ApproveProposal(ctx, "p1", skillrepo.ApproveOptions{}); err != nil {
		t.Fatal(err)
	}
	if res := syncRemote(t, a, SyncOptions{}); res.Main != MainPushed {
		t.Fatalf("sync = %+v", res)
	}
	if refs := s.srv.Refs(t, sharedRepo, "refs/heads/proposals/"); len(refs) != 0 {
		t.Errorf("server still has %v", refs)
	}
	s.check(t)
}

// TestRemoteFailures: each failure is sorted into what a person can fix
// and kept for status until the operation next succeeds.
func TestRemoteFailures(t *testing.T) {
	t.Run("protected", func(t *testing.T) {
		s := newShared(t, nil, 1, bothMain())
		a := s.libs[0]
		s.srv.Hook(t, sharedRepo, "pre-receive", `#!/bin/sh
while read old new ref; do
  if [ "$ref" = refs/heads/main ]; then echo "error: GH006: Protected branch update failed for refs/heads/main." >&2; exit 1; fi
done
`)
		patchMain(t, a, "ci-debugging", "Pitfalls", "Traps")
		_, err := New(a).Sync(context.Background(), SyncOptions{})
		var re *Error
		if !errors.As(err, &re) || re.Kind != FailProtected || !strings.Contains(re.Fix, "remote.main: pull") {
			t.Fatalf("push to a protected main = %v", err)
		}
		st := remoteStatus(t, a)
		if f := st.Failures["push main"]; f == nil || f.Kind != FailProtected {
			t.Fatalf("status = %+v", st)
		}
		// Proposals still travel.
		propose(t, a, "p1", "git-bisect-regressions", "when done.", "when done, always.")
		if _, err := New(a).Publish(context.Background(), "p1", PublishOptions{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("auth", func(t *testing.T) {
		srv := gitserver.HTTP(t, gitserver.Options{User: "ada", Password: "secret"})
		a, env := newTestLibrary(t)
		a.Config.Remote = bothMain()
		gitCmd(t, a, env, "remote", "add", "origin", srv.Init(t, sharedRepo))
		_, err := New(a).Sync(context.Background(), SyncOptions{})
		var re *Error
		if !errors.As(err, &re) || re.Kind != FailAuth || re.Op != "fetch" {
			t.Fatalf("fetch without credentials = %v", err)
		}
		if f := remoteStatus(t, a).Failures["fetch"]; f == nil || f.Kind != FailAuth || f.Fix == "" {
			t.Fatalf("recorded failure = %+v", f)
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		a, env := newTestLibrary(t)
		a.Config.Remote = bothMain()
		gitCmd(t, a, env, "remote", "add", "origin", "http://127.0.0.1:1/skills.git")
		_, err := New(a).Sync(context.Background(), SyncOptions{})
		var re *Error
		if !errors.As(err, &re) || re.Kind != FailUnreachable {
			t.Fatalf("fetch from a closed port = %v", err)
		}
	})
	t.Run("missing", func(t *testing.T) {
		a, _ := newTestLibrary(t)
		a.Config.Remote = bothMain()
		_, err := New(a).Sync(context.Background(), SyncOptions{})
		var re *Error
		if !errors.As(err, &re) || re.Kind != FailMissing || !strings.Contains(re.Fix, "git remote add origin") {
			t.Fatalf("sync without a remote = %v", err)
		}
	})
}

func remoteStatus(t *testing.T, l *skillrepo.Library) *Status {
	t.Helper()
	st, err := New(l).Status()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestSyncPublishesStagedProposalsInBatches: the proposals reviews staged
// (Skill-Origin background-review) are published by the next sync, a
// hundred branches per git push, each leased; a person's own proposal
// stays here until they publish it.
func TestSyncPublishesStagedProposalsInBatches(t *testing.T) {
	s := newShared(t, nil, 1, bothMain())
	a := s.libs[0]
	pushes := filepath.Join(t.TempDir(), "pushes")
	s.srv.Hook(t, sharedRepo, "post-receive", "#!/bin/sh\necho push >> '"+pushes+"'\n")
	const n = 150
	for i := range n {
		id := "r-" + strconv.Itoa(i)
		w := skillrepo.Writer{Branch: skillrepo.ProposalBranch(id), From: a.MainBranch(), AllowOverlap: true,
			Provenance: skillrepo.Provenance{Origin: skillrepo.OriginBackgroundReview, ReviewID: id, Model: "m"}}
		op := skillrepo.Op{Action: skillrepo.ActionCreate, Name: "batch-" + strconv.Itoa(i), Content: strp("---\nname: batch-" + strconv.Itoa(i) + "\ndescription: Use when batch " + strconv.Itoa(i) + " zq" + strconv.Itoa(i*7919) + " happens.\n---\n# Batch\n\nStep " + strconv.Itoa(i*104729) + ".\n")}
		if _, err := write(t, a, w).Apply(context.Background(), []skillrepo.Op{op}, false); err != nil {
			t.Fatal(err)
		}
	}
	mine := skillrepo.Writer{Proposal: "mine"}
	if _, err := write(t, a, mine).Apply(context.Background(), []skillrepo.Op{{Action: skillrepo.ActionPatch, Name: "ci-debugging", OldString: strp("Pitfalls"), NewString: strp("Traps")}}, false); err != nil {
		t.Fatal(err)
	}
	patchMain(t, a, "git-bisect-regressions", "when done.", "when done, always.")
	res := syncRemote(t, a, SyncOptions{})
	if len(res.Published) != n {
		t.Fatalf("published %d, want %d: %v", len(res.Published), n, res.Notes)
	}
	refs := s.srv.Refs(t, sharedRepo, "refs/heads/proposals/")
	if len(refs) != n || refs["refs/heads/proposals/mine"] != "" {
		t.Fatalf("server has %d proposal branches (mine: %q)", len(refs), refs["refs/heads/proposals/mine"])
	}
	data, err := os.ReadFile(pushes)
	if err != nil {
		t.Fatal(err)
	}
	// main, then the proposals in two batches.
	if got := strings.Count(string(data), "push"); got != 3 {
		t.Errorf("%d pushes reached the server, want 3 (main and two batches of proposals)", got)
	}
	states := proposalRemotes(t, a)
	if states["r-0"].State != "published" || states["mine"].State != "" {
		t.Errorf("states: r-0 %+v, mine %+v", states["r-0"], states["mine"])
	}
	s.check(t)
}
