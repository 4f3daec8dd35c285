package skillrepo

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// The branch verbs do what git would see: a proposal made from a working
// branch is that branch under proposals/, the working branch is gone, and
// the approval is found again on main once the proposal's branch is gone.
func TestProposeBranchAndProposalMerge(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	_, err := l.apply(ctx, applyOptions{
		Branch: "curator/r1", From: l.MainBranch(),
		Ops:        []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("Pitfalls"), NewString: strp("Pitfalls to avoid")}},
		Provenance: Provenance{Origin: OriginCurator},
	})
	if err != nil {
		t.Fatal(err)
	}
	tip, err := l.BranchTip("curator/r1")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := l.Proposals().Merge("curator-r1"); err != nil || !got.IsZero() {
		t.Fatalf("ProposalMerge before approval = %v, %v; want zero", got, err)
	}
	if err := l.Proposals().FromBranch("curator/r1", "curator-r1", tip, "test: waits"); err != nil {
		t.Fatal(err)
	}
	if err := l.Proposals().FromBranch("curator/r1", "curator-r1", tip, "test: again"); !errors.Is(err, ErrConflict) {
		t.Errorf("proposing over an existing proposal: %v, want ErrConflict", err)
	}
	if got := gitCmd(t, l, env, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"); !strings.Contains(got, "refs/heads/proposals/curator-r1 "+tip.String()) || strings.Contains(got, "refs/heads/curator/") {
		t.Fatalf("refs after ProposeBranch:\n%s", got)
	}
	if ids, err := l.Proposals().IDs(); err != nil || len(ids) != 1 || ids[0] != "curator-r1" {
		t.Fatalf("ProposalIDs = %v, %v", ids, err)
	}
	res, err := person(l).ApproveProposal(ctx, "curator-r1", ApproveOptions{By: "Tester <t@example.com>"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := l.Proposals().Merge("curator-r1")
	if err != nil || got != res.Commit || got.IsZero() {
		t.Fatalf("ProposalMerge = %v, %v; want the approval %v", got, err, res.Commit)
	}
	if want := strings.TrimSpace(gitCmd(t, l, env, "log", "--first-parent", "-n1", "--format=%H", "--grep", "^Proposal-Id: curator-r1$", "main")); got.String() != want {
		t.Errorf("ProposalMerge = %v, git log --grep finds %s", got, want)
	}
	assertConsistent(t, l, env)
}

// A curator run's base is kept once, read back and listed; the ref lives
// where git users find it.
func TestCuratorRunBase(t *testing.T) {
	l, env := newTestLibrary(t)
	main, err := l.MainTip()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.CuratorRuns().Base("r1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("CuratorRunBase of a run that kept none: %v", err)
	}
	if err := l.CuratorRuns().KeepBase("r1", main); err != nil {
		t.Fatal(err)
	}
	if err := l.CuratorRuns().KeepBase("r1", main); !errors.Is(err, ErrConflict) {
		t.Errorf("keeping a base twice: %v, want ErrConflict", err)
	}
	if got, err := l.CuratorRuns().Base("r1"); err != nil || got != main {
		t.Errorf("CuratorRunBase = %v, %v; want %v", got, err, main)
	}
	if ids, err := l.CuratorRuns().IDs(); err != nil || len(ids) != 1 || ids[0] != "r1" {
		t.Errorf("CuratorRunIDs = %v, %v", ids, err)
	}
	if got := strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "refs/skillrepo/curator/r1")); got != main.String() {
		t.Errorf("git rev-parse refs/skillrepo/curator/r1 = %s, want %v", got, main)
	}
}

// Only an archived folder can be purged; a live skill is refused and
// nothing is written.
func TestPurgeArchivedOnlyArchive(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	before, _ := l.MainTip()
	for _, dir := range []string{"ci-debugging", ".archive", ".archive/../ci-debugging", ".archive/"} {
		_, err := l.update(ctx, updateOptions{}, func(tx *writeTx) error {
			if err := tx.PurgeArchived(dir); err != nil {
				return err
			}
			_, err := tx.Commit(Message{Subject: "purge"})
			return err
		})
		if !errors.Is(err, ErrRefused) {
			t.Errorf("PurgeArchived(%q): %v, want ErrRefused", dir, err)
		}
	}
	if after, _ := l.MainTip(); after != before {
		t.Errorf("a refused purge moved main")
	}
	assertConsistent(t, l, env)
}
