package statefile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/testenv"
)

type state struct {
	Version int    `json:"version"`
	Name    string `json:"name"`
	Count   int    `json:"count"`
}

func testFile(dir string) File[state] {
	return File[state]{Path: filepath.Join(dir, "state.json"), Limit: 1 << 10, Version: 1, Perm: 0o600, Sync: true,
		Check: func(s *state) error {
			if s.Name == "" {
				return errors.New("no name")
			}
			return nil
		}}
}

// withTimeout runs fn and fails the test if it does not return in time: a
// FIFO opened for reading waits for a writer forever.
func withTimeout(t *testing.T, what string, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s hangs", what)
		return nil
	}
}

// TestRead: what Read makes of each kind of file in the state file's
// place, and that none of them is moved, changed or waited on.
func TestRead(t *testing.T) {
	tests := []struct {
		name string
		make func(p string) error
		// check says whether err is what the file should give.
		check func(err error) bool
		want  state
	}{
		{"missing", func(string) error { return nil },
			func(err error) bool { return errors.Is(err, fs.ErrNotExist) }, state{}},
		{"good", write(`{"version":1,"name":"a","count":2}`),
			func(err error) bool { return err == nil }, state{Version: 1, Name: "a", Count: 2}},
		{"older version", write(`{"name":"a"}`),
			func(err error) bool { return err == nil }, state{Name: "a"}},
		{"not json", write(`{"name":`),
			func(err error) bool { var ce *CorruptError; return errors.As(err, &ce) && ce.SetAside == "" }, state{}},
		{"not whole", write(`{"version":1,"count":3}`),
			func(err error) bool { var ce *CorruptError; return errors.As(err, &ce) }, state{}},
		{"version not a number", write(`{"version":"1","name":"a"}`),
			func(err error) bool { var ce *CorruptError; return errors.As(err, &ce) }, state{}},
		{"newer version", write(`{"version":2,"name":"a"}`),
			func(err error) bool { var ve *VersionError; return errors.As(err, &ve) && ve.Version == 2 }, state{}},
		{"too large", write(`{"name":"` + string(make([]byte, 2<<10)) + `"}`),
			func(err error) bool { var tl *boundedread.TooLargeError; return errors.As(err, &tl) }, state{}},
		{"fifo", func(p string) error { return testenv.Mkfifo(p) },
			func(err error) bool { var nr *boundedread.NotRegularError; return errors.As(err, &nr) }, state{}},
		{"link to a device", func(p string) error { return os.Symlink("/dev/zero", p) },
			func(err error) bool { var nr *boundedread.NotRegularError; return errors.As(err, &nr) }, state{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testFile(t.TempDir())
			if err := tt.make(f.Path); err != nil {
				t.Skip(err)
			}
			before, _ := os.Lstat(f.Path)
			var got state
			err := withTimeout(t, "Read", func() (err error) { got, err = f.Read(); return err })
			if !tt.check(err) {
				t.Fatalf("Read = %+v, %v", got, err)
			}
			if err == nil && got != tt.want {
				t.Errorf("Read = %+v, want %+v", got, tt.want)
			}
			after, _ := os.Lstat(f.Path)
			if (before == nil) != (after == nil) || (before != nil && (before.Mode() != after.Mode() || before.Size() != after.Size())) {
				t.Errorf("Read changed the file: %v -> %v", before, after)
			}
		})
	}
}

func write(content string) func(string) error {
	return func(p string) error { return os.WriteFile(p, []byte(content), 0o644) }
}

// TestCorruptFileSetAside: Load moves a file that does not parse aside and
// says where; Update refuses it and leaves it, or with Reset sets it aside
// and starts afresh; a newer file is neither moved nor written over.
func TestCorruptFileSetAside(t *testing.T) {
	tests := []struct {
		name, op, content string
		reset, wantAside  bool
	}{
		{"load sets aside", "load", "{oops", false, true},
		{"update refuses", "update", "{oops", false, false},
		{"update with reset starts afresh", "update", "{oops", true, true},
		{"load keeps newer", "load", `{"version":9,"name":"x"}`, false, false},
		{"update keeps newer", "update", `{"version":9,"name":"x"}`, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testFile(t.TempDir())
			f.Reset = tt.reset
			if err := os.WriteFile(f.Path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			if tt.op == "load" {
				_, err = f.Load()
			} else {
				_, err = f.Update(func(s *state) error { s.Name, s.Version = "new", 1; return nil })
			}
			var ce *CorruptError
			switch {
			case tt.op == "update" && tt.reset && tt.wantAside:
				if got, rerr := f.Read(); err != nil || rerr != nil || got.Name != "new" {
					t.Fatalf("update = %v; then %+v, %v", err, got, rerr)
				}
			case err == nil || (tt.wantAside != (errors.As(err, &ce) && ce.SetAside != "")):
				t.Fatalf("%s = %v, want set aside %v", tt.op, err, tt.wantAside)
			}
			aside, _ := filepath.Glob(f.Path + ".corrupt-*")
			if (len(aside) == 1) != tt.wantAside {
				t.Fatalf("set aside: %v, want %v", aside, tt.wantAside)
			}
			kept := f.Path
			if tt.wantAside {
				kept = aside[0]
			}
			if b, _ := os.ReadFile(kept); string(b) != tt.content {
				t.Errorf("%s holds %q, want the file as it was", kept, b)
			}
		})
	}
}

