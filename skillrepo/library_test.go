package skillrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

func TestInitExample(t *testing.T) {
	l, env := newTestLibrary(t)
	assertConsistent(t, l, env)
	log := gitCmd(t, l, env, "log", "--format=%s|%(trailers:key=Skill-Action,valueonly)")
	if !strings.HasPrefix(log, "import: 4 skills into skillrepo|import") {
		t.Errorf("log = %q", log)
	}
	snap, err := l.Snapshot("")
	if err != nil {
		t.Fatal(err)
	}
	skills, _ := snap.Skills()
	var dirs []string
	for _, s := range skills {
		dirs = append(dirs, s.Dir)
	}
	want := "ci-debugging devops/docker-cleanup git-bisect-regressions writing/release-notes"
	if strings.Join(dirs, " ") != want {
		t.Errorf("skills = %v, want %s", dirs, want)
	}
	// Executable bit is kept.
	if ls := gitCmd(t, l, env, "ls-files", "-s", "ci-debugging/scripts/rerun-failed.sh"); !strings.HasPrefix(ls, "100755") {
		t.Errorf("mode: %s", ls)
	}
	// Running init again changes nothing.
	res, err := Init(context.Background(), l.Root, InitOptions{OpenOptions: openOpts(env)})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Already {
		t.Errorf("second init made a commit %s", res.Commit)
	}
	if n := strings.Count(gitCmd(t, l, env, "log", "--oneline"), "\n"); n != 1 {
		t.Errorf("%d commits after second init", n)
	}
}

func TestApplyPatchUpdatesWorktree(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	res, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("first** error"), NewString: strp("first** error line")}}, Provenance: Provenance{Origin: OriginBackgroundReview, ReviewID: "r-1", Model: "m"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Update.CheckedOut || len(res.Update.Paths) != 1 || res.Update.Paths[0] != "ci-debugging/SKILL.md" {
		t.Errorf("update = %+v", res.Update)
	}
	b, _ := os.ReadFile(filepath.Join(l.Root, "ci-debugging", "SKILL.md"))
	if !strings.Contains(string(b), "first** error line") {
		t.Errorf("work tree not updated: %s", b)
	}
	assertConsistent(t, l, env)
	tr := gitCmd(t, l, env, "log", "-1", "--format=%(trailers:key=Skill-Action,valueonly)%(trailers:key=Skill-Origin,valueonly)%(trailers:key=Review-Id,valueonly)")
	if tr != "patch\nbackground-review\nr-1\n\n" {
		t.Errorf("trailers = %q", tr)
	}
	// A review's write is authored as the review and its model; the
	// person stays the committer (docs/architecture.md §2).
	if got := gitCmd(t, l, env, "log", "-1", "--format=%an <%ae>|%cn"); got != "skillrepo review m <review@skillrepo.invalid>|Test Committer\n" {
		t.Errorf("identity = %q", got)
	}
	// A person's write keeps GIT_AUTHOR_* as author.
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("error line"), NewString: strp("error line!")}}, Provenance: Provenance{Origin: OriginUser}}); err != nil {
		t.Fatal(err)
	}
	if got := gitCmd(t, l, env, "log", "-1", "--format=%an <%ae>|%cn"); got != "Test Author <author@example.com>|Test Committer\n" {
		t.Errorf("identity of a person's write = %q", got)
	}
}

