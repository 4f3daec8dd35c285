package skillrepo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func kinds(evs []HistoryEvent) string {
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

	all, err := l.UsageHistory().Read(HistoryFilter{})
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
	mine, err := l.History().Skill("deploy-notes", HistoryFilter{Limit: 2})
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
	if evs, _ := l.UsageHistory().Read(HistoryFilter{}); len(evs) != 0 {
		t.Fatalf("staged write in history: %s", kinds(evs))
	}
	if _, err := person(l).ApproveProposal(ctx, "r-7", ApproveOptions{}); err != nil {
		t.Fatal(err)
	}
	evs, err := l.UsageHistory().Read(HistoryFilter{})
	if err != nil || kinds(evs) != "create:deploy-notes" || evs[0].Review != "r-7" {
		t.Fatalf("after approval: %s %+v %v", kinds(evs), evs, err)
	}
}

func testHistory(t *testing.T, max int64) *UsageHistory {
	t.Helper()
	clock := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	return &UsageHistory{path: filepath.Join(t.TempDir(), "usage", historyName), max: max, now: func() time.Time {
		clock = clock.Add(time.Minute)
		return clock
	}}
}

// TestUsageHistoryTornAndForeignLines: a torn last line (a writer killed
// mid-write), a foreign overlong line and junk are skipped by readers, and
// the next append starts on a line of its own.
func TestUsageHistoryTornAndForeignLines(t *testing.T) {
	h := testHistory(t, maxHistoryFile)
	if err := h.Append(HistoryEvent{Kind: HistoryLoad, Skill: "a"}); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	long := `{"kind":"load","skill":"` + strings.Repeat("x", 3*maxHistoryLine) + `"}`
	fmt.Fprintf(f, "not json\n%s\n{\"time\":\"2026-12-01T00:00:00Z\",\"kind\":\"lo", long)
	f.Close()
	evs, err := h.Read(HistoryFilter{})
	if err != nil || kinds(evs) != "load:a" {
		t.Fatalf("read with a torn last line: %s, %v", kinds(evs), err)
	}
	if err := h.Append(HistoryEvent{Kind: HistoryPatch, Skill: "b"}); err != nil {
		t.Fatal(err)
	}
	evs, err = h.Read(HistoryFilter{})
	if err != nil || kinds(evs) != "load:a patch:b" {
		t.Fatalf("after the next append: %s, %v", kinds(evs), err)
	}
}

// TestUsageHistoryBounded: the history rotates at its cap and keeps two
// generations, a read returns the newest events, and a hostile field is
// clipped so every line stays under maxHistoryLine.
func TestUsageHistoryBounded(t *testing.T) {
	const max = 4096
	h := testHistory(t, max)
	for i := range 200 {
		if err := h.Append(HistoryEvent{Kind: HistoryUse, Skill: fmt.Sprintf("s%03d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{h.path, h.rotated()} {
		fi, err := os.Stat(p)
		if err != nil || fi.Size() > max {
			t.Fatalf("%s: %v, %v bytes (cap %d)", p, err, fi, max)
		}
	}
	evs, err := h.Read(HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) == 0 || len(evs) >= 200 || evs[len(evs)-1].Skill != "s199" {
		t.Fatalf("read %d events, last %+v", len(evs), evs[len(evs)-1])
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Skill <= evs[i-1].Skill {
			t.Fatalf("out of order at %d: %s after %s", i, evs[i].Skill, evs[i-1].Skill)
		}
	}
	if last, err := h.Read(HistoryFilter{Limit: 3}); err != nil || kinds(last) != "use:s197 use:s198 use:s199" {
		t.Fatalf("limit 3: %s %v", kinds(last), err)
	}
	if since, err := h.Read(HistoryFilter{Since: evs[len(evs)-1].Time}); err != nil || len(since) != 1 {
		t.Fatalf("since the last: %d %v", len(since), err)
	}

	h = testHistory(t, maxHistoryFile)
	huge := strings.Repeat("é", 1<<20)
	if err := h.Append(HistoryEvent{Kind: HistoryGoal, Session: huge, Detail: huge + "\n" + huge, Outcome: huge}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(h.path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) >= maxHistoryLine || bytes.Count(b, []byte("\n")) != 1 {
		t.Fatalf("line of %d bytes, %d newlines", len(b), bytes.Count(b, []byte("\n")))
	}
	if evs, err := h.Read(HistoryFilter{}); err != nil || len(evs) != 1 || !strings.HasSuffix(evs[0].Session, "…") {
		t.Fatalf("clipped event: %v %v", evs, err)
	}
}

// TestUsageHistoryRefusesNonRegular: a history path that is a symlink or
// a FIFO is refused, not followed nor blocked on.
func TestUsageHistoryRefusesNonRegular(t *testing.T) {
	h := testHistory(t, maxHistoryFile)
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, h.path); err != nil {
		t.Fatal(err)
	}
	if err := h.Append(HistoryEvent{Kind: HistoryUse}); err == nil {
		t.Error("append through a symlink: no error")
	}
	if _, err := h.Read(HistoryFilter{}); err == nil {
		t.Error("read through a symlink: no error")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("symlink target changed: %q", b)
	}
}