// TestWriteRefusesNewerValue: a value of a version the code does not know
// is not written.
func TestWriteRefusesNewerValue(t *testing.T) {
	f := testFile(t.TempDir())
	var ve *VersionError
	if err := f.Write(state{Version: 2, Name: "x"}); !errors.As(err, &ve) {
		t.Fatalf("Write = %v, want a *VersionError", err)
	}
	if _, err := os.Stat(f.Path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the file was written: %v", err)
	}
}

// TestConcurrentUpdates: writers in goroutines and in another process's
// place (a second lock handle) lose no update; run under -race.
func TestConcurrentUpdates(t *testing.T) {
	f := testFile(t.TempDir())
	const writers, each = 8, 25
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if _, err := f.Update(func(s *state) error {
					s.Version, s.Name = 1, fmt.Sprint("writer ", w)
					s.Count++
					return nil
				}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	got, err := f.Read()
	if err != nil || got.Count != writers*each {
		t.Fatalf("count = %d, %v; want %d", got.Count, err, writers*each)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(f.Path), ".*.tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestLocks: a lock held by another (another open file, as another
// process holds it) is waited for or reported, never broken, and its file
// is neither removed nor written; a lock path that is a FIFO is refused
// at once.
func TestLocks(t *testing.T) {
	dir := t.TempDir()
	theirs := filepath.Join(dir, "theirs.lock")
	if err := os.WriteFile(theirs, []byte("pid 42\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	unlockTheirs, ok, err := TryLock(theirs)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if !Held(theirs) {
		t.Error("Held = false while the lock is held")
	}
	if Held(filepath.Join(dir, "nobody.lock")) {
		t.Error("Held = true for a missing lock")
	}
	if _, err := os.Stat(filepath.Join(dir, "nobody.lock")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("Held made a lock file")
	}
	if _, ok, err := TryLock(theirs); ok || err != nil {
		t.Errorf("TryLock of a held lock = %v, %v", ok, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := LockContext(ctx, theirs); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("LockContext of a held lock = %v", err)
	}
	got := make(chan struct{})
	go func() {
		unlock, err := Lock(theirs)
		if err != nil {
			t.Error(err)
		} else {
			unlock()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("Lock took a lock another holds")
	case <-time.After(50 * time.Millisecond):
	}
	unlockTheirs()
	unlockTheirs() // twice is harmless
	<-got
	if b, err := os.ReadFile(theirs); err != nil || string(b) != "pid 42\n" {
		t.Errorf("the lock file changed: %q, %v", b, err)
	}

	fifo := filepath.Join(dir, "fifo.lock")
	if err := testenv.Mkfifo(fifo); err != nil {
		t.Skip(err)
	}
	var nr *boundedread.NotRegularError
	if err := withTimeout(t, "Lock of a FIFO", func() error { _, err := Lock(fifo); return err }); !errors.As(err, &nr) {
		t.Errorf("Lock of a FIFO = %v, want a *boundedread.NotRegularError", err)
	}
}

// TestUpdateLockWait: with LockWait, an Update behind a held lock gives
// up in that time, writing nothing, and goes through once it is free.
func TestUpdateLockWait(t *testing.T) {
	f := testFile(t.TempDir())
	f.LockWait = 50 * time.Millisecond
	unlock, err := Lock(f.Path + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	err = withTimeout(t, "Update behind a held lock", func() error {
		_, err := f.Update(func(s *state) error { s.Name = "x"; return nil })
		return err
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Update behind a held lock = %v, want the wait to end", err)
	}
	if _, err := os.Stat(f.Path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the file was written: %v", err)
	}
	unlock()
	if s, err := f.Update(func(s *state) error { s.Name = "x"; return nil }); err != nil || s.Name != "x" {
		t.Fatalf("Update once free = %+v, %v", s, err)
	}
}
