package curator

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/hermeshome"
	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// hermesLibrary imports the skills folder of a Hermes home (internal/
// hermeshome) after edit has changed its usage records.
func hermesLibrary(t *testing.T, edit func(recs map[string]map[string]any)) (*skillrepo.Library, string) {
	t.Helper()
	home := hermeshome.Copy(t)
	env := testlib.Env(t.TempDir())
	env["HOME"] = filepath.Dir(home)
	if edit != nil {
		p := filepath.Join(home, "skills", ".usage.json")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var recs map[string]map[string]any
		if err := json.Unmarshal(b, &recs); err != nil {
			t.Fatal(err)
		}
		edit(recs)
		b, _ = json.MarshalIndent(recs, "", "  ")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := skillrepo.OpenOptions{Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return hermeshome.Now }}
	dir := filepath.Join(home, "skills")
	if _, err := skillrepo.Init(context.Background(), dir, skillrepo.InitOptions{OpenOptions: opts}); err != nil {
		t.Fatal(err)
	}
	lib, err := skillrepo.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	return lib, home
}

// TestHermesSplitRecordIsNotIdle: a curator-managed skill whose record is
// split — the review created git-bisect through skill_manage (keyed by
// the folder), Hermes counted its uses under the frontmatter name
// git-bisect-regressions — is as recently used as its newest half, so no
// run archives it. Read under the folder alone, its anchor would be its
// creation 121 days ago.
func TestHermesSplitRecordIsNotIdle(t *testing.T) {
	lib, _ := hermesLibrary(t, func(recs map[string]map[string]any) {
		recs["git-bisect"]["created_by"] = "agent"
		recs["git-bisect"]["created_at"] = "2026-08-01T09:00:00.000000+00:00"
		recs["git-bisect"]["last_patched_at"] = nil
		recs["git-bisect"]["patch_count"] = 0
	})
	c := &Curator{Lib: lib, Now: func() time.Time { return hermeshome.Now }}
	out, err := c.Preview(context.Background(), RunOptions{DryRun: true, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range out.Run.Transitions {
		if ch.Name == "git-bisect" {
			t.Errorf("the curator would %s git-bisect (anchor %s): its uses under git-bisect-regressions were not read", ch.Action, ch.Anchor)
		}
	}
	// The same run without the frontmatter-name half: git-bisect is idle
	// and curator-managed, so it goes (the test above is not vacuous).
	lib2, _ := hermesLibrary(t, func(recs map[string]map[string]any) {
		recs["git-bisect"]["created_by"] = "agent"
		recs["git-bisect"]["created_at"] = "2026-08-01T09:00:00.000000+00:00"
		recs["git-bisect"]["last_patched_at"] = nil
		recs["git-bisect"]["patch_count"] = 0
		delete(recs, "git-bisect-regressions")
	})
	c2 := &Curator{Lib: lib2, Now: func() time.Time { return hermeshome.Now }}
	out2, err := c2.Preview(context.Background(), RunOptions{DryRun: true, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	archived := false
	for _, ch := range out2.Run.Transitions {
		archived = archived || (ch.Name == "git-bisect" && ch.Action == ActionArchive)
	}
	if !archived {
		t.Errorf("without its uses git-bisect is not archived: %+v", out2.Run.Transitions)
	}
}

// hermesHome imports a whole Hermes home (internal/hermeshome): one
// repository at the home, the library its skills/.
func hermesHome(t *testing.T) (*skillrepo.Library, string, map[string]string) {
	t.Helper()
	home := hermeshome.Copy(t)
	env := testlib.Env(t.TempDir())
	env["HOME"] = filepath.Dir(home)
	opts := skillrepo.OpenOptions{Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return hermeshome.Now }}
	if _, err := skillrepo.Init(context.Background(), home, skillrepo.InitOptions{OpenOptions: opts}); err != nil {
		t.Fatal(err)
	}
	lib, err := skillrepo.Open(filepath.Join(home, "skills"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	return lib, home, env
}

// TestHermesOneCurator: init reads Hermes' curator (its schedule and
// thresholds, and that it is on), so skillrepo's stands aside — a
// scheduled run skips, an explicit one is refused — and status says
// which runs; Hermes' next run is recorded by sync as a curator commit.
func TestHermesOneCurator(t *testing.T) {
	lib, home, env := hermesHome(t)
	ctx := context.Background()
	cfg := lib.Config.Curator
	if cfg.Owner != config.CuratorOwnerHermes || cfg.IntervalHours != 72 || cfg.StaleAfterDays != 21 || cfg.ArchiveAfterDays != 60 {
		t.Fatalf("curator config after init: %+v", cfg)
	}
	c := &Curator{Lib: lib, Now: func() time.Time { return hermeshome.Now }}
	out, err := c.Run(ctx, RunOptions{IfDue: true})
	if err != nil || out.Run != nil || !strings.Contains(out.Skipped, "Hermes' own curator") {
		t.Errorf("scheduled run: %+v %v", out, err)
	}
	if _, err := c.Run(ctx, RunOptions{}); !errors.Is(err, ErrHermesCurator) {
		t.Errorf("explicit run: %v, want ErrHermesCurator", err)
	}
	st, err := c.Status()
	if err != nil {
		t.Fatal(err)
	}
	h := st.Hermes
	if st.Owner != "hermes" || st.NextRunAt != nil || h == nil || !h.Enabled || h.RunCount != 7 ||
		h.NextRunAt == nil || !h.NextRunAt.Equal(time.Date(2026, 12, 1, 3, 0, 0, 215000000, time.UTC)) {
		t.Errorf("status: owner %s (%s), next %v, hermes %+v", st.Owner, st.OwnerNote, st.NextRunAt, h)
	}
	// With Hermes' thresholds, pytest-fixtures (idle 41 days) is only
	// stale, as Hermes marked it; skillrepo's defaults (30 days) would
	// have archived it.
	plan, err := c.Preview(ctx, RunOptions{DryRun: true, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range plan.Run.Transitions {
		if ch.Name == "pytest-fixtures" && ch.Action == ActionArchive {
			t.Errorf("a forced run would archive pytest-fixtures, which Hermes only marked stale")
		}
	}
	// Hermes' curator runs (its archive_skill: the folder flattened into
	// .archive/, the state's run count up, the record archived).
	skills := filepath.Join(home, "skills")
	if err := os.Rename(filepath.Join(skills, "python", "pytest-fixtures"), filepath.Join(skills, ".archive", "pytest-fixtures")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(skills, "python"))
	os.WriteFile(filepath.Join(skills, ".curator_state"), []byte(`{"last_run_at": "2026-12-01T03:00:00.100000+00:00", "last_run_summary": "auto: 1 archived; llm: skipped (consolidation off)", "paused": false, "run_count": 8}`), 0o644)
	res, err := lib.Sync(ctx, skillrepo.SyncOptions{})
	if err != nil || res.HermesCurator == nil || res.HermesCurator.Commit.IsZero() || res.HermesCurator.Number != 8 {
		t.Fatalf("sync after Hermes' run: %+v %v", res, err)
	}
	msg := testlib.Git(t, home, env, "log", "-1", "--format=%s%n%(trailers:key=Skill-Origin,valueonly)%(trailers:key=Curator-Run,valueonly)", res.HermesCurator.Commit.String())
	for _, want := range []string{"curator: record Hermes' run 8 (archived pytest-fixtures)", "curator", "hermes-8"} {
		if !strings.Contains(msg, want) {
			t.Errorf("commit %q lacks %q", msg, want)
		}
	}
	testlib.GitClean(t, home, env)
	// A sync with nothing new records nothing more.
	if res, err := lib.Sync(ctx, skillrepo.SyncOptions{}); err != nil || res.HermesCurator != nil || !res.Commit.IsZero() {
		t.Errorf("second sync: %+v %v", res, err)
	}
	// skillrepo restores it where it was, from that history.
	if _, err := testlib.Policy(t, lib, skillrepo.Writer{}).Restore(ctx, skillrepo.RestoreOptions{Name: "pytest-fixtures"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(skills, "python", "pytest-fixtures", "SKILL.md")); err != nil {
		t.Errorf("restore did not put it back in python/: %v", err)
	}
}

// TestHermesOwnerSkillrepo: a person who hands a Hermes library to
// skillrepo's curator (curator.owner: skillrepo) gets a schedule that
// carries on from Hermes' last run — run count, last run and next due
// time — so the swap neither runs at once nor waits a new interval;
// status says to turn Hermes' curator off while both are enabled, and
// stops saying so once it is off.
func TestHermesOwnerSkillrepo(t *testing.T) {
	_, home, env := hermesHome(t)
	ctx := context.Background()
	skills := filepath.Join(home, "skills")
	edit := func(path, old, new string) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), old) {
			t.Fatalf("%s lacks %q: %v", path, old, err)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit(filepath.Join(skills, ".skillrepo", "config.yaml"), "owner: hermes", "owner: skillrepo")
	testlib.Git(t, home, env, "commit", "-qam", "curator: skillrepo's runs this library")
	now := hermeshome.Now
	opts := skillrepo.OpenOptions{Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return now }}
	lib, err := skillrepo.Open(skills, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	c := &Curator{Lib: lib, Now: func() time.Time { return now }}

	hermesLast := time.Date(2026, 11, 28, 3, 0, 0, 215000000, time.UTC) // the fixture's .curator_state
	st, err := c.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Owner != config.CuratorOwnerSkillrepo || st.RunCount != 7 || st.LastRunAt == nil || !st.LastRunAt.Equal(hermesLast) ||
		st.NextRunAt == nil || !st.NextRunAt.Equal(hermesLast.Add(72*time.Hour)) || !strings.Contains(st.LastRunSummary, "carried over from Hermes' curator (run 7)") {
		t.Errorf("status after the swap: owner %s, runs %d, last %v, next %v, %q", st.Owner, st.RunCount, st.LastRunAt, st.NextRunAt, st.LastRunSummary)
	}
	if !strings.Contains(st.OwnerNote, "set curator.enabled: false in ~/.hermes/config.yaml") {
		t.Errorf("owner note with both curators enabled: %q", st.OwnerNote)
	}
	// A pause before skillrepo's first run holds (Hermes' state says not
	// paused), and a resume keeps the schedule carried over.
	if _, err := StoreOf(lib).SetPaused(true); err != nil {
		t.Fatal(err)
	}
	if st, err := c.Status(); err != nil || !st.Paused || st.RunCount != 7 {
		t.Errorf("status after a pause: %+v %v", st, err)
	}
	if st, err := StoreOf(lib).SetPaused(false); err != nil || st.Paused || st.RunCount != 7 || !st.LastRunAt.Equal(hermesLast) {
		t.Errorf("state after the resume: %+v %v", st, err)
	}
	// Not due yet (Hermes ran 2½ days ago, every 72 h): a scheduled run
	// skips, no run at once.
	out, err := c.Run(ctx, RunOptions{IfDue: true})
	if err != nil || out.Run != nil || !out.Next.Equal(hermesLast.Add(72*time.Hour)) {
		t.Errorf("scheduled run before Hermes' next due time: %+v %v", out, err)
	}
	// Due: skillrepo's curator runs (it is not refused as with owner
	// hermes), and counts on from Hermes' runs.
	now = hermesLast.Add(73 * time.Hour)
	out, err = c.Run(ctx, RunOptions{IfDue: true})
	if err != nil || out.Run == nil {
		t.Fatalf("scheduled run when due: %+v %v", out, err)
	}
	if st, err := c.Status(); err != nil || st.RunCount != 8 {
		t.Errorf("run count after skillrepo's first run: %+v %v", st, err)
	}
	// Hermes' curator turned off: one curator, nothing to advise.
	edit(filepath.Join(home, "config.yaml"), "curator:\n  enabled: true", "curator:\n  enabled: false")
	if st, err := c.Status(); err != nil || st.OwnerNote != "skillrepo's curator runs this library" || st.Hermes == nil || st.Hermes.Enabled {
		t.Errorf("status with Hermes' curator off: %+v %v", st, err)
	}
}
