package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// splitTestRepo is a library with 150 more files (bulk/), committed by git
// so that the shared index has runs of entries longer than one bitmap
// word, then set up by setup with real git commands.
func splitTestRepo(t *testing.T, setup string) (*Repo, map[string]string) {
	t.Helper()
	l, env := newTestRepo(t)
	for i := 0; i < 150; i++ {
		p := filepath.Join(l.Root, "bulk", fmt.Sprintf("f%03d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("bulk %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Files older than the index, so that git keeps none as racily
	// clean in .git/index itself.
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(l.Root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.Contains(p, "/.git/") {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	gitCmd(t, l, env, "add", "-A")
	gitCmd(t, l, env, "commit", "-q", "-m", "bulk")
	if setup != "" {
		cmd := exec.Command("sh", "-c", setup)
		cmd.Dir = l.Root
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("setup %q: %v\n%s", setup, err, out)
		}
	}
	return openTestRepo(t, l.Root, env), env
}

func isSplit(t *testing.T, l *Repo) bool {
	t.Helper()
	b, err := os.ReadFile(l.indexPath())
	if err != nil {
		t.Fatal(err)
	}
	_, link, err := decodeIndexFile(b)
	if err != nil {
		t.Fatal(err)
	}
	return link != nil
}

func sharedIndexFiles(t *testing.T, l *Repo) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(l.GitDir, "sharedindex.*"))
	sort.Strings(m)
	return m
}

// ourEntries is what our reader sees: "mode hash stage\tname" lines, as
// git ls-files -s prints them.
func ourEntries(t *testing.T, l *Repo) string {
	t.Helper()
	l.indexCache = nil
	idx, _, err := l.ReadIndex()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range idx.offs {
		e := idx.rawEntry(i)
		fmt.Fprintf(&b, "%06o %s %d\t%s\n", e.Mode, e.Hash, e.stage(), e.Name)
	}
	return b.String()
}

// checkSplitState checks what git and we see after a write: the same
// entries, a clean status, a sound repository, and git can unsplit the
// index and commit on top.
func checkSplitState(t *testing.T, l *Repo, env map[string]string) {
	t.Helper()
	gitLs := gitCmd(t, l, env, "ls-files", "-s")
	if got := ourEntries(t, l); got != gitLs {
		t.Errorf("our entries differ from git's:\nours\n%s\ngit\n%s", got, gitLs)
	}
	assertConsistent(t, l, env)
	debug := withoutUpdateInBase(gitCmd(t, l, env, "ls-files", "-s", "--debug"))
	// git reads the same entries, stat data included, once it has
	// written the index whole.
	gitCmd(t, l, env, "update-index", "--no-split-index")
	if got := withoutUpdateInBase(gitCmd(t, l, env, "ls-files", "-s", "--debug")); got != debug {
		t.Errorf("entries changed when git unsplit the index:\nbefore\n%s\nafter\n%s", debug, got)
	}
	if isSplit(t, l) {
		t.Error("git update-index --no-split-index left the index split")
	}
	gitCmd(t, l, env, "update-index", "--split-index")
	if err := os.WriteFile(filepath.Join(l.Root, "bulk", "by-git.md"), []byte("git\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, l, env, "add", "bulk/by-git.md")
	gitCmd(t, l, env, "commit", "-q", "-m", "git after us")
	if st := gitCmd(t, l, env, "status", "--porcelain"); st != "" {
		t.Errorf("status after git's commit:\n%s", st)
	}
	// And we read what git wrote after us, and write again.
	if _, err := writeFile(l, "main", "bulk/f001.md", "after git\n"); err != nil {
		t.Fatalf("write after git: %v", err)
	}
	assertConsistent(t, l, env)
	if got, want := ourEntries(t, l), gitCmd(t, l, env, "ls-files", "-s"); got != want {
		t.Errorf("after git, our entries differ:\nours\n%s\ngit\n%s", got, want)
	}
}

var debugFlags = regexp.MustCompile(`flags: ([0-9a-f]+)`)

// withoutUpdateInBase clears git's in-memory mark of an entry replaced in
// a split index (CE_UPDATE_IN_BASE, 1<<27), which ls-files --debug shows.
func withoutUpdateInBase(s string) string {
	return debugFlags.ReplaceAllStringFunc(s, func(m string) string {
		v, _ := strconv.ParseUint(m[len("flags: "):], 16, 32)
		return "flags: " + strconv.FormatUint(v&^(1<<27), 16)
	})
}

func removeFiles(l *Repo, paths ...string) error {
	_, err := l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
		for _, p := range paths {
			if err := tx.Remove(p); err != nil {
				return err
			}
		}
		_, err := tx.Commit("remove")
		return err
	})
	return err
}

func writeMany(l *Repo, n int) error {
	_, err := l.Update(context.Background(), UpdateOptions{Branch: "main"}, func(tx *Tx) error {
		for i := 0; i < n; i++ {
			if err := tx.WriteFile(fmt.Sprintf("many/m%03d.md", i), []byte(fmt.Sprintf("many %d\n", i)), false); err != nil {
				return err
			}
		}
		_, err := tx.Commit("many")
		return err
	})
	return err
}

// Our writes through an index git split: it stays split (or is written
// whole when core.splitIndex=false, or split when it is true), git reads
// what we wrote, and we read what git writes after us.
func TestSplitIndexWrites(t *testing.T) {
	replaceF010 := func(l *Repo) error {
		_, err := writeFile(l, "main", "bulk/f010.md", "replaced\n")
		return err
	}
	cases := []struct {
		name      string
		setup     string
		write     func(l *Repo) error
		wantSplit bool
		// newShared: the write made a new shared index.
		newShared bool
	}{
		{"replace", "git update-index --split-index", replaceF010, true, false},
		{"add", "git config core.splitIndex true && echo x > bulk/new-by-git.md && git add bulk && git commit -q -m x", func(l *Repo) error {
			_, err := writeFile(l, "main", "bulk/f010a.md", "added\n")
			return err
		}, true, false},
		{"delete", "git update-index --split-index", func(l *Repo) error { return removeFiles(l, "bulk/f020.md", "bulk/f021.md") }, true, false},
		{"replace after git replaced and deleted", "git update-index --split-index && echo y > bulk/f030.md && git rm -q bulk/f031.md && git commit -qam y", func(l *Repo) error {
			_, err := writeFile(l, "main", "bulk/f030.md", "ours\n")
			return err
		}, true, false},
		// git deletes 100 consecutive entries: its delete bitmap holds a
		// run of ones longer than a word.
		{"long runs", "git update-index --split-index && git rm -q 'bulk/f0*' && git commit -qm rm", func(l *Repo) error {
			_, err := writeFile(l, "main", "bulk/f120.md", "ours\n")
			return err
		}, true, false},
		{"many changes cross maxPercentChange", "git update-index --split-index", func(l *Repo) error { return writeMany(l, 60) }, true, true},
		{"maxPercentChange 0", "git config splitIndex.maxPercentChange 0 && git update-index --split-index", replaceF010, true, true},
		{"core.splitIndex true splits", "git config core.splitIndex true", replaceF010, true, true},
		{"core.splitIndex false unsplits", "git update-index --split-index && git config core.splitIndex false", replaceF010, false, false},
		// git adds a path after every shared entry, then the index is
		// written whole: the shared index's last entry and the added one
		// lie in two buffers (Index.more) and must not be copied as one
		// range.
		{"added after the last shared entry, unsplit", "git update-index --split-index && echo z > zz-last.md && git add zz-last.md && git commit -q -m z && git config core.splitIndex false", replaceF010, false, false},
		{"added after the last shared entry, new shared index", "git update-index --split-index && echo z > zz-last.md && git add zz-last.md && git commit -q -m z && git config splitIndex.maxPercentChange 0", replaceF010, true, true},
		{"version 4", "git update-index --index-version 4 && git update-index --split-index && echo z > bulk/f040.md && git commit -qam z", func(l *Repo) error {
			if _, err := writeFile(l, "main", "bulk/f041.md", "v4\n"); err != nil {
				return err
			}
			return removeFiles(l, "bulk/f042.md")
		}, true, false},
		{"version 3 skip-worktree", "git update-index --index-version 3 && git update-index --split-index && git update-index --skip-worktree bulk/f050.md", func(l *Repo) error {
			_, err := writeFile(l, "main", "bulk/f051.md", "v3\n")
			return err
		}, true, false},
		{"unset stays unsplit", "", replaceF010, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, env := splitTestRepo(t, c.setup)
			before := sharedIndexFiles(t, l)
			if err := c.write(l); err != nil {
				t.Fatalf("write: %v", err)
			}
			if got := isSplit(t, l); got != c.wantSplit {
				t.Fatalf("split after our write = %v, want %v", got, c.wantSplit)
			}
			after := sharedIndexFiles(t, l)
			for _, f := range before {
				if _, err := os.Stat(f); err != nil {
					t.Errorf("shared index %s removed: %v", f, err)
				}
			}
			if made := len(after) > len(before); made != c.newShared {
				t.Errorf("new shared index = %v, want %v (before %v, after %v)", made, c.newShared, before, after)
			}
			if c.wantSplit {
				if fi, err := os.Stat(l.indexPath()); err != nil || fi.Size() > 8<<10 {
					t.Errorf("split .git/index is %v bytes (%v), want a small file", fi.Size(), err)
				}
			}
			checkSplitState(t, l, env)
		})
	}
}

// A split index whose shared index is gone: a clear error with the way
// out, and nothing written.
func TestSplitIndexMissingShared(t *testing.T) {
	l, _ := splitTestRepo(t, "git update-index --split-index")
	before, err := os.ReadFile(l.indexPath())
	if err != nil {
		t.Fatal(err)
	}
	head, _ := l.ResolveBranch("main")
	for _, f := range sharedIndexFiles(t, l) {
		os.Remove(f)
	}
	l.indexCache = nil
	_, err = writeFile(l, "main", "bulk/f010.md", "lost\n")
	var ie *IndexError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "sharedindex.") || !strings.Contains(ie.Hint(), "git reset") {
		t.Fatalf("err = %v, want an IndexError naming the shared index with a hint", err)
	}
	after, _ := os.ReadFile(l.indexPath())
	if !bytes.Equal(before, after) {
		t.Error("the index was rewritten")
	}
	if h, _ := l.ResolveBranch("main"); h != head {
		t.Error("the branch moved")
	}
	if b, _ := os.ReadFile(filepath.Join(l.Root, "bulk", "f010.md")); string(b) == "lost\n" {
		t.Error("the work tree was written")
	}
}

// init's suggestion: only for a large index git has not been told about.
func TestSplitIndexAdvice(t *testing.T) {
	dir := t.TempDir()
	env := testEnv(t)
	gitIn(t, dir, env, false, "init", "-q")
	var info strings.Builder
	for i := 0; i < splitIndexAdviceEntries; i++ {
		fmt.Fprintf(&info, "100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\tsrc/f%05d\n", i)
	}
	gitStdin(t, dir, env, info.String(), "update-index", "--add", "--index-info")
	l := openTestRepo(t, dir, env)
	if a := l.SplitIndexAdvice(); !strings.Contains(a, "core.splitIndex true") {
		t.Errorf("advice = %q", a)
	}
	gitIn(t, dir, env, false, "config", "core.splitIndex", "false")
	if a := l.SplitIndexAdvice(); a != "" {
		t.Errorf("advice with core.splitIndex set = %q", a)
	}
	gitIn(t, dir, env, false, "config", "--unset", "core.splitIndex")
	gitIn(t, dir, env, false, "update-index", "--split-index")
	l.indexCache = nil
	if a := l.SplitIndexAdvice(); a != "" {
		t.Errorf("advice with a split index = %q", a)
	}
}