func TestDirtyPathRefused(t *testing.T) {
	l, env := newTestLibrary(t)
	p := filepath.Join(l.Root, "ci-debugging", "SKILL.md")
	orig, _ := os.ReadFile(p)
	edited := append(append([]byte(nil), orig...), "my own note\n"...)
	os.WriteFile(p, edited, 0o644)
	head := gitCmd(t, l, env, "rev-parse", "HEAD")
	_, err := l.apply(context.Background(), applyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("Pitfalls"), NewString: strp("Traps")}}})
	var de *DirtyError
	if !errors.As(err, &de) || !errors.Is(err, ErrConflict) || de.Paths[0] != "ci-debugging/SKILL.md" {
		t.Fatalf("err = %v", err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != string(edited) {
		t.Errorf("user edit was changed")
	}
	if h := gitCmd(t, l, env, "rev-parse", "HEAD"); h != head {
		t.Errorf("HEAD moved")
	}
	// A write elsewhere still works and keeps the edit.
	if _, err := l.apply(context.Background(), applyOptions{Ops: []Op{{Action: ActionPatch, Name: "docker-cleanup", OldString: strp("Measure first"), NewString: strp("Measure")}}}); err != nil {
		t.Fatal(err)
	}
	if st := gitCmd(t, l, env, "status", "--porcelain"); st != " M ci-debugging/SKILL.md\n" {
		t.Errorf("status = %q", st)
	}
	// sync records the edit.
	sres, err := l.Sync(context.Background(), SyncOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sres.Commit.IsZero() || sres.Origin != OriginUser || len(sres.Skills) != 1 || sres.Skills[0] != "ci-debugging" {
		t.Errorf("sync = %+v", sres)
	}
	assertConsistent(t, l, env)
}

func TestBatchAllOrNothing(t *testing.T) {
	l, env := newTestLibrary(t)
	head := gitCmd(t, l, env, "rev-parse", "HEAD")
	content := "---\nname: new-skill\ndescription: Use when testing batches.\n---\n# New\nbody\n"
	_, err := l.apply(context.Background(), applyOptions{Ops: []Op{
		{Action: ActionCreate, Name: "new-skill", Content: &content},
		{Action: ActionWriteFile, Name: "new-skill", FilePath: "references/a.md", FileContent: strp("a")},
		{Action: ActionPatch, Name: "new-skill", OldString: strp("not there"), NewString: strp("x")},
	}})
	var oe *OpError
	if !errors.As(err, &oe) || oe.Index != 2 || !errors.Is(err, skill.ErrInvalid) {
		t.Fatalf("err = %v", err)
	}
	if h := gitCmd(t, l, env, "rev-parse", "HEAD"); h != head {
		t.Errorf("HEAD moved")
	}
	if _, err := os.Stat(filepath.Join(l.Root, "new-skill")); !os.IsNotExist(err) {
		t.Errorf("new-skill exists after a failed batch")
	}
	assertConsistent(t, l, env)
}

func TestCreateDeleteArchive(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	content := "---\nname: umbrella\ndescription: Use when testing.\n---\n# U\nbody\n"
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionCreate, Name: "umbrella", Category: "devops", Content: &content}}, Provenance: Provenance{Origin: OriginBackgroundReview}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(l.Root, "devops", "umbrella", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	// Autonomous delete without absorbed_into is refused.
	_, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionDelete, Name: "docker-cleanup"}}, Provenance: Provenance{Origin: OriginBackgroundReview}})
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v", err)
	}
	res, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionDelete, Name: "docker-cleanup", AbsorbedInto: strp("umbrella")}}, Provenance: Provenance{Origin: OriginBackgroundReview}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Results[0].Archived || res.Results[0].ArchivedTo != ".archive/docker-cleanup" {
		t.Errorf("result = %+v", res.Results[0])
	}
	if _, err := os.Stat(filepath.Join(l.Root, ".archive", "docker-cleanup", "templates", "prune-policy.yaml")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(l.Root, "devops", "docker-cleanup")); !os.IsNotExist(err) {
		t.Error("old folder still there")
	}
	assertConsistent(t, l, env)
	if tr := gitCmd(t, l, env, "log", "-1", "--format=%(trailers:key=Skill-Action,valueonly)%(trailers:key=Absorbed-Into,valueonly)"); tr != "archive\numbrella\n\n" {
		t.Errorf("trailers %q", tr)
	}
	// A user delete removes it.
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionDelete, Name: "git-bisect-regressions"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(l.Root, "git-bisect-regressions")); !os.IsNotExist(err) {
		t.Error("deleted skill folder still there")
	}
	assertConsistent(t, l, env)
}

