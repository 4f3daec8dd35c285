package skillrepo

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"testing"
)

// A memo shared by the libraries opened one per request answers as a
// library without one after every kind of move of main or a proposal,
// through the library's writes and the git binary's.
func TestMemoFollowsMovedTips(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	memo := NewMemo()
	open := func(m *Memo) *Library {
		opts := openOpts(env)
		opts.Memo, opts.SkipRecovery = m, true
		lib, err := Open(l.Root, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { lib.repo.Close() })
		return lib
	}
	type reads struct {
		Open, Rejected, Got []*Proposal
		Owners              map[string]Ownership
	}
	read := func(lib *Library) reads {
		t.Helper()
		var r reads
		var err error
		if r.Open, err = lib.Proposals().List(ProposalQuery{CheckMerge: true}); err != nil {
			t.Fatal(err)
		}
		if r.Rejected, err = lib.Proposals().List(ProposalQuery{Rejected: true}); err != nil {
			t.Fatal(err)
		}
		if r.Got, err = lib.Proposals().GetAll([]string{"p1", "nope"}); err != nil {
			t.Fatal(err)
		}
		if r.Owners, err = lib.Owners().At(""); err != nil {
			t.Fatal(err)
		}
		return r
	}
	one := func(ps []*Proposal) *Proposal {
		if len(ps) != 1 {
			return nil
		}
		return ps[0]
	}
	steps := []struct {
		name  string
		write func()
		want  func(r reads) bool
	}{
		{"proposal opened", func() {
			propose(t, l, "p1", "ci-debugging", "watch the job to the end", "watch the job until it is green")
		},
			func(r reads) bool { p := one(r.Open); return p != nil && len(p.Commits) == 1 && p.Mergeable() }},
		{"proposal's tip moves", func() { propose(t, l, "p1", "ci-debugging", "Pitfalls", "Pitfalls to avoid") },
			func(r reads) bool { p := one(r.Open); return p != nil && len(p.Commits) == 2 && p.Added == 2 }},
		{"main moves into a conflict", func() { patchMain(t, l, "ci-debugging", "watch the job to the end", "watch the job closely") },
			func(r reads) bool { p := one(r.Open); return p != nil && p.Checked && len(p.Conflicts) > 0 }},
		{"git moves main back", func() { gitCmd(t, l, env, "update-ref", "refs/heads/main", "main^") },
			func(r reads) bool { p := one(r.Open); return p != nil && p.Mergeable() }},
		{"git moves the proposal's tip back", func() { gitCmd(t, l, env, "update-ref", "refs/heads/proposals/p1", "proposals/p1^") },
			func(r reads) bool {
				p := one(r.Open)
				return p != nil && len(p.Commits) == 1 && one(r.Got) != nil && len(one(r.Got).Commits) == 1
			}},
		{"ownership changes on main", func() {
			if _, err := person(l).Adopt(ctx, "ci-debugging", MetaOptions{}); err != nil {
				t.Fatal(err)
			}
		}, func(r reads) bool {
			for _, o := range r.Owners {
				if o.Name == "ci-debugging" {
					return o.Owner == OwnerCurator
				}
			}
			return false
		}},
		{"proposal rejected", func() {
			if _, err := person(l).RejectProposal(ctx, "p1", RejectOptions{By: "Rev <rev@example.com>", Reason: "too vague"}); err != nil {
				t.Fatal(err)
			}
		}, func(r reads) bool {
			p := one(r.Rejected)
			return len(r.Open) == 0 && p != nil && p.Rejection != nil && p.Rejection.Reason == "too vague"
		}},
	}
	_ = read(open(memo)) // the memo holds the first state
	for _, st := range steps {
		st.write()
		got, want := read(open(memo)), read(open(nil))
		if !st.want(want) {
			t.Fatalf("%s: the write did not show: %+v", st.name, want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: with the memo\n%+v\nwithout\n%+v", st.name, got, want)
		}
		// Asked again, the answer comes from the memo and is the same.
		if again := read(open(memo)); !reflect.DeepEqual(again, want) {
			t.Fatalf("%s: from the memo\n%+v\nwant\n%+v", st.name, again, want)
		}
	}
	memo.mu.Lock()
	defer memo.mu.Unlock()
	if memo.proposals.Len() == 0 || memo.owners.Len() == 0 {
		t.Errorf("the memo kept nothing: %d proposals, %d owners", memo.proposals.Len(), memo.owners.Len())
	}
}

// TestOwnershipStepMatchesFullPass checks that the ownership a memo makes
// one commit from its parent's state (ownershipStep) is the whole pass's,
// through the churn of skillcatalog_test.go (creates anywhere, renames,
// moves, archives, deletes, skills turned into categories, main reset to
// older commits) and creates by a review and the curator, adopts and
// disowns; and that the cache file written beside it reads back the same.
func TestOwnershipStepMatchesFullPass(t *testing.T) {
	c := newChurn(t, 3)
	memo := NewMemo()
	open := func(m *Memo) *Library {
		opts := openOpts(c.env)
		opts.Memo, opts.SkipRecovery = m, true
		lib, err := Open(c.l.Root, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { lib.repo.Close() })
		return lib
	}
	ctx := context.Background()
	stepped := 0
	for i := 0; i < 80; i++ {
		switch c.rng.Intn(4) {
		case 0:
			c.step()
		case 1: // a review's or the curator's create
			c.n++
			name := fmt.Sprintf("s%d", c.n)
			origin := []string{OriginBackgroundReview, OriginCurator}[c.rng.Intn(2)]
			if _, err := c.l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionCreate, Name: name, Content: strp(c.skillText(name)), ForceNew: true, Reason: "test"}},
				Provenance: Provenance{Origin: origin, ReviewID: "r-" + name, Model: "m"}}); err != nil {
				t.Logf("create %s: %v", name, err)
			}
		case 2, 3: // adopt or disown a skill
			snap, err := c.l.Snapshot("")
			if err != nil {
				t.Fatal(err)
			}
			all, _ := snap.Skills()
			if len(all) == 0 {
				continue
			}
			si := all[c.rng.Intn(len(all))]
			if c.rng.Intn(2) == 0 {
				_, err = person(c.l).Adopt(ctx, si.Name, MetaOptions{})
			} else {
				_, err = person(c.l).Disown(ctx, si.Name, MetaOptions{})
			}
			if err != nil {
				t.Logf("adopt/disown %s: %v", si.Name, err)
			}
		}
		lib := open(memo)
		snap, err := lib.Snapshot("")
		if err != nil {
			t.Fatal(err)
		}
		_, parents, err := lib.repo.NewStore(true).CommitInfo(snap.Commit())
		if err != nil {
			t.Fatal(err)
		}
		if len(parents) == 1 {
			if prev, ok := memo.ownersOf(ownersKey{tip: parents[0]}); ok && prev.states != nil {
				stepped++
			}
		}
		got, err := lib.Owners().At("")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(c.l.ownersCachePath(), c.l.ownersCachePath()+".kept"); err != nil {
			t.Fatal(err)
		}
		want, err := open(nil).Owners().At("")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: with the memo\n%v\nthe whole pass\n%v", i, got, want)
		}
		// The file the memo's library wrote gives the same to a process
		// without the memo.
		if err := os.Rename(c.l.ownersCachePath()+".kept", c.l.ownersCachePath()); err != nil {
			t.Fatal(err)
		}
		if again, err := open(nil).Owners().At(""); err != nil || !reflect.DeepEqual(again, want) {
			t.Fatalf("step %d: from the cache file\n%v (%v)\nwant\n%v", i, again, err, want)
		}
	}
	curated := 0
	final, _ := open(nil).Owners().At("")
	for _, o := range final {
		if o.Owner == OwnerCurator {
			curated++
		}
	}
	t.Logf("the step taken %d times, %d skills curator-owned at the end", stepped, curated)
	if stepped < 20 || curated == 0 {
		t.Fatalf("the step was taken %d times and %d skills end curator-owned: the comparison proves little", stepped, curated)
	}
}
