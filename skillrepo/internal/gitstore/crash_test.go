package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testenv"
)

// TestCrashAtEveryStep stops a two-file write at each step of the write
// ordering, as kill -9 would, then opens the library again: recovery must
// leave the branch, index and work tree in agreement (the old state or the
// new one), git fsck clean, and a user's edit made after the crash intact.
func TestCrashAtEveryStep(t *testing.T) {
	steps := []struct {
		step      string
		committed bool // the ref moved before the crash
	}{
		{"objects", false},
		{"intent", false},
		// The work tree and index are written before the ref moves: a
		// crash there is undone by recovery.
		{"file", false},
		{"index", false},
		{"ref", true},
	}
	for _, mode := range []string{"barrier", "file"} {
		for _, tt := range steps {
			t.Run(mode+"/"+tt.step, func(t *testing.T) {
				crashAtStep(t, newTestRepo, mode, tt.step, tt.committed)
			})
			// The same write on a library in a folder of a project, whose
			// own uncommitted edits must survive every crash (prefix_test.go).
			t.Run("prefix/"+mode+"/"+tt.step, func(t *testing.T) {
				crashAtStep(t, newPrefixTestRepo, mode, tt.step, tt.committed)
			})
		}
	}
}

// crashAtStep is one case of TestCrashAtEveryStep on a repository made by
// newRepo; mode "file" asks for per-file fsyncs instead of the syncfs
// barriers.
func crashAtStep(t *testing.T, newRepo func(*testing.T) (*Repo, map[string]string), mode, step string, committed bool) {
	l, env := newRepo(t)
	if mode == "file" {
		env["SKILLREPO_SYNC"] = "file"
	}
	head := gitCmd(t, l, env, "rev-parse", "HEAD")
	l.testOnlyCrashAt = step
	_, err := patchFiles(l,
		edit{"ci-debugging/SKILL.md", "Pitfalls", "Traps"},
		edit{"devops/docker-cleanup/SKILL.md", "Measure first", "Measure"},
	)
	if !errors.Is(err, errTestOnlyCrash) {
		t.Fatalf("err = %v, want the test crash", err)
	}
	// Nothing recovers in-process: open anew, as the next command.
	l.Close()
	l2 := openTestRepoAt(t, l.Root, l.Prefix, env)
	assertConsistent(t, l2, env)
	newHead := gitCmd(t, l2, env, "rev-parse", "HEAD")
	if moved := newHead != head; moved != committed {
		t.Errorf("HEAD moved = %v, want %v", moved, committed)
	}
	b, _ := os.ReadFile(filepath.Join(l2.Root, filepath.FromSlash(l2.RepoPath("ci-debugging/SKILL.md"))))
	if strings.Contains(string(b), "Traps") != committed {
		t.Errorf("work tree content does not match the branch")
	}
	if exists(l2.intentPath()) || !dirEmpty(filepath.Join(l2.repoStateDir(), "tmp")) {
		t.Errorf("recovery left its records behind")
	}
}

// TestCrashRecoveryKeepsLaterUserEdit: the write crashed before its ref
// moved, with the work tree half written, and the user edited a touched
// file before the next command. Recovery must keep that edit.
func TestCrashRecoveryKeepsLaterUserEdit(t *testing.T) {
	l, env := newTestRepo(t)
	l.testOnlyCrashAt = "file"
	_, err := patchFiles(l, edit{"ci-debugging/SKILL.md", "Pitfalls", "Traps"})
	if !errors.Is(err, errTestOnlyCrash) {
		t.Fatal(err)
	}
	l.Close()
	p := filepath.Join(l.Root, "ci-debugging", "SKILL.md")
	mine := []byte("---\nname: ci-debugging\ndescription: mine\n---\nmy version\n")
	if err := os.WriteFile(p, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	l2 := openTestRepo(t, l.Root, env)
	got, _ := os.ReadFile(p)
	if string(got) != string(mine) {
		t.Fatalf("recovery overwrote the user's edit:\n%s", got)
	}
	if st := gitCmd(t, l2, env, "status", "--porcelain"); st != " M ci-debugging/SKILL.md\n" {
		t.Errorf("status = %q, want the user's edit as a modification", st)
	}
	gitCmd(t, l2, env, "fsck", "--strict", "--no-progress")
}

// A record recovery cannot carry out (a file of the user's now stands
// where a folder of the interrupted write goes) never wedges the
// repository: recovery warns, naming the git command that sets the paths,
// drops the record, and the next write works.
func TestRecoveryNeverWedges(t *testing.T) {
	l, env := newTestRepo(t)
	l.testOnlyCrashAt = "ref"
	if _, err := writeFile(l, "main", "ci-debugging/deep/ours.md", "ours\n"); !errors.Is(err, errTestOnlyCrash) {
		t.Fatal(err)
	}
	l.Close()
	// The crash came after the work tree was written: the user replaces
	// our folder by a file of theirs, which recovery must not remove.
	p := filepath.Join(l.Root, "ci-debugging", "deep")
	os.RemoveAll(p)
	os.WriteFile(p, []byte("theirs\n"), 0o644)
	l2, err := Open(l.Root, openOpts(env))
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	var warned []string
	l2.warn = func(msg string) { warned = append(warned, msg) }
	if err := l2.Recover(context.Background()); err != nil {
		t.Fatalf("recovery: %v", err)
	}
	if exists(l2.intentPath()) {
		t.Error("the record stayed: every later command would retry it")
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "theirs\n" {
		t.Error("recovery removed the user's file")
	}
	wantHint := "git checkout HEAD -- ci-debugging/deep/ours.md"
	if len(warned) != 1 || !strings.Contains(warned[0], wantHint) {
		t.Errorf("warnings = %q, want one naming %q", warned, wantHint)
	}
	if _, err := writeFile(l2, "main", "ci-debugging/references/next.md", "next\n"); err != nil {
		t.Errorf("the next write: %v", err)
	}
	os.Remove(p)
	gitCmd(t, l2, env, "checkout", "HEAD", "--", "ci-debugging/deep/ours.md")
	assertConsistent(t, l2, env)
}

// FuzzIntentRecord: whatever .git/skillrepo/intent.json holds (a torn
// write, another program's file), recovery never panics, and leaves no
// record behind to fail every later command.
func FuzzIntentRecord(f *testing.F) {
	f.Add([]byte(`{"version":2,"ref":"refs/heads/main","old":"","new":"","checked_out":true,"paths":["a"]}`))
	f.Add([]byte(`{"version":2,"ref":"refs/heads/main","old":"0000000000000000000000000000000000000000","new":"1111111111111111111111111111111111111111","paths":["../../x"]}`))
	f.Add([]byte(`{"ref":`))
	env := testEnv(f)
	dir := filepath.Join(f.TempDir(), "lib")
	gitIn(f, "", env, false, "init", "-q", "-b", "main", dir)
	gitIn(f, dir, env, false, "commit", "-q", "--allow-empty", "-m", "start")
	l, err := Open(dir, openOpts(env))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { l.Close() })
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.MkdirAll(l.repoStateDir(), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(l.intentPath(), data, 0o644); err != nil {
			t.Fatal(err)
		}
		l.RecoverLocked()
		if exists(l.intentPath()) {
			t.Fatalf("the record %q stayed", data)
		}
	})
}

