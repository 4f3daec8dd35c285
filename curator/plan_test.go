package curator

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

var testNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

func ago(d time.Duration) time.Time { return testNow.Add(-d) }

func days(n int) time.Duration { return time.Duration(n) * Day }

func managed(name string) Skill { return Skill{Name: name, Dir: name, Managed: true} }

func TestNewPlanTransitions(t *testing.T) {
	tests := []struct {
		name   string
		skill  Skill
		usage  *Usage // nil: no persisted record
		action Action // "" = no change
		from   State
		anchor time.Time
	}{
		{
			name:  "never used and young stays",
			skill: managed("a"),
			usage: &Usage{CreatedAt: ago(days(3)), State: StateActive},
		},
		{
			name:   "never used, young and stale becomes active",
			skill:  managed("a"),
			usage:  &Usage{CreatedAt: ago(days(3)), State: StateStale},
			action: ActionReactivate, from: StateStale, anchor: ago(days(3)),
		},
		{
			name:   "never used and older than the stale window",
			skill:  managed("a"),
			usage:  &Usage{CreatedAt: ago(days(20))},
			action: ActionStale, from: StateActive, anchor: ago(days(20)),
		},
		{
			name:   "never used and older than the archive window",
			skill:  managed("a"),
			usage:  &Usage{CreatedAt: ago(days(40)), State: StateStale},
			action: ActionArchive, from: StateStale, anchor: ago(days(40)),
		},
		{
			name:   "exactly at the stale threshold",
			skill:  managed("a"),
			usage:  &Usage{UseCount: 1, LastUsedAt: ago(days(14)), CreatedAt: ago(days(50))},
			action: ActionStale, from: StateActive, anchor: ago(days(14)),
		},
		{
			name:  "one second inside the stale window",
			skill: managed("a"),
			usage: &Usage{UseCount: 1, LastUsedAt: ago(days(14) - time.Second), CreatedAt: ago(days(50))},
		},
		{
			name:   "exactly at the archive threshold",
			skill:  managed("a"),
			usage:  &Usage{UseCount: 2, LastUsedAt: ago(days(30)), State: StateStale},
			action: ActionArchive, from: StateStale, anchor: ago(days(30)),
		},
		{
			name:   "one second inside the archive window, active",
			skill:  managed("a"),
			usage:  &Usage{UseCount: 2, LastUsedAt: ago(days(30) - time.Second)},
			action: ActionStale, from: StateActive, anchor: ago(days(30) - time.Second),
		},
		{
			name:  "one second inside the archive window, already stale",
			skill: managed("a"),
			usage: &Usage{UseCount: 2, LastUsedAt: ago(days(30) - time.Second), State: StateStale},
		},
		{
			name:   "stale then viewed",
			skill:  managed("a"),
			usage:  &Usage{UseCount: 3, LastUsedAt: ago(days(20)), LastViewedAt: ago(days(1)), State: StateStale},
			action: ActionReactivate, from: StateStale, anchor: ago(days(1)),
		},
		{
			name:   "stale then patched",
			skill:  managed("a"),
			usage:  &Usage{UseCount: 3, LastUsedAt: ago(days(40)), LastPatchedAt: ago(days(2)), State: StateStale},
			action: ActionReactivate, from: StateStale, anchor: ago(days(2)),
		},
		{
			name:  "stale and still idle stays stale",
			skill: managed("a"),
			usage: &Usage{UseCount: 3, LastUsedAt: ago(days(20)), State: StateStale},
		},
		{
			name:   "activity wins over an old creation date",
			skill:  managed("a"),
			usage:  &Usage{UseCount: 1, LastUsedAt: ago(days(16)), CreatedAt: ago(days(400))},
			action: ActionStale, from: StateActive, anchor: ago(days(16)),
		},
		{
			name:  "pinned is skipped however old",
			skill: Skill{Name: "a", Dir: "a", Managed: true, Pinned: true},
			usage: &Usage{UseCount: 1, LastUsedAt: ago(days(400))},
		},
		{
			name:  "scheduled job reference is skipped",
			skill: Skill{Name: "a", Dir: "a", Managed: true, Scheduled: true},
			usage: &Usage{UseCount: 1, LastUsedAt: ago(days(400))},
		},
		{
			name:  "user-owned is never curated",
			skill: Skill{Name: "a", Dir: "a"},
			usage: &Usage{UseCount: 1, LastUsedAt: ago(days(400))},
		},
		{
			name:  "no record is seeded, not judged",
			skill: managed("a"),
		},
		{
			name:  "record without timestamps anchors at now",
			skill: managed("a"),
			usage: &Usage{},
		},
		{
			name:  "already archived is not walked",
			skill: Skill{Name: "a", Dir: ".archive/a", Archived: true, Managed: true},
			usage: &Usage{UseCount: 1, LastUsedAt: ago(days(400)), State: StateArchived},
		},
		{
			name:   "restored by hand but still recorded archived is judged as active",
			skill:  managed("a"),
			usage:  &Usage{UseCount: 1, LastUsedAt: ago(days(20)), State: StateArchived},
			action: ActionStale, from: StateActive, anchor: ago(days(20)),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Skills: []Skill{tt.skill}, Usage: map[string]Usage{}, Now: testNow}
			if tt.usage != nil {
				in.Usage[tt.skill.Name] = *tt.usage
			}
			p, err := NewPlan(in)
			if err != nil {
				t.Fatal(err)
			}
			if tt.action == "" {
				if len(p.Changes) != 0 {
					t.Fatalf("want no change, got %+v", p.Changes)
				}
				return
			}
			if len(p.Changes) != 1 {
				t.Fatalf("want one change, got %+v", p.Changes)
			}
			c := p.Changes[0]
			if c.Action != tt.action || c.From != tt.from || !c.Anchor.Equal(tt.anchor) {
				t.Errorf("got %s %s→%s anchor %s, want %s from %s anchor %s",
					c.Action, c.From, c.To, c.Anchor, tt.action, tt.from, tt.anchor)
			}
			wantTo := map[Action]State{ActionStale: StateStale, ActionArchive: StateArchived, ActionReactivate: StateActive}[tt.action]
			if c.To != wantTo {
				t.Errorf("to = %s, want %s", c.To, wantTo)
			}
			if c.Reason == "" {
				t.Error("empty reason")
			}
			if (c.Action == ActionArchive) != (c.ArchiveDir != "") {
				t.Errorf("archive dir %q for action %s", c.ArchiveDir, c.Action)
			}
		})
	}
}

