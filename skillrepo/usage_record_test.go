package skillrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

const agentSkill = "---\nname: deploy-notes\ndescription: Use when deploying the app.\n---\n# Deploy\n\n1. Run make deploy.\n"

func usageOf(t *testing.T, l *Library, name string) *usage.Record {
	t.Helper()
	recs, err := l.Usage().Load()
	if err != nil {
		t.Fatal(err)
	}
	return recs[name]
}

// TestRecordUseOncePerKey: the hooks' API counts a tool_use_id once, a
// new id again, an empty key always; names resolve to the skill's name;
// unknown skills and kinds are refused.
func TestRecordUseOncePerKey(t *testing.T) {
	l, _ := newTestLibrary(t)
	for i, tt := range []struct {
		name    string
		kind    UseKind
		key     string
		counted bool
	}{
		{"ci-debugging", UseView, "toolu_1", true},
		{"ci-debugging", UseView, "toolu_1", false}, // the same event again
		{"ci-debugging", UseUse, "toolu_2", true},
		{"ci-debugging", UseUse, "", true},
		{"ci-debugging", UseUse, "", true},
	} {
		counted, err := l.recordUse(tt.name, tt.kind, tt.key)
		if err != nil || counted != tt.counted {
			t.Fatalf("call %d: counted %v, %v; want %v", i, counted, err, tt.counted)
		}
	}
	r := usageOf(t, l, "ci-debugging")
	if r.ViewCount != 1 || r.UseCount != 4 || r.LastViewedAt == nil || r.LastUsedAt == nil {
		t.Fatalf("record = %+v", r)
	}
	if _, err := l.recordUse("nope", UseView, "k"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown skill: %v", err)
	}
	if _, err := l.recordUse("ci-debugging", "load", "k"); !errors.Is(err, skill.ErrInvalid) {
		t.Errorf("unknown kind: %v", err)
	}
}

// TestRecordUseConcurrent: hooks firing together (each its own process,
// so each its own Library: a Library is not for several goroutines), each
// event delivered twice, count every event exactly once.
func TestRecordUseConcurrent(t *testing.T) {
	l, env := newTestLibrary(t)
	const events = 20
	var wg sync.WaitGroup
	var mu sync.Mutex
	counted := 0
	for i := range events * 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := Open(l.Root, openOpts(env))
			if err != nil {
				t.Error(err)
				return
			}
			defer l.repo.Close()
			ok, err := l.recordUse("ci-debugging", UseView, fmt.Sprintf("toolu_%d", i%events))
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				counted++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if r := usageOf(t, l, "ci-debugging"); counted != events || r.UseCount != events || r.ViewCount != events {
		t.Fatalf("counted %d, record %+v; want %d", counted, r, events)
	}
}

