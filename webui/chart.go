package webui

import (
	"fmt"
	"html/template"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// The charts are SVG written here, on the server: no script, no chart
// framework. Only numbers and fixed labels go into them.

// chartKinds are the series drawn, with their colours (style.css knows
// the classes too, for the legend).
var chartKinds = []string{usage.HistoryLoad, usage.HistoryView, usage.HistoryUse, usage.HistoryPatch}

func dayStart(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// chart is a per-day stacked bar chart of the history's events over the
// last days.
type chart struct {
	SVG    template.HTML
	Totals map[string]int
	Empty  bool
}

func usageChart(evs []usage.HistoryEvent, now time.Time, days int) chart {
	first := dayStart(now).AddDate(0, 0, -days+1)
	counts := make([]map[string]int, days)
	for i := range counts {
		counts[i] = map[string]int{}
	}
	totals := map[string]int{}
	for _, e := range evs {
		i := int(dayStart(e.Time).Sub(first).Hours() / 24)
		if i < 0 || i >= days {
			continue
		}
		counts[i][e.Kind]++
		totals[e.Kind]++
	}
	peak := 1
	for _, c := range counts {
		sum := 0
		for _, k := range chartKinds {
			sum += c[k]
		}
		peak = max(peak, sum)
	}
	const w, h, pad = 640, 160, 24
	bw := float64(w-pad) / float64(days)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="events per day">`, w, h+pad, w, h+pad)
	fmt.Fprintf(&b, `<text x="0" y="12" class="axis">%d</text><line x1="%d" y1="%d" x2="%d" y2="%d" class="axis"/>`, peak, pad, h, w, h)
	for i, c := range counts {
		y := float64(h)
		for _, k := range chartKinds {
			n := c[k]
			if n == 0 {
				continue
			}
			bh := float64(n) / float64(peak) * float64(h-16)
			y -= bh
			day := first.AddDate(0, 0, i).Format("2006-01-02")
			fmt.Fprintf(&b, `<rect class="k-%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s: %d %s</title></rect>`, k, float64(pad)+float64(i)*bw+1, y, bw-2, bh, day, n, k)
		}
		if (i%7 == 0 && days-1-i >= 4) || i == days-1 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="axis">%s</text>`, float64(pad)+float64(i)*bw, h+16, first.AddDate(0, 0, i).Format("01-02"))
		}
	}
	b.WriteString(`</svg>`)
	empty := true
	for _, k := range chartKinds {
		if totals[k] > 0 {
			empty = false
		}
	}
	return chart{SVG: template.HTML(b.String()), Totals: totals, Empty: empty}
}

// trend is one skill's uses in the last period against the one before.
type trend struct {
	Skill       string
	Before, Now int
	Grew, Stale bool
}

// trends are the skills whose loads and uses grew or fell, between the
// last days and the days before them, biggest change first.
func trends(evs []usage.HistoryEvent, now time.Time, days int) []trend {
	cut := dayStart(now).AddDate(0, 0, -days+1)
	by := map[string]*trend{}
	for _, e := range evs {
		if e.Skill == "" || (e.Kind != usage.HistoryLoad && e.Kind != usage.HistoryUse && e.Kind != usage.HistoryView) {
			continue
		}
		t := by[e.Skill]
		if t == nil {
			t = &trend{Skill: e.Skill}
			by[e.Skill] = t
		}
		if e.Time.Before(cut) {
			t.Before++
		} else {
			t.Now++
		}
	}
	out := make([]trend, 0, len(by))
	for _, t := range by {
		t.Grew, t.Stale = t.Now > t.Before, t.Now == 0
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := abs(out[i].Now-out[i].Before), abs(out[j].Now-out[j].Before)
		if di != dj {
			return di > dj
		}
		return out[i].Skill < out[j].Skill
	})
	if len(out) > 50 {
		out = out[:50]
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// archivedBy are the archives in the history, newest first: the
// curator's (origin curator) and the others'.
func archivedBy(evs []usage.HistoryEvent) []usage.HistoryEvent {
	var out []usage.HistoryEvent
	for i := len(evs) - 1; i >= 0 && len(out) < 50; i-- {
		if evs[i].Kind == usage.HistoryArchive {
			out = append(out, evs[i])
		}
	}
	return out
}