// An intent record that is not a regular file (a FIFO there) is not
// ours: recovery sets it aside at once instead of hanging on it.
func TestRecoveryNonRegularIntent(t *testing.T) {
	l, env := newTestRepo(t)
	if err := testenv.Mkfifo(l.intentPath()); err != nil {
		t.Skip(err)
	}
	var warned []string
	l.warn = func(msg string) { warned = append(warned, msg) }
	done := make(chan error, 1)
	go func() { done <- l.Recover(context.Background()) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("recovery hangs on a FIFO intent record")
	}
	if exists(l.intentPath()) || len(warned) != 1 || !strings.Contains(warned[0], "moved aside") {
		t.Errorf("record left, or warnings %q", warned)
	}
	assertConsistent(t, l, env)
}

// A write that records the work tree (sync, init's import) read its files
// from the work tree: crashed before its ref moved, recovery resets the
// index only. Putting the old version back in the files would erase the
// person's edit, and for a first commit delete every file it imported.
func TestCrashedRecordKeepsTheFiles(t *testing.T) {
	for _, step := range []string{"intent", "index"} {
		t.Run("edit/"+step, func(t *testing.T) {
			l, env := newTestRepo(t)
			p := filepath.Join(l.Root, "ci-debugging", "SKILL.md")
			mine := []byte("---\nname: ci-debugging\ndescription: mine\n---\nmy version\n")
			if err := os.WriteFile(p, mine, 0o644); err != nil {
				t.Fatal(err)
			}
			l.testOnlyCrashAt = step
			_, err := l.Update(context.Background(), UpdateOptions{Branch: "main", RecordsWorktree: true}, func(tx *Tx) error {
				if err := tx.WriteFile("ci-debugging/SKILL.md", mine, false); err != nil {
					return err
				}
				_, err := tx.Commit("sync")
				return err
			})
			if !errors.Is(err, errTestOnlyCrash) {
				t.Fatalf("err = %v, want the test crash", err)
			}
			l.Close()
			l2 := openTestRepo(t, l.Root, env)
			if got, _ := os.ReadFile(p); string(got) != string(mine) {
				t.Fatalf("recovery put the old version back over the recorded edit:\n%s", got)
			}
			if st := gitCmd(t, l2, env, "status", "--porcelain"); st != " M ci-debugging/SKILL.md\n" {
				t.Errorf("status = %q, want the edit as a modification, not yet recorded", st)
			}
			gitCmd(t, l2, env, "fsck", "--strict", "--no-progress")
		})
	}
	t.Run("first commit", func(t *testing.T) {
		env := testEnv(t)
		dir := filepath.Join(t.TempDir(), "lib")
		if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
			t.Fatal(err)
		}
		data := []byte("---\nname: a\ndescription: Use when testing.\n---\nbody\n")
		if err := os.WriteFile(filepath.Join(dir, "a", "SKILL.md"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn(t, dir, env, false, "init", "-q", "-b", "main")
		l := openTestRepo(t, dir, env)
		l.testOnlyCrashAt = "index"
		_, err := l.Update(context.Background(), UpdateOptions{Branch: "main", RecordsWorktree: true}, func(tx *Tx) error {
			if err := tx.WriteFile("a/SKILL.md", data, false); err != nil {
				return err
			}
			_, err := tx.Commit("import")
			return err
		})
		if !errors.Is(err, errTestOnlyCrash) {
			t.Fatalf("err = %v, want the test crash", err)
		}
		l.Close()
		l2 := openTestRepo(t, dir, env)
		if got, err := os.ReadFile(filepath.Join(dir, "a", "SKILL.md")); err != nil || string(got) != string(data) {
			t.Fatalf("recovery removed or changed the imported file: %v %q", err, got)
		}
		if st := gitCmd(t, l2, env, "status", "--porcelain"); st != "?? a/\n" {
			t.Errorf("status = %q, want the file untracked, as before the import", st)
		}
	})
}