func TestWriteToOtherBranchLeavesWorktree(t *testing.T) {
	l, env := newTestLibrary(t)
	before := gitCmd(t, l, env, "rev-parse", "HEAD")
	res, err := l.apply(context.Background(), applyOptions{Branch: "proposals/p1", From: "main", Ops: []Op{{Action: ActionWriteFile, Name: "ci-debugging", FilePath: "references/new.md", FileContent: strp("# new\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Update.CheckedOut {
		t.Error("proposal write touched the work tree")
	}
	if _, err := os.Stat(filepath.Join(l.Root, "ci-debugging", "references", "new.md")); !os.IsNotExist(err) {
		t.Error("file appeared in the work tree")
	}
	if h := gitCmd(t, l, env, "rev-parse", "HEAD"); h != before {
		t.Error("main moved")
	}
	if got := gitCmd(t, l, env, "show", "proposals/p1:ci-debugging/references/new.md"); got != "# new\n" {
		t.Errorf("show = %q", got)
	}
	if got := gitCmd(t, l, env, "rev-parse", "proposals/p1^"); got != before {
		t.Errorf("parent = %q", got)
	}
	assertConsistent(t, l, env)
}

func TestLockTimeout(t *testing.T) {
	l, _ := newTestLibrary(t)
	unlock, err := l.repo.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	l2, err := Open(l.Root, openOpts(testEnv(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer l2.repo.Close()
	_, err = l2.apply(context.Background(), applyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("Pitfalls"), NewString: strp("Traps")}}})
	var le *LockedError
	if !errors.As(err, &le) || !strings.Contains(le.Holder, "pid") {
		t.Fatalf("err = %v", err)
	}
}

// SKILLREPO_LOCK_TIMEOUT=0 (or 0s, 1ns) means "try once": with nothing
// holding the lock every write succeeds; with a holder it fails at once,
// as locked.
func TestLockTimeoutZeroTriesOnce(t *testing.T) {
	l, env := newTestLibrary(t)
	for i, v := range []string{"0", "0s", "1ns"} {
		env["SKILLREPO_LOCK_TIMEOUT"] = v
		o := openOpts(env)
		o.LockTimeout = 0 // from the environment
		l2, err := Open(l.Root, o)
		if err != nil {
			t.Fatal(err)
		}
		text := fmt.Sprintf("Traps %d", i)
		old := "Pitfalls"
		if i > 0 {
			old = fmt.Sprintf("Traps %d", i-1)
		}
		if _, err := l2.apply(context.Background(), applyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp(old), NewString: strp(text)}}}); err != nil {
			t.Errorf("SKILLREPO_LOCK_TIMEOUT=%s with no holder: %v", v, err)
		}
		unlock, err := l.Lock(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = l2.apply(context.Background(), applyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp(text), NewString: strp("x")}}})
		unlock()
		if !errors.Is(err, ErrLocked) || time.Since(start) > 2*time.Second {
			t.Errorf("SKILLREPO_LOCK_TIMEOUT=%s with a holder: %v after %v, want locked at once", v, err, time.Since(start))
		}
		l2.Close()
	}
}

// init appends its entries to the user's .gitignore, keeping the user's
// lines and the file's permissions (it is replaced whole, by a rename).
func TestInitAppendsToGitignore(t *testing.T) {
	env := testEnv(t)
	dir := filepath.Join(t.TempDir(), "skills")
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "SKILL.md"), []byte("---\nname: a\ndescription: Use when a.\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gi := filepath.Join(dir, ".gitignore")
	if err := os.WriteFile(gi, []byte("node_modules/"), 0o600); err != nil { // no final newline
		t.Fatal(err)
	}
	if _, err := Init(context.Background(), dir, InitOptions{OpenOptions: openOpts(env)}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(gi)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "node_modules/\n") || !strings.Contains(string(b), "\n/"+usage.File+"\n") {
		t.Errorf(".gitignore after init:\n%s", b)
	}
	if fi, err := os.Stat(gi); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf(".gitignore mode %v, want the user's 0600 (%v)", fi.Mode().Perm(), err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(leftovers) > 0 {
		t.Errorf("temp files left: %v", leftovers)
	}
}
