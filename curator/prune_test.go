package curator

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
)

func TestNewPrunePlan(t *testing.T) {
	pinned := managed("p")
	pinned.Pinned = true
	sched := managed("s")
	sched.Scheduled = true
	user := Skill{Name: "u", Dir: "u"}
	tests := []struct {
		name  string
		skill Skill
		usage *Usage
		want  bool // archived
	}{
		{"idle past the days", managed("a"), &Usage{LastUsedAt: ago(days(31))}, true},
		{"idle exactly the days", managed("a"), &Usage{LastViewedAt: ago(days(30))}, true},
		{"used inside the days", managed("a"), &Usage{LastUsedAt: ago(days(29)), CreatedAt: ago(days(400))}, false},
		{"never used, created long ago", managed("a"), &Usage{CreatedAt: ago(days(90))}, true},
		{"no time at all", managed("a"), &Usage{}, false},
		{"no usage record", managed("a"), nil, false},
		{"pinned", pinned, &Usage{LastUsedAt: ago(days(400))}, false},
		{"scheduled", sched, &Usage{LastUsedAt: ago(days(400))}, false},
		{"user-owned", user, &Usage{LastUsedAt: ago(days(400))}, false},
		{"archived already", Skill{Name: "a", Dir: ".archive/a", Archived: true, Managed: true}, &Usage{LastUsedAt: ago(days(400))}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Now: testNow, Skills: []Skill{tc.skill}, Usage: map[string]Usage{}}
			if tc.usage != nil {
				in.Usage[tc.skill.Name] = *tc.usage
			}
			p, err := NewPrunePlan(in, 30)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(p.Archives()) == 1; got != tc.want {
				t.Fatalf("archived = %v, want %v (%+v)", got, tc.want, p.Changes)
			}
			if tc.want && (p.Changes[0].ArchiveDir != ".archive/a" || !strings.Contains(p.Changes[0].Reason, "prune --days 30")) {
				t.Errorf("change = %+v", p.Changes[0])
			}
			if len(p.Seeded) != 0 {
				t.Errorf("prune seeded %v", p.Seeded)
			}
		})
	}
	if _, err := NewPrunePlan(Input{Now: testNow}, 0); err == nil {
		t.Error("days 0 accepted")
	}
}

