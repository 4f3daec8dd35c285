package webui

import (
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// TestSplit: a run of deletions is paired with the additions after it,
// row by row, with the line numbers of each side.
func TestSplit(t *testing.T) {
	lines := parseHunks([]byte("@@ -1,4 +1,4 @@\n same\n-old one\n-old two\n+new one\n tail\n+added\n\\ No newline at end of file\n"))
	var got []string
	for _, r := range split(lines) {
		side := func(l *diffLine, n func(*diffLine) int) string {
			if l == nil {
				return "·"
			}
			return l.Kind + ":" + strings.TrimSpace(l.Text) + ":" + string(rune('0'+n(l)))
		}
		if r.Hunk != "" {
			got = append(got, "hunk")
			continue
		}
		got = append(got, side(r.Left, func(l *diffLine) int { return l.Old })+" | "+side(r.Right, func(l *diffLine) int { return l.New }))
	}
	want := []string{
		"hunk",
		"ctx:same:1 | ctx:same:1",
		"del:old one:2 | add:new one:2",
		"del:old two:3 | ·",
		"ctx:tail:4 | ctx:tail:3",
		"· | add:added:4",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("split:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestParsePatch: skill log's multi-file patch splits into files with
// their status and counts.
func TestParsePatch(t *testing.T) {
	patch := "diff --git a/s/SKILL.md b/s/SKILL.md\nindex 1..2 100644\n--- a/s/SKILL.md\n+++ b/s/SKILL.md\n@@ -1 +1 @@\n-a\n+b\n" +
		"diff --git a/s/references/x.md b/s/references/x.md\nnew file mode 100644\n--- /dev/null\n+++ b/s/references/x.md\n@@ -0,0 +1,2 @@\n+x\n+y\n"
	files := parsePatch(patch)
	if len(files) != 2 || files[0].Path != "s/SKILL.md" || files[0].Added != 1 || files[0].Deleted != 1 ||
		files[1].Path != "s/references/x.md" || files[1].Status != "added" || files[1].Added != 2 {
		t.Errorf("files = %+v", files)
	}
}

// TestUsageChartAndTrends: events are counted per day and kind in the
// window only; trends compare the window with the one before.
func TestUsageChartAndTrends(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	day := func(d int) time.Time { return now.AddDate(0, 0, -d) }
	evs := []usage.HistoryEvent{
		{Time: day(0), Kind: usage.HistoryLoad, Skill: "a"},
		{Time: day(1), Kind: usage.HistoryLoad, Skill: "a"},
		{Time: day(2), Kind: usage.HistoryPatch, Skill: "a"},
		{Time: day(40), Kind: usage.HistoryLoad, Skill: "b"},
		{Time: day(45), Kind: usage.HistoryUse, Skill: "b"},
		{Time: day(3), Kind: usage.HistoryReview},
	}
	c := usageChart(evs, now, 30)
	if c.Totals[usage.HistoryLoad] != 2 || c.Totals[usage.HistoryPatch] != 1 || c.Empty || !strings.Contains(string(c.SVG), "<svg") {
		t.Errorf("chart totals %v empty %v", c.Totals, c.Empty)
	}
	if n := strings.Count(string(c.SVG), "<rect"); n != 3 {
		t.Errorf("%d bars, want 3", n)
	}
	tr := trends(evs, now, 30)
	if len(tr) != 2 || tr[0].Skill != "a" || !tr[0].Grew || tr[1].Skill != "b" || !tr[1].Stale || tr[1].Before != 2 {
		t.Errorf("trends = %+v", tr)
	}
}
