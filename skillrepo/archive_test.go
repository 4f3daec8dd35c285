package skillrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

func TestArchiveRestoreKeepsCategoryAndHistory(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()

	a, err := person(l).Archive(ctx, ArchiveOptions{Name: "docker-cleanup", Reason: "replaced by devops-hygiene"})
	if err != nil {
		t.Fatal(err)
	}
	if a.From != "devops/docker-cleanup" || a.To != ".archive/docker-cleanup" {
		t.Fatalf("archive = %+v", a)
	}
	assertConsistent(t, l, env)
	if _, err := os.Stat(filepath.Join(l.Root, ".archive/docker-cleanup/SKILL.md")); err != nil {
		t.Fatal("archived skill not in the work tree:", err)
	}
	tr := gitCmd(t, l, env, "log", "-1", "--format=%(trailers:key=Skill-Action,valueonly)%(trailers:key=Skill-From,valueonly)")
	if tr != "archive\ndevops/docker-cleanup\n\n" {
		t.Errorf("archive trailers = %q", tr)
	}
	recs, _ := l.Usage().Load()
	if r := recs["docker-cleanup"]; r == nil || r.State != usage.StateArchived || r.ArchivedAt == nil {
		t.Errorf("usage after archive = %+v", r)
	}

	// An unrelated commit in between must not confuse the history walk.
	if _, err := l.apply(ctx, applyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: strp("first** error"), NewString: strp("first** failing line")}}}); err != nil {
		t.Fatal(err)
	}

	r, err := person(l).Restore(ctx, RestoreOptions{Name: "docker-cleanup"})
	if err != nil {
		t.Fatal(err)
	}
	if r.To != "devops/docker-cleanup" || r.Guessed || r.From != ".archive/docker-cleanup" {
		t.Fatalf("restore = %+v", r)
	}
	assertConsistent(t, l, env)
	if _, err := os.Stat(filepath.Join(l.Root, ".archive")); !errors.Is(err, os.ErrNotExist) {
		t.Error(".archive left behind in the work tree")
	}
	recs, _ = l.Usage().Load()
	if r := recs["docker-cleanup"]; r == nil || r.State != usage.StateActive || r.ArchivedAt != nil {
		t.Errorf("usage after restore = %+v", r)
	}
	// git log --follow sees the import, the archive and the restore.
	follow := gitCmd(t, l, env, "log", "--follow", "--format=%s", "--", "devops/docker-cleanup/SKILL.md")
	want := "skill: restore docker-cleanup\nskill: archive docker-cleanup\nimport: 4 skills into skillrepo\n"
	if follow != want {
		t.Errorf("git log --follow:\n%s\nwant\n%s", follow, want)
	}
	// Restoring again: nothing archived any more.
	if _, err := person(l).Restore(ctx, RestoreOptions{Name: "docker-cleanup"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("second restore: %v", err)
	}
}

