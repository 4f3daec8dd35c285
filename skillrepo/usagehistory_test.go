package skillrepo

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

func kinds(evs []usage.HistoryEvent) string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Kind+":"+e.Skill)
	}
	return strings.Join(out, " ")
}

// TestUsageHistoryRecordsWrites: the places usage is recorded today also
// append to the history — a review's create and patch (with its session
// and review id), a hand archive and restore, a counted view, an agent's
// load with its session, a review's outcome — and the sidecar keeps the
// reference's schema only (no history key in .usage.json), while the
// history stays out of the work tree.
func TestUsageHistoryRecordsWrites(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	review := Provenance{Origin: OriginBackgroundReview, ReviewID: "r-1", SessionID: "s-1"}
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionCreate, Name: "deploy-notes", Content: strp(agentSkill)}}, Provenance: review}); err != nil {
		t.Fatal(err)
	}
	old, nu := "make deploy", "make deploy-prod"
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionPatch, Name: "deploy-notes", OldString: &old, NewString: &nu}}, Provenance: review}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionPatch, Name: "deploy-notes", OldString: &nu, NewString: &old}}, Provenance: review, DryRun: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.CountUse("deploy-notes", UseView, false); err != nil {
		t.Fatal(err)
	}
	if _, err := l.CountUse("deploy-notes", UseView, true); err != nil { // a dry run records nothing
		t.Fatal(err)
	}
	if ok, err := l.RecordSessionUse("deploy-notes", UseView, "toolu_1", "s-2"); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if ok, err := l.RecordSessionUse("deploy-notes", UseView, "toolu_1", "s-2"); err != nil || ok { // counted once
		t.Fatal(ok, err)
	}
	if _, err := l.RecordSessionUse("ci-debugging", UseUse, "", "s-2"); err != nil {
		t.Fatal(err)
	}
	l.UsageHistory().AppendReview("s-1", "r-2", "failed", "no model")

	all, err := l.UsageHistory().Read(usage.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kinds(all), "create:deploy-notes patch:deploy-notes view:deploy-notes load:deploy-notes use:ci-debugging review:"; got != want {
		t.Fatalf("history = %s\nwant      %s", got, want)
	}
	if e := all[1]; e.Session != "s-1" || e.Review != "r-1" || e.Origin != OriginBackgroundReview || e.Time.IsZero() {
		t.Errorf("patch event = %+v", e)
	}
	if e := all[3]; e.Session != "s-2" {
		t.Errorf("load event = %+v", e)
	}
	if e := all[5]; e.Outcome != "failed" || e.Review != "r-2" || e.Detail != "no model" {
		t.Errorf("review event = %+v", e)
	}
	mine, err := l.History().Skill("deploy-notes", usage.HistoryFilter{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(mine); got != "view:deploy-notes load:deploy-notes" {
		t.Errorf("SkillHistory limit 2 = %s", got)
	}
	raw, err := os.ReadFile(l.Usage().Path())
	if err != nil {
		t.Fatal(err)
	}
	var recs map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &recs); err != nil {
		t.Fatal(err)
	}
	for name, r := range recs {
		for k := range r {
			if strings.Contains(k, "history") {
				t.Errorf(".usage.json record %s has %s", name, k)
			}
		}
	}
	if !strings.HasPrefix(l.UsageHistory().Path(), filepath.Join(l.Root, ".git")) {
		t.Errorf("history at %s, not under .git", l.UsageHistory().Path())
	}
	assertConsistent(t, l, env)
}

// TestUsageHistoryProposalOnApproval: a staged review's writes reach the
// history when the proposal is approved, not when staged.
func TestUsageHistoryProposalOnApproval(t *testing.T) {
	l, _ := newTestLibrary(t)
	ctx := context.Background()
	review := Provenance{Origin: OriginBackgroundReview, ReviewID: "r-7"}
	if _, err := l.apply(ctx, applyOptions{Branch: ProposalBranch("r-7"), From: l.MainBranch(), Ops: []Op{{Action: ActionCreate, Name: "deploy-notes", Content: strp(agentSkill)}}, Provenance: review}); err != nil {
		t.Fatal(err)
	}
	if evs, _ := l.UsageHistory().Read(usage.HistoryFilter{}); len(evs) != 0 {
		t.Fatalf("staged write in history: %s", kinds(evs))
	}
	if _, err := person(l).ApproveProposal(ctx, "r-7", ApproveOptions{}); err != nil {
		t.Fatal(err)
	}
	evs, err := l.UsageHistory().Read(usage.HistoryFilter{})
	if err != nil || kinds(evs) != "create:deploy-notes" || evs[0].Review != "r-7" {
		t.Fatalf("after approval: %s %+v %v", kinds(evs), evs, err)
	}
}