// TestAutonomousWritesRecordUsage: a review's (or curator's) create, patch
// and archive on the checked-out branch leave the reference's facts in the
// sidecar; restore and pin mirror there too.
func TestAutonomousWritesRecordUsage(t *testing.T) {
	l, _ := newTestLibrary(t)
	ctx := context.Background()
	review := Provenance{Origin: OriginBackgroundReview, ReviewID: "r-1"}
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionCreate, Name: "deploy-notes", Content: strp(agentSkill)}}, Provenance: review}); err != nil {
		t.Fatal(err)
	}
	r := usageOf(t, l, "deploy-notes")
	if r == nil || !r.AgentCreated() || r.CreatedAt == nil || r.State != usage.StateActive || r.PatchCount != 0 {
		t.Fatalf("after create: %+v", r)
	}
	old, nu := "make deploy", "make deploy-prod"
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionPatch, Name: "deploy-notes", OldString: &old, NewString: &nu}}, Provenance: review}); err != nil {
		t.Fatal(err)
	}
	if r = usageOf(t, l, "deploy-notes"); r.PatchCount != 1 || r.PatchGeneration != 1 || r.LastPatchedAt == nil || !r.AgentCreated() {
		t.Fatalf("after patch: %+v", r)
	}
	if _, err := person(l).Pin(ctx, "deploy-notes", MetaOptions{}); err != nil {
		t.Fatal(err)
	}
	if r = usageOf(t, l, "deploy-notes"); !r.Pinned {
		t.Fatalf("after pin: %+v", r)
	}
	if _, err := person(l).Unpin(ctx, "deploy-notes", MetaOptions{}); err != nil {
		t.Fatal(err)
	}
	if r = usageOf(t, l, "deploy-notes"); r.Pinned {
		t.Fatalf("after unpin: %+v", r)
	}
	// The review's delete is an archive.
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionDelete, Name: "deploy-notes", AbsorbedInto: strp("ci-debugging")}}, Provenance: review}); err != nil {
		t.Fatal(err)
	}
	if r = usageOf(t, l, "deploy-notes"); r.State != usage.StateArchived || r.ArchivedAt == nil || r.PatchCount != 1 {
		t.Fatalf("after archive: %+v", r)
	}
	if _, err := person(l).Restore(ctx, RestoreOptions{Name: "deploy-notes"}); err != nil {
		t.Fatal(err)
	}
	if r = usageOf(t, l, "deploy-notes"); r.State != usage.StateActive || r.ArchivedAt != nil {
		t.Fatalf("after restore: %+v", r)
	}
	// A person's create is not the agent's.
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionCreate, Name: "mine", Content: strp("---\nname: mine\ndescription: Use when testing.\n---\n# Mine\n")}}}); err != nil {
		t.Fatal(err)
	}
	if r = usageOf(t, l, "mine"); r == nil || r.AgentCreated() || r.CreatedBy != nil || r.CreatedAt == nil {
		t.Fatalf("person's create: %+v", r)
	}
}

// TestProposalUsageWaitsForApproval: a staged review's writes reach the
// sidecar when the proposal is approved, and never when it is rejected.
func TestProposalUsageWaitsForApproval(t *testing.T) {
	l, _ := newTestLibrary(t)
	ctx := context.Background()
	review := Provenance{Origin: OriginBackgroundReview, ReviewID: "r-1"}
	write := func(id, name string) {
		t.Helper()
		content := "---\nname: " + name + "\ndescription: Use when deploying the app.\n---\n# Deploy\n"
		if _, err := l.apply(ctx, applyOptions{Branch: ProposalBranch(id), From: l.MainBranch(), Ops: []Op{{Action: ActionCreate, Name: name, Content: &content}}, Provenance: review}); err != nil {
			t.Fatal(err)
		}
		if usageOf(t, l, name) != nil {
			t.Fatalf("%s is in the sidecar before its proposal was approved", name)
		}
		if _, err := os.Stat(l.pendingUsagePath(id)); err != nil {
			t.Fatalf("no pending usage for %s: %v", id, err)
		}
	}
	write("r-1", "staged-one")
	write("r-2", "staged-two")
	if _, err := person(l).ApproveProposal(ctx, "r-1", ApproveOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := usageOf(t, l, "staged-one"); r == nil || !r.AgentCreated() || r.CreatedAt == nil {
		t.Fatalf("approved create: %+v", r)
	}
	if _, err := person(l).RejectProposal(ctx, "r-2", RejectOptions{Reason: "no"}); err != nil {
		t.Fatal(err)
	}
	if usageOf(t, l, "staged-two") != nil {
		t.Fatal("a rejected create reached the sidecar")
	}
	for _, id := range []string{"r-1", "r-2"} {
		if _, err := os.Stat(l.pendingUsagePath(id)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("pending usage of %s left behind: %v", id, err)
		}
	}
}

// TestSyncIgnoresViews: a view of a skill without a record starts one,
// which is not evidence that an agent edited it; sync says user.
func TestSyncIgnoresViews(t *testing.T) {
	l, _ := newTestLibrary(t)
	if _, err := l.recordUse("ci-debugging", UseView, "toolu_1"); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(l.Root, "ci-debugging", "SKILL.md")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, "\n- edited by hand\n"...), 0o644)
	res, err := l.Sync(context.Background(), SyncOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Origin != OriginUser {
		t.Fatalf("origin = %s, want user", res.Origin)
	}
}