func TestRestoreRefusesTakenDestinationAndGuessesFlat(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	if _, err := person(l).Archive(ctx, ArchiveOptions{Name: "git-bisect-regressions"}); err != nil {
		t.Fatal(err)
	}
	// Someone writes a new skill with the same name by hand meanwhile.
	writeSkill(t, filepath.Join(l.Root, "git-bisect-regressions"), "git-bisect-regressions")
	if _, err := l.Sync(ctx, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	before := gitCmd(t, l, env, "rev-parse", "HEAD")
	_, err := person(l).Restore(ctx, RestoreOptions{Name: "git-bisect-regressions"})
	if !errors.Is(err, ErrExists) {
		t.Fatalf("restore onto a taken folder: %v", err)
	}
	if after := gitCmd(t, l, env, "rev-parse", "HEAD"); after != before {
		t.Error("a refused restore made a commit")
	}

	// A folder archived outside skillrepo, with no history of where it
	// came from, comes back flat.
	writeSkill(t, filepath.Join(l.Root, ".archive", "orphan-20260101000000"), "orphan")
	if _, err := l.Sync(ctx, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := person(l).Restore(ctx, RestoreOptions{Name: "orphan"})
	if err != nil {
		t.Fatal(err)
	}
	if r.To != "orphan" || !r.Guessed {
		t.Errorf("restore of an orphan = %+v", r)
	}
	assertConsistent(t, l, env)
}

func TestMoveDirs(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	res, err := l.update(ctx, updateOptions{}, func(tx *writeTx) error {
		hashes, err := tx.dirHashes([]string{"ci-debugging", "writing/release-notes", "nope"})
		if err != nil {
			return err
		}
		if len(hashes) != 2 || hashes["ci-debugging"].IsZero() {
			t.Errorf("dir hashes = %v", hashes)
		}
		if err := tx.moveDirs([]Move{{From: "ci-debugging", To: ".archive/ci-debugging"}, {From: "nope", To: ".archive/nope"}}); !errors.Is(err, ErrNotFound) {
			t.Errorf("move of a missing folder: %v", err)
		}
		if err := tx.moveDirs([]Move{{From: "ci-debugging", To: "writing/release-notes"}}); !errors.Is(err, ErrExists) {
			t.Errorf("move onto a taken folder: %v", err)
		}
		if err := tx.moveDirs([]Move{
			{From: "ci-debugging", To: ".archive/ci-debugging"},
			{From: "writing/release-notes", To: ".archive/release-notes"},
		}); err != nil {
			return err
		}
		_, err = tx.Commit(Message{Subject: "archive two"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		".archive/ci-debugging/SKILL.md", ".archive/ci-debugging/references/common-failures.md",
		".archive/ci-debugging/scripts/rerun-failed.sh", ".archive/release-notes/SKILL.md",
		".archive/release-notes/references/style.md", ".archive/release-notes/templates/release-notes.md",
		"ci-debugging/SKILL.md", "ci-debugging/references/common-failures.md",
		"ci-debugging/scripts/rerun-failed.sh", "writing/release-notes/SKILL.md",
		"writing/release-notes/references/style.md", "writing/release-notes/templates/release-notes.md",
	}
	if got := strings.Join(res.Paths, " "); got != strings.Join(want, " ") {
		t.Errorf("paths = %s", got)
	}
	assertConsistent(t, l, env)
	if ls := gitCmd(t, l, env, "ls-files", "-s", ".archive/ci-debugging/scripts/rerun-failed.sh"); !strings.HasPrefix(ls, "100755") {
		t.Errorf("mode lost in the move: %s", ls)
	}
	if st := gitCmd(t, l, env, "show", "--stat", "-M", "--format=", "HEAD"); !strings.Contains(st, "=>") {
		t.Errorf("git does not see renames:\n%s", st)
	}
}

func TestArchivedName(t *testing.T) {
	for in, want := range map[string]string{
		".archive/foo":                  "foo",
		".archive/foo-20260601120000":   "foo",
		".archive/foo-20260601120000-3": "foo",
		".archive/foo-2026":             "foo-2026",
		".archive/v-1-2":                "v-1-2",
	} {
		if got := ArchivedName(in); got != want {
			t.Errorf("ArchivedName(%q) = %q, want %q", in, got, want)
		}
	}
}

func writeSkill(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\nname: " + name + "\ndescription: Written by hand.\n---\n\nBody.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMoveRenamesWorkTreeFiles(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	before, err := os.Stat(filepath.Join(l.Root, "ci-debugging/references/common-failures.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The user deleted one file of the skill: the move still lands it
	// from the object store.
	if err := os.Remove(filepath.Join(l.Root, "ci-debugging/scripts/rerun-failed.sh")); err != nil {
		t.Fatal(err)
	}
	if _, err := person(l).Archive(ctx, ArchiveOptions{Name: "ci-debugging"}); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(filepath.Join(l.Root, ".archive/ci-debugging/references/common-failures.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("a moved file was rewritten instead of renamed")
	}
	fi, err := os.Stat(filepath.Join(l.Root, ".archive/ci-debugging/scripts/rerun-failed.sh"))
	if err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("file deleted by the user was not restored executable: %v %v", fi, err)
	}
	assertConsistent(t, l, env)
}

func TestMergeTip(t *testing.T) {
	l, env := newTestLibrary(t)
	ctx := context.Background()
	base, _ := l.repo.ResolveBranch("main")
	patch := func(branch, old, nu string) Hash {
		t.Helper()
		res, err := l.apply(ctx, applyOptions{Branch: branch, From: base.String(), Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: &old, NewString: &nu}}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Commit
	}
	side := patch("side", "Pitfalls", "Traps")
	patch("main", "first** error", "first** failing line")

	merge := func(tip Hash) ([]string, error) {
		var got []string
		_, err := l.update(ctx, updateOptions{}, func(tx *writeTx) error {
			pcs, err := tx.mergeTip(base, tip, "side")
			if err != nil || len(pcs) > 0 {
				for _, pc := range pcs {
					got = append(got, pc.Path)
				}
				return errors.New("conflict")
			}
			_, err = tx.Commit(Message{Subject: "merge side"})
			return err
		})
		return got, err
	}
	if got, err := merge(side); err != nil {
		t.Fatalf("clean merge: %v %v", got, err)
	}
	assertConsistent(t, l, env)
	if out := gitCmd(t, l, env, "show", "main:ci-debugging/SKILL.md"); !strings.Contains(out, "Traps") || !strings.Contains(out, "failing line") {
		t.Errorf("merged file lacks a side:\n%s", out)
	}
	if parents := strings.Fields(gitCmd(t, l, env, "log", "-1", "--format=%P")); len(parents) != 2 || parents[1] != side.String() {
		t.Errorf("merge parents = %v", parents)
	}

	clash := patch("clash", "first** error", "first** bad line")
	tip, _ := l.repo.ResolveBranch("main")
	got, err := merge(clash)
	if err == nil || len(got) != 1 || got[0] != "ci-debugging/SKILL.md" {
		t.Errorf("conflicting merge: %v %v", got, err)
	}
	if now, _ := l.repo.ResolveBranch("main"); now != tip {
		t.Error("a conflicting merge moved main")
	}
}