func TestNewPlanCounts(t *testing.T) {
	in := Input{
		Now: testNow,
		Skills: []Skill{
			managed("fresh"),
			managed("idle"),
			managed("old"),
			managed("back"),
			managed("new"),
			{Name: "pinned", Dir: "pinned", Managed: true, Pinned: true},
			{Name: "pinned-user", Dir: "pinned-user", Pinned: true},
			{Name: "cron", Dir: "cron", Managed: true, Scheduled: true},
			{Name: "mine", Dir: "cat/mine"},
			{Name: "gone", Dir: ".archive/gone", Archived: true, Managed: true},
		},
		Usage: map[string]Usage{
			"fresh":  {UseCount: 1, LastUsedAt: ago(days(1))},
			"idle":   {UseCount: 1, LastUsedAt: ago(days(15))},
			"old":    {UseCount: 1, LastUsedAt: ago(days(31)), State: StateStale},
			"back":   {UseCount: 1, LastUsedAt: ago(days(1)), State: StateStale},
			"pinned": {UseCount: 1, LastUsedAt: ago(days(100))},
			"cron":   {UseCount: 1, LastUsedAt: ago(days(100))},
			"mine":   {UseCount: 1, LastUsedAt: ago(days(100))},
		},
	}
	p, err := NewPlan(in)
	if err != nil {
		t.Fatal(err)
	}
	want := Counts{Checked: 8, MarkedStale: 1, Archived: 1, Reactivated: 1, Seeded: 1, Pinned: 2, Scheduled: 1, Unmanaged: 1, PinnedUnmanaged: 1}
	if p.Counts != want {
		t.Errorf("counts = %+v, want %+v", p.Counts, want)
	}
	var got []string
	for _, c := range p.Changes {
		got = append(got, c.Name+":"+string(c.Action))
	}
	wantChanges := []string{"back:reactivate", "idle:mark_stale", "old:archive"}
	if !reflect.DeepEqual(got, wantChanges) {
		t.Errorf("changes = %v, want %v", got, wantChanges)
	}
	if !reflect.DeepEqual(p.Seeded, []string{"new"}) {
		t.Errorf("seeded = %v", p.Seeded)
	}
}

