package curator

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRunReport(t *testing.T) {
	p, err := NewPlan(Input{
		Now:    testNow,
		Skills: []Skill{{Name: "old", Dir: "cat/old", Managed: true}, managed("idle"), managed("new")},
		Usage: map[string]Usage{
			"old":  {UseCount: 1, LastUsedAt: ago(days(45))},
			"idle": {UseCount: 1, LastUsedAt: ago(days(20))},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun("20260601-120000", p, "main", strings.Repeat("a", 40), false)
	if r.Summary != "auto: 1 marked stale, 1 archived, 0 reactivated; llm: skipped (consolidation off)" {
		t.Errorf("summary = %q", r.Summary)
	}
	wantRecovery := []string{"skillrepo curator rollback 20260601-120000", "skillrepo skill restore old"}
	if !reflect.DeepEqual(r.Recovery, wantRecovery) {
		t.Errorf("recovery = %q", r.Recovery)
	}
	dir := filepath.Join(t.TempDir(), ReportsDir, r.ID)
	md, err := WriteReport(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("run.json round trip:\n got %+v\nwant %+v", back, r)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Curator run 20260601-120000",
		"`idle`: active → stale",
		"`old`: active → archived",
		"`old`: `cat/old/` → `.archive/old/`",
		"`skillrepo skill restore old`",
		"refs/skillrepo/curator/20260601-120000",
		"| 3 | 1 | 1 | 0 | 1 | 0 | 0 | 0 (0) |",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("REPORT.md lacks %q:\n%s", want, b)
		}
	}

	dry := NewRun("20260601-120000", p, "main", strings.Repeat("a", 40), true)
	if !strings.HasPrefix(dry.Summary, "[dry-run] ") || len(dry.Recovery) != 0 || dry.PreRunRef != "" {
		t.Errorf("dry run record: %+v", dry)
	}
	if !strings.Contains(dry.Markdown(), "nothing was changed") {
		t.Error("dry-run report not marked as a plan")
	}
}

func TestNewRunID(t *testing.T) {
	taken := map[string]bool{"20260601-120000": true, "20260601-120000-2": true}
	if got := NewRunID(testNow, func(id string) bool { return taken[id] }); got != "20260601-120000-3" {
		t.Errorf("id = %s", got)
	}
	if got := NewRunID(testNow.Add(Day), func(string) bool { return false }); got != "20260602-120000" {
		t.Errorf("id = %s", got)
	}
}
