package curator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// The fixture library, at testNow (2026-06-01T12:00:00Z):
//
//	alpha/            agent, used 40 days ago         → archived
//	ops/beta/         agent, used 20 days ago         → stale
//	gamma/            agent, stale, viewed yesterday  → active
//	mine/             user-owned, used 400 days ago   → untouched
//	keep/             agent, pinned, 400 days         → untouched
//	nightly/          agent, in scheduled_skills      → untouched
//	fresh/            agent by history, no record     → seeded
type fixture struct {
	t   *testing.T
	lib *skillrepo.Library
	env map[string]string
	now time.Time
}

func skillMD(name string) string {
	return "---\nname: " + name + "\ndescription: Does " + name + " things.\n---\n\nSteps for " + name + ".\n"
}

func iso(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000") + "+00:00" }

func newFixture(t *testing.T) *fixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	env := testlib.Env(t.TempDir())
	dir := filepath.Join(t.TempDir(), "lib")
	files := map[string]string{
		".skillrepo/config.yaml": "version: 1\nmain_branch: main\ncurator:\n  scheduled_skills: [nightly]\n",
	}
	for _, d := range []string{"alpha", "ops/beta", "gamma", "mine", "keep", "nightly", "fresh"} {
		files[d+"/SKILL.md"] = skillMD(filepath.Base(d))
	}
	files["alpha/references/notes.md"] = "alpha notes\n"
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	agent := "agent"
	rec := func(used time.Time, state string) map[string]any {
		return map[string]any{"created_by": agent, "use_count": 3, "last_used_at": iso(used), "created_at": iso(ago(days(500))), "state": state}
	}
	usage := map[string]any{
		"alpha":   rec(ago(days(40)), "active"),
		"beta":    rec(ago(days(20)), "active"),
		"gamma":   map[string]any{"created_by": agent, "use_count": 1, "last_used_at": iso(ago(days(25))), "last_viewed_at": iso(ago(days(1))), "state": "stale"},
		"mine":    map[string]any{"created_by": nil, "use_count": 1, "last_used_at": iso(ago(days(400)))},
		"keep":    map[string]any{"created_by": agent, "pinned": true, "use_count": 1, "last_used_at": iso(ago(days(400)))},
		"nightly": rec(ago(days(400)), "active"),
	}
	b, _ := json.MarshalIndent(usage, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, ".usage.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	opts := skillrepo.OpenOptions{Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return testNow }, LockTimeout: 200 * time.Millisecond}
	if _, err := skillrepo.Init(context.Background(), dir, skillrepo.InitOptions{OpenOptions: opts}); err != nil {
		t.Fatal(err)
	}
	lib, err := skillrepo.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	return &fixture{t: t, lib: lib, env: env, now: testNow}
}

// ownedByHistory stands in for ownership from history: fresh has no
// record but was made by a review.
type ownedByHistory struct{}

func (ownedByHistory) Owners(snap *skillrepo.Snapshot, skills []skillrepo.SkillInfo, usage map[string]*usage.Record) (map[string]Owner, error) {
	out, _ := UsageOwnership{}.Owners(snap, skills, usage)
	for _, si := range skills {
		if si.Name == "fresh" {
			out[si.Dir] = Owner{Managed: true}
		}
	}
	return out, nil
}

func (f *fixture) curator() *Curator {
	return &Curator{Lib: f.lib, Now: func() time.Time { return f.now }, Owners: ownedByHistory{}}
}

// run runs the curator at f.now and fails the test on an error.
func (f *fixture) run(c *Curator) *Run {
	f.t.Helper()
	out, err := c.Run(context.Background(), RunOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	return out.Run
}

func (f *fixture) git(args ...string) string {
	f.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = f.lib.Root
	cmd.Env = os.Environ()
	for k, v := range f.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		f.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (f *fixture) assertClean() {
	f.t.Helper()
	if st := f.git("status", "--porcelain"); st != "" {
		f.t.Errorf("git status not clean:\n%s", st)
	}
	f.git("fsck", "--strict", "--no-progress")
}

// fingerprint hashes every file under the library, .git included, with
// its path and mode: equal fingerprints mean nothing was written.
func fingerprint(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && filepath.ToSlash(rel) == ".git/skillrepo/cache" {
			// Derived data a read may refresh (the skill catalogue), rebuilt
			// from the trees whenever stale: not a write of the library.
			return fs.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := rel + " " + info.Mode().String()
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func actions(r *Run) []string {
	var out []string
	for _, c := range r.Transitions {
		out = append(out, c.Name+":"+string(c.From)+"->"+string(c.To))
	}
	return out
}

func TestDryRunWritesNothingAndMatchesTheRun(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	before := fingerprint(t, f.lib.Root)
	dry, err := c.Run(context.Background(), RunOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if after := fingerprint(t, f.lib.Root); after != before {
		t.Fatalf("dry run changed the library:\nbefore\n%s\nafter\n%s", before, after)
	}
	want := []string{"alpha:active->archived", "beta:active->stale", "gamma:stale->active"}
	if got := actions(dry.Run); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("plan = %v, want %v", got, want)
	}
	if !dry.Run.DryRun || len(dry.Run.Commits) != 0 || dry.Run.PreRunRef != "" {
		t.Errorf("dry run record = %+v", dry.Run)
	}
	if got := dry.Run.Seeded; len(got) != 1 || got[0] != "fresh" {
		t.Errorf("seeded = %v", got)
	}

	real, err := c.Run(context.Background(), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(real.Run); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("run = %v, plan was %v", got, want)
	}
	if real.Run.Counts != dry.Run.Counts || real.Run.ID != dry.Run.ID {
		t.Errorf("run %s %+v differs from its plan %s %+v", real.Run.ID, real.Run.Counts, dry.Run.ID, dry.Run.Counts)
	}
}

func TestRunArchivesAsOneMergedBranch(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	pre := strings.TrimSpace(f.git("rev-parse", "main"))
	out, err := c.Run(context.Background(), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.assertClean()
	run := out.Run
	id := run.ID
	if id != "20260601-120000" {
		t.Errorf("run id = %s", id)
	}
	// One merge on main: first parent the pre-run tip, second the branch.
	parents := strings.Fields(f.git("log", "-1", "--format=%P", "main"))
	if len(parents) != 2 || parents[0] != pre {
		t.Fatalf("main tip parents = %v, pre-run %s", parents, pre)
	}
	if got := strings.TrimSpace(f.git("rev-parse", RefPrefix+id)); got != pre {
		t.Errorf("pre-run ref = %s, want %s", got, pre)
	}
	if run.MergeCommit != strings.TrimSpace(f.git("rev-parse", "main")) || len(run.Commits) != 2 {
		t.Errorf("run commits %v merge %s", run.Commits, run.MergeCommit)
	}
	// Every commit of the run carries the Curator-Run trailer.
	trailers := f.git("log", "--format=%(trailers:key=Curator-Run,valueonly)%(trailers:key=Skill-Action,valueonly)", pre+"..main")
	if strings.Count(trailers, id+"\n") != 2 || !strings.Contains(trailers, "archive\n") || !strings.Contains(trailers, "merge\n") {
		t.Errorf("run trailers:\n%s", trailers)
	}
	if branches := f.git("branch", "--list", "curator/*"); branches != "" {
		t.Errorf("run branch left behind: %s", branches)
	}
	// The work tree follows.
	if _, err := os.Stat(filepath.Join(f.lib.Root, ".archive/alpha/references/notes.md")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(f.lib.Root, "alpha")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("alpha still in place")
	}
	// git sees the archive as renames.
	if st := f.git("show", "-M", "--format=", "--name-status", parents[1]); !strings.Contains(st, "R100\talpha/SKILL.md\t.archive/alpha/SKILL.md") {
		t.Errorf("archive commit is not a rename:\n%s", st)
	}

	recs, err := f.lib.Usage().Load()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"alpha": "archived", "beta": "stale", "gamma": "active", "mine": "active", "keep": "active", "nightly": "active", "fresh": "active"} {
		r := recs[name]
		if r == nil || r.State != want {
			t.Errorf("%s state = %+v, want %s", name, r, want)
		}
	}
	if recs["alpha"].ArchivedAt == nil || recs["fresh"].CreatedAt == nil || *recs["fresh"].CreatedAt != iso(testNow) {
		t.Errorf("archived_at / seeded created_at not set: %+v %+v", recs["alpha"], recs["fresh"])
	}

	st, err := NewStore(f.lib.State().Curator()).Load()
	if err != nil {
		t.Fatal(err)
	}
	if st.RunCount != 1 || st.LastRunID != id || st.LastRunAt == nil || !st.LastRunAt.Equal(testNow) {
		t.Errorf("state = %+v", st)
	}
	back, err := ReadRun(filepath.Join(f.lib.State().Curator(), ReportsDir, id))
	if err != nil {
		t.Fatal(err)
	}
	if back.MergeCommit != run.MergeCommit || len(back.Archived) != 1 || back.Archived[0].From != "alpha" {
		t.Errorf("run.json = %+v", back)
	}

	// A second run at the same instant changes nothing and gets its own id.
	again, err := c.Run(context.Background(), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Run.ID != id+"-2" || len(again.Run.Transitions) != 0 || again.Run.MergeCommit != "" {
		t.Errorf("second run = %+v", again.Run)
	}
	f.assertClean()
}

func TestScheduleGatesRuns(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	ctx := context.Background()
	// First sight: seed, no run.
	out, err := c.Run(ctx, RunOptions{IfDue: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Run != nil || !out.Seeded || !out.Next.Equal(testNow.Add(168*time.Hour)) {
		t.Fatalf("first --if-due = %+v", out)
	}
	if n := strings.Count(f.git("log", "--oneline"), "\n"); n != 1 {
		t.Errorf("seeding made commits: %d", n)
	}
	// Not due yet.
	f.now = testNow.Add(167 * time.Hour)
	if out, err = c.Run(ctx, RunOptions{IfDue: true}); err != nil || out.Run != nil || out.Seeded {
		t.Fatalf("early --if-due = %+v, %v", out, err)
	}
	// Paused: not even when due; --force overrides.
	if _, err := NewStore(f.lib.State().Curator()).SetPaused(true); err != nil {
		t.Fatal(err)
	}
	f.now = testNow.Add(200 * time.Hour)
	if out, err = c.Run(ctx, RunOptions{IfDue: true}); err != nil || out.Run != nil {
		t.Fatalf("paused --if-due = %+v, %v", out, err)
	}
	if _, err := NewStore(f.lib.State().Curator()).SetPaused(false); err != nil {
		t.Fatal(err)
	}
	out, err = c.Run(ctx, RunOptions{IfDue: true})
	if err != nil || out.Run == nil {
		t.Fatalf("due --if-due = %+v, %v", out, err)
	}
	if want := f.now.Add(168 * time.Hour); !out.Next.Equal(want) {
		t.Errorf("next = %s, want %s", out.Next, want)
	}
}

func TestRunRefusedWhenDisabled(t *testing.T) {
	f := newFixture(t)
	f.lib.Config.Curator.Enabled = false
	c := f.curator()
	if _, err := c.Run(context.Background(), RunOptions{}); !errors.Is(err, ErrDisabled) {
		t.Fatalf("run of a disabled curator: %v", err)
	}
	out, err := c.Run(context.Background(), RunOptions{IfDue: true})
	if err != nil || out.Run != nil || out.Skipped == "" {
		t.Fatalf("--if-due of a disabled curator: %+v %v", out, err)
	}
	if out, err = c.Run(context.Background(), RunOptions{Force: true}); err != nil || out.Run == nil {
		t.Fatalf("--force: %+v %v", out, err)
	}
}

func TestRollbackKeepsLaterWork(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	ctx := context.Background()
	id := f.run(c).ID
	// Later, unrelated work.
	content := skillMD("later")
	testlib.Seed(t, f.lib, skillrepo.Op{Action: skillrepo.ActionCreate, Name: "later", Content: &content})
	// Dry rollback writes nothing.
	before := fingerprint(t, f.lib.Root)
	dry, err := c.Rollback(ctx, id, RollbackOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if fingerprint(t, f.lib.Root) != before {
		t.Fatal("dry rollback wrote")
	}
	if len(dry.Restored) != 1 || dry.Restored[0].To != "alpha" {
		t.Errorf("dry rollback = %+v", dry)
	}

	res, err := c.Rollback(ctx, id, RollbackOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.assertClean()
	for _, p := range []string{"alpha/SKILL.md", "alpha/references/notes.md", "later/SKILL.md"} {
		if _, err := os.Stat(filepath.Join(f.lib.Root, p)); err != nil {
			t.Errorf("after rollback: %v", err)
		}
	}
	if res.Commit != strings.TrimSpace(f.git("rev-parse", "main")) {
		t.Errorf("rollback commit %s is not main's tip", res.Commit)
	}
	if tr := f.git("log", "-1", "--format=%(trailers:key=Skill-Action,valueonly)%(trailers:key=Curator-Run,valueonly)"); tr != "rollback\n"+id+"\n\n" {
		t.Errorf("rollback trailers = %q", tr)
	}
	// The tree is the pre-run tree plus the later skill.
	if diff := f.git("diff", "--name-status", RefPrefix+id, "main"); diff != "A\tlater/SKILL.md\n" {
		t.Errorf("pre-run vs now:\n%s", diff)
	}
	recs, _ := f.lib.Usage().Load()
	for name, want := range map[string]string{"alpha": "active", "beta": "active", "gamma": "stale"} {
		if recs[name].State != want {
			t.Errorf("%s state after rollback = %s, want %s", name, recs[name].State, want)
		}
	}
	// The skill's history is continuous through archive and rollback on
	// the main line (plain --follow over merges is git's weak spot: it
	// may walk the pre-run parent first when the dates tie).
	follow := f.git("log", "--first-parent", "--follow", "--format=%(trailers:key=Skill-Action,valueonly)", "--", "alpha/SKILL.md")
	if strings.Join(strings.Fields(follow), " ") != "rollback merge import" {
		t.Errorf("git log --follow alpha:\n%s", follow)
	}
	if _, err := c.Rollback(ctx, id, RollbackOptions{}); !errors.Is(err, ErrRolledBack) {
		t.Errorf("second rollback: %v", err)
	}
	if _, err := c.Rollback(ctx, "20990101-000000", RollbackOptions{}); !errors.Is(err, skillrepo.ErrNotFound) {
		t.Errorf("rollback of an unknown run: %v", err)
	}
}

func TestRollbackRefusedWhenALaterCommitChangedTheSkill(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	ctx := context.Background()
	id := f.run(c).ID
	// Someone restores alpha by hand and edits it.
	r, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).Restore(ctx, skillrepo.RestoreOptions{Name: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	if r.To != "alpha" {
		t.Fatalf("restore = %+v", r)
	}
	tip := strings.TrimSpace(f.git("rev-parse", "main"))
	_, err = c.Rollback(ctx, id, RollbackOptions{})
	var ce *ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, skillrepo.ErrConflict) {
		t.Fatalf("rollback over a restored skill: %v", err)
	}
	if len(ce.Conflicts) != 2 || ce.Conflicts[0].Commit != tip || !strings.Contains(err.Error(), "skill: restore alpha") {
		t.Errorf("conflict report: %v %+v", err, ce.Conflicts)
	}
	if now := strings.TrimSpace(f.git("rev-parse", "main")); now != tip {
		t.Error("a refused rollback moved main")
	}
	f.assertClean()
}

func TestMergeReplaysOverAMovedMainAndRefusesConflicts(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		touch    string // skill changed on main between plan and merge
		conflict bool
	}{
		{name: "unrelated change merges", touch: "mine"},
		{name: "change to an archived skill conflicts", touch: "alpha", conflict: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			c := f.curator()
			src := libSource{f.lib}
			inv, err := c.read(src, nil)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := c.plan(src, inv, f.now)
			if err != nil {
				t.Fatal(err)
			}
			old, nu := "Steps for "+tc.touch+".", "Better steps."
			testlib.Seed(t, f.lib, skillrepo.Op{Action: skillrepo.ActionPatch, Name: tc.touch, OldString: &old, NewString: &nu})
			moved := strings.TrimSpace(f.git("rev-parse", "main"))
			run := NewRun("r1", plan, "main", inv.snap.Commit().String(), false)
			err = c.apply(ctx, run, plan, inv)
			if tc.conflict {
				if !errors.Is(err, skillrepo.ErrConflict) || !strings.Contains(err.Error(), "alpha") {
					t.Fatalf("apply over a changed skill: %v", err)
				}
				if now := strings.TrimSpace(f.git("rev-parse", "main")); now != moved {
					t.Error("a refused merge moved main")
				}
				if b := f.git("branch", "--list", "curator/*"); b != "" {
					t.Errorf("branch left after a refused merge: %s", b)
				}
				f.assertClean()
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			parents := strings.Fields(f.git("log", "-1", "--format=%P", "main"))
			if len(parents) != 2 || parents[0] != moved || run.PreRunCommit != moved {
				t.Errorf("merge parents %v, main was %s, pre-run %s", parents, moved, run.PreRunCommit)
			}
			if got := f.git("show", "main:mine/SKILL.md"); !strings.Contains(got, "Better steps.") {
				t.Error("the concurrent change was lost")
			}
			f.assertClean()
		})
	}
}

func TestArchiveByHandRefusesPinned(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	if _, err := c.Archive(context.Background(), "keep", "", false); !errors.Is(err, skillrepo.ErrRefused) {
		t.Fatalf("archive of a pinned skill: %v", err)
	}
	res, err := c.Archive(context.Background(), "beta", "superseded", false)
	if err != nil {
		t.Fatal(err)
	}
	if res.From != "ops/beta" || res.To != ".archive/beta" {
		t.Errorf("archive = %+v", res)
	}
	f.assertClean()
}

func TestStatus(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	if _, err := c.Run(context.Background(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	st, err := c.Status()
	if err != nil {
		t.Fatal(err)
	}
	wantCounts := map[string]int{"curator/active": 4, "curator/stale": 1, "curator/archived": 1, "user/active": 1}
	if len(st.Counts) != len(wantCounts) {
		t.Errorf("counts = %v, want %v", st.Counts, wantCounts)
	}
	for k, v := range wantCounts {
		if st.Counts[k] != v {
			t.Errorf("counts[%s] = %d, want %d (%v)", k, st.Counts[k], v, st.Counts)
		}
	}
	if !st.Enabled || st.RunCount != 1 || st.LastRunID != "20260601-120000" || st.LastReportMissing ||
		st.LastReportPath != ".git/skillrepo/curator/20260601-120000/REPORT.md" {
		t.Errorf("status = %+v", st)
	}
	if len(st.Pinned) != 1 || st.Pinned[0] != "keep" {
		t.Errorf("pinned = %v", st.Pinned)
	}
	if st.LeastRecentlyActive[0].Name != "fresh" || st.MostRecentlyActive[0].Name != "gamma" {
		t.Errorf("least %+v most %+v", st.LeastRecentlyActive, st.MostRecentlyActive)
	}
	if st.NextRunAt == nil || !st.NextRunAt.Equal(testNow.Add(168*time.Hour)) || st.Due {
		t.Errorf("next = %v due %v", st.NextRunAt, st.Due)
	}
}

func TestHistoryOwnership(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	c := &Curator{Lib: f.lib, Now: func() time.Time { return f.now }} // ownership from history
	plan := func() []string {
		t.Helper()
		out, err := c.Run(ctx, RunOptions{DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		return actions(out.Run)
	}
	// The import named the sidecar's agent-made skills; fresh has no
	// record, so history says user-owned and it is not even seeded.
	if got := strings.Join(plan(), " "); got != "alpha:active->archived beta:active->stale gamma:stale->active" {
		t.Errorf("plan from history = %s", got)
	}
	// A tracked pin and a disown take skills out of the curator's hands.
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).Pin(ctx, "beta", skillrepo.MetaOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).Disown(ctx, "alpha", skillrepo.MetaOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(plan(), " "); got != "gamma:stale->active" {
		t.Errorf("plan after pin and disown = %s", got)
	}
	// A pinned skill is refused by hand too.
	if _, err := c.Archive(ctx, "beta", "", false); !errors.Is(err, skillrepo.ErrRefused) {
		t.Errorf("archive of a pinned skill: %v", err)
	}
}

func TestRunRefusesToArchiveOverAnUncommittedEdit(t *testing.T) {
	f := newFixture(t)
	c := f.curator()
	edited := filepath.Join(f.lib.Root, "alpha/SKILL.md")
	if err := os.WriteFile(edited, []byte(skillMD("alpha")+"my note\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tip := f.git("rev-parse", "main")
	usage, _ := os.ReadFile(filepath.Join(f.lib.Root, ".usage.json"))
	_, err := c.Run(context.Background(), RunOptions{})
	var dirty *skillrepo.DirtyError
	if !errors.As(err, &dirty) || !errors.Is(err, skillrepo.ErrConflict) {
		t.Fatalf("run over a dirty skill: %v", err)
	}
	if f.git("rev-parse", "main") != tip || f.git("branch", "--list", "curator/*") != "" || f.git("for-each-ref", RefPrefix) != "" {
		t.Error("a refused run left a commit, a branch or a ref")
	}
	if after, _ := os.ReadFile(filepath.Join(f.lib.Root, ".usage.json")); string(after) != string(usage) {
		t.Error("a refused run changed the sidecar")
	}
	if b, _ := os.ReadFile(edited); !strings.Contains(string(b), "my note") {
		t.Error("the edit was lost")
	}
	if st, _ := NewStore(f.lib.State().Curator()).Load(); st.RunCount != 0 {
		t.Errorf("a refused run counted: %+v", st)
	}
}