func TestPruneIsOneRunThatRollsBack(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	ctx := context.Background()
	before := fingerprint(t, f.lib.Root)
	dry, err := c.Prune(ctx, PruneOptions{Days: 15, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if fingerprint(t, f.lib.Root) != before {
		t.Fatal("dry prune wrote")
	}
	out, err := c.Prune(ctx, PruneOptions{Days: 15})
	if err != nil {
		t.Fatal(err)
	}
	f.assertClean()
	run := out.Run
	var names []string
	for _, m := range run.Archived {
		names = append(names, m.Name+":"+m.From+"->"+m.To)
	}
	want := []string{"alpha:alpha->.archive/alpha", "beta:ops/beta->.archive/beta"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("pruned %v, want %v", names, want)
	}
	if !reflect.DeepEqual(actions(dry.Run), actions(run)) || !dry.Run.DryRun || run.Kind != RunKindPrune {
		t.Errorf("dry %v vs run %v (kind %q)", actions(dry.Run), actions(run), run.Kind)
	}
	if tr := f.git("log", "-1", "--format=%(trailers:key=Skill-Action,valueonly,separator=)/%(trailers:key=Curator-Run,valueonly,separator=)/%(trailers:key=Skill-Name,valueonly,separator=%x2C)"); tr != "merge/"+run.ID+"/alpha,beta\n" {
		t.Errorf("merge trailers = %q", tr)
	}
	if got := strings.TrimSpace(f.git("rev-parse", RefPrefix+run.ID)); got != run.PreRunCommit {
		t.Errorf("pre-run ref %s, run says %s", got, run.PreRunCommit)
	}
	if st, _ := NewStore(f.lib.State().Curator()).Load(); st.RunCount != 0 || st.LastRunAt != nil {
		t.Errorf("prune touched the schedule: %+v", st)
	}
	recs, _ := f.lib.Usage().Load()
	if recs["alpha"].State != "archived" {
		t.Errorf("alpha state %s", recs["alpha"].State)
	}
	// A prune is a run: rollback undoes it.
	if _, err := c.Rollback(ctx, run.ID, RollbackOptions{}); err != nil {
		t.Fatal(err)
	}
	f.assertClean()
	for _, p := range []string{"alpha/references/notes.md", "ops/beta/SKILL.md"} {
		if _, err := os.Stat(filepath.Join(f.lib.Root, p)); err != nil {
			t.Errorf("after rollback: %v", err)
		}
	}
}

func TestPurgeAndRestoreFromHistory(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	ctx := context.Background()
	if _, err := c.Archive(ctx, "alpha", "test", false); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Archive(ctx, "mine", "test", false); err != nil {
		t.Fatal(err)
	}
	archivedAt := f.git("log", "-1", "--format=%cI")
	at, err := time.Parse(time.RFC3339, strings.TrimSpace(archivedAt))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Purge(ctx, PurgeOptions{}); !errors.Is(err, ErrPurgeDisabled) {
		t.Fatalf("purge with archive_ttl_days 0: %v", err)
	}
	c.Now = func() time.Time { return at.Add(10 * Day) }
	kept, err := c.Purge(ctx, PurgeOptions{Days: 11})
	if err != nil {
		t.Fatal(err)
	}
	if len(kept.Purged) != 0 || len(kept.Kept) != 2 || kept.Commit != "" {
		t.Fatalf("too young to purge: %+v", kept)
	}
	before := fingerprint(t, f.lib.Root)
	dry, err := c.Purge(ctx, PurgeOptions{Days: 10, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if fingerprint(t, f.lib.Root) != before {
		t.Fatal("dry purge wrote")
	}
	res, err := c.Purge(ctx, PurgeOptions{Days: 10})
	if err != nil {
		t.Fatal(err)
	}
	f.assertClean()
	if len(res.Purged) != 2 || len(dry.Purged) != 2 || res.Purged[0].Dir != ".archive/alpha" || res.Purged[0].Source != "history" || res.Purged[0].AgeDays != 10 {
		t.Fatalf("purge = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(f.lib.Root, ".archive")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".archive still there: %v", err)
	}
	if tr := f.git("log", "-1", "--format=%(trailers:key=Skill-Action,valueonly,separator=)/%(trailers:key=Skill-From,valueonly,separator=%x2C)"); tr != "purge/.archive/alpha,.archive/mine\n" {
		t.Errorf("purge trailers = %q", tr)
	}
	// History keeps it: restore reads it back from before the purge, to
	// where it lived, files and all.
	rr, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).Restore(ctx, skillrepo.RestoreOptions{Name: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	f.assertClean()
	if rr.To != "alpha" || rr.PurgedIn != res.Commit || rr.Guessed {
		t.Errorf("restore = %+v", rr)
	}
	b, err := os.ReadFile(filepath.Join(f.lib.Root, "alpha/references/notes.md"))
	if err != nil || string(b) != "alpha notes\n" {
		t.Errorf("restored notes = %q, %v", b, err)
	}
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).Restore(ctx, skillrepo.RestoreOptions{Name: "alpha"}); !errors.Is(err, skillrepo.ErrNotFound) {
		t.Errorf("restoring a restored skill: %v", err)
	}
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).Restore(ctx, skillrepo.RestoreOptions{Name: "nosuch"}); !errors.Is(err, skillrepo.ErrNotFound) {
		t.Errorf("restoring a skill history never had: %v", err)
	}
}

func TestListUnmanaged(t *testing.T) {
	f := newFixture(t)
	list, err := f.curator().ListUnmanaged()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
	}
	if !reflect.DeepEqual(names, []string{"mine"}) {
		t.Errorf("unmanaged = %v, want [mine]", names)
	}
}