func TestNewPlanArchiveCollision(t *testing.T) {
	in := Input{
		Now: testNow,
		Skills: []Skill{
			{Name: "dup", Dir: "cat/dup", Managed: true},
			{Name: "twin", Dir: "twin", Managed: true},
			{Name: "old-dup", Dir: ".archive/dup", Archived: true},
			{Name: "solo", Dir: "solo", Managed: true},
		},
		Occupied: []string{"twin", "twin-20260601120000"},
		Usage: map[string]Usage{
			"dup":  {CreatedAt: ago(days(90))},
			"twin": {CreatedAt: ago(days(90))},
			"solo": {CreatedAt: ago(days(90))},
		},
	}
	p, err := NewPlan(in)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range p.Archives() {
		got[c.Name] = c.ArchiveDir
	}
	want := map[string]string{
		"dup":  ".archive/dup-20260601120000",
		"twin": ".archive/twin-20260601120000-2",
		"solo": ".archive/solo",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("archive dirs = %v, want %v", got, want)
	}
}

func TestNewPlanCustomThresholds(t *testing.T) {
	in := Input{
		Now:        testNow,
		Thresholds: Thresholds{StaleAfterDays: 30, ArchiveAfterDays: 90},
		Skills:     []Skill{managed("a"), managed("b")},
		Usage: map[string]Usage{
			"a": {UseCount: 1, LastUsedAt: ago(days(20))},
			"b": {UseCount: 1, LastUsedAt: ago(days(60))},
		},
	}
	p, err := NewPlan(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 1 || p.Changes[0].Name != "b" || p.Changes[0].Action != ActionStale {
		t.Fatalf("changes = %+v", p.Changes)
	}
	if !strings.Contains(p.Changes[0].Reason, "60 days") {
		t.Errorf("reason %q does not name the idle days", p.Changes[0].Reason)
	}
}

func TestThresholdsValidate(t *testing.T) {
	tests := []struct {
		in      Thresholds
		want    Thresholds
		wantErr bool
	}{
		{in: Thresholds{}, want: Thresholds{14, 30}},
		{in: Thresholds{StaleAfterDays: 7}, want: Thresholds{7, 30}},
		{in: Thresholds{StaleAfterDays: 40}, wantErr: true},
		{in: Thresholds{StaleAfterDays: -1, ArchiveAfterDays: 5}, wantErr: true},
	}
	for _, tt := range tests {
		got := tt.in
		err := got.Validate()
		if (err != nil) != tt.wantErr {
			t.Errorf("%+v: err = %v", tt.in, err)
			continue
		}
		if !tt.wantErr && got != tt.want {
			t.Errorf("%+v: got %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestNewPlanNeedsTime(t *testing.T) {
	if _, err := NewPlan(Input{}); err == nil {
		t.Fatal("NewPlan without a time succeeded")
	}
}

// BenchmarkNewPlan decides a 10,000-skill library where 1,000 skills
// change state: the pure half of a run.
func BenchmarkNewPlan(b *testing.B) {
	in := Input{Now: testNow, Usage: map[string]Usage{}}
	for i := 0; i < 10000; i++ {
		name := "skill-" + strconv.Itoa(i)
		in.Skills = append(in.Skills, Skill{Name: name, Dir: "cat-" + strconv.Itoa(i/100) + "/" + name, Managed: true})
		u := Usage{UseCount: 3, LastUsedAt: ago(time.Hour), CreatedAt: ago(days(400)), State: StateActive}
		switch i % 10 {
		case 0:
			if i < 5000 {
				u.LastUsedAt = ago(days(40))
			}
		case 1:
			if i < 4000 {
				u.LastUsedAt = ago(days(20))
			}
		case 2:
			if i < 1000 {
				u.LastUsedAt, u.LastViewedAt, u.State = ago(days(25)), ago(days(1)), StateStale
			}
		}
		in.Usage[name] = u
	}
	b.ReportAllocs()
	for b.Loop() {
		p, err := NewPlan(in)
		if err != nil || len(p.Changes) != 1000 {
			b.Fatalf("%v, %d changes", err, len(p.Changes))
		}
	}
}
