package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// commitBeside is a person's git commit on main, made while a write of
// ours runs: it changes person.txt and commits it (-a when all).
func commitBeside(l *Repo, env map[string]string, n int, all bool) error {
	if err := os.WriteFile(filepath.Join(l.Root, "person.txt"), []byte(strings.Repeat("x", n)+"\n"), 0o644); err != nil {
		return err
	}
	if !all {
		if err := gitTry(l, env, "add", "person.txt"); err != nil {
			return err
		}
		return gitTry(l, env, "commit", "-q", "-m", "person")
	}
	return gitTry(l, env, "commit", "-q", "-a", "-m", "person")
}

// TestUpdateLastAttemptHoldsIndexLock: a person whose git commit moves
// main under every optimistic attempt cannot starve a write. The last
// attempt holds index.lock from before it reads the branch, so the
// person's git commit -a during it is refused by git, and the write
// lands on top of every commit the person made.
func TestUpdateLastAttemptHoldsIndexLock(t *testing.T) {
	l, env := newTestRepo(t)
	if err := commitBeside(l, env, 1, false); err != nil {
		t.Fatal(err)
	}
	indexLock := filepath.Join(l.GitDir, "index.lock")
	var attempts, personCommits int
	var heldDuringLast bool
	var lastErr error
	res, err := l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
		attempts++
		// The person commits while this attempt builds its objects.
		err := commitBeside(l, env, attempts+1, true)
		if err == nil {
			personCommits++
		}
		if attempts == optimisticAttempts+1 {
			heldDuringLast, lastErr = exists(indexLock), err
		}
		if err := tx.WriteFile("load/ours.md", []byte("ours\n"), false); err != nil {
			return err
		}
		_, err = tx.Commit("write load/ours.md")
		return err
	})
	if err != nil {
		t.Fatalf("the write was starved: %v", err)
	}
	if attempts != optimisticAttempts+1 {
		t.Fatalf("fn ran %d times, want %d (every optimistic attempt lost, the held one won)", attempts, optimisticAttempts+1)
	}
	if !heldDuringLast || lastErr == nil {
		t.Errorf("last attempt: index.lock held = %v, person's commit -a err = %v; want held and refused", heldDuringLast, lastErr)
	}
	if personCommits != optimisticAttempts {
		t.Errorf("%d of the person's commits landed, want %d (one per optimistic attempt)", personCommits, optimisticAttempts)
	}
	// The write is on top of the person's commits, nothing of either lost.
	if got := strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "main")); got != res.New.String() {
		t.Errorf("main = %s, want the write's %s", got, res.New)
	}
	if got := gitCmd(t, l, env, "show", "main:person.txt"); got != strings.Repeat("x", optimisticAttempts+1)+"\n" {
		t.Errorf("person.txt on main = %q, want the person's last committed edit", got)
	}
	if got := gitCmd(t, l, env, "show", "main:load/ours.md"); got != "ours\n" {
		t.Errorf("load/ours.md on main = %q", got)
	}
	if exists(indexLock) || exists(l.intentPath()) {
		t.Error("index.lock or the intent record left behind")
	}
	// The person's refused edit is still in the work tree, uncommitted.
	if st := gitCmd(t, l, env, "status", "--porcelain"); st != " M person.txt\n" {
		t.Errorf("git status = %q, want the person's uncommitted edit only", st)
	}
	gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
}

// TestUpdateHeldAttemptLeavesNothing: when the held attempt stops before
// it lands (fn fails, or the process dies while building objects), the
// lock and its record are taken back: at once, or by the next command's
// recovery, which can prove the lock is ours.
func TestUpdateHeldAttemptLeavesNothing(t *testing.T) {
	indexLock := func(l *Repo) string { return filepath.Join(l.GitDir, "index.lock") }
	t.Run("fn fails", func(t *testing.T) {
		l, env := newTestRepo(t)
		attempts := 0
		boom := errors.New("fn failed")
		_, err := l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
			attempts++
			if attempts <= optimisticAttempts {
				if err := commitBeside(l, env, attempts, false); err != nil {
					return err
				}
				if err := tx.WriteFile("x.md", []byte("x\n"), false); err != nil {
					return err
				}
				_, err := tx.Commit("write x.md")
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) || attempts != optimisticAttempts+1 {
			t.Fatalf("err = %v after %d attempts, want fn's error on the held attempt", err, attempts)
		}
		if exists(indexLock(l)) || exists(l.intentPath()) {
			t.Error("index.lock or the intent record left behind")
		}
		if err := commitBeside(l, env, 9, true); err != nil {
			t.Errorf("git commit -a after the write: %v", err)
		}
	})
	t.Run("crash while building", func(t *testing.T) {
		l, env := newTestRepo(t)
		attempts := 0
		_, err := l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
			attempts++
			if attempts <= optimisticAttempts {
				if err := commitBeside(l, env, attempts, false); err != nil {
					return err
				}
			} else {
				l.testOnlyCrashAt = "objects"
			}
			if err := tx.WriteFile("x.md", []byte("x\n"), false); err != nil {
				return err
			}
			_, err := tx.Commit("write x.md")
			return err
		})
		if !errors.Is(err, errTestOnlyCrash) {
			t.Fatalf("err = %v, want the test crash", err)
		}
		if !exists(indexLock(l)) {
			t.Fatal("the crash left no index.lock: the held attempt did not hold it")
		}
		head := gitCmd(t, l, env, "rev-parse", "HEAD")
		l.Close()
		l2 := openTestRepo(t, l.Root, env)
		if exists(indexLock(l2)) || exists(l2.intentPath()) {
			t.Error("recovery left our index.lock or the intent record")
		}
		if got := gitCmd(t, l2, env, "rev-parse", "HEAD"); got != head {
			t.Errorf("HEAD moved in recovery: %s -> %s", head, got)
		}
		assertConsistent(t, l2, env)
	})
	t.Run("a git index.lock is never ours", func(t *testing.T) {
		l, env := newTestRepo(t)
		l.lockTimeout = 50 * time.Millisecond
		attempts := 0
		_, err := l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
			attempts++
			if err := commitBeside(l, env, attempts, false); err != nil {
				return err
			}
			if attempts == optimisticAttempts {
				// A git command takes index.lock before the held attempt.
				if err := os.WriteFile(indexLock(l), nil, 0o644); err != nil {
					return err
				}
			}
			if err := tx.WriteFile("x.md", []byte("x\n"), false); err != nil {
				return err
			}
			_, err := tx.Commit("write x.md")
			return err
		})
		if !errors.Is(err, ErrLocked) || attempts != optimisticAttempts {
			t.Fatalf("err = %v after %d attempts, want ErrLocked before a held attempt", err, attempts)
		}
		if !exists(indexLock(l)) {
			t.Error("a git command's index.lock was removed")
		}
		if exists(l.intentPath()) {
			t.Error("the intent record was left behind")
		}
	})
}
