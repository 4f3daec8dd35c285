package gitstore

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testPrefix is where the prefix tests keep the library in the project.
const testPrefix = ".claude/skills"

// projectStatusWant is git status of the project made by newPrefixTestRepo
// after any write of the library: the project's own work in progress (a
// staged new file, an unstaged edit), never a path of the library's.
const projectStatusWant = "A  notes.txt\n M src/app.go\n"

// projectStatus is the git status a consistent repository shows: nothing
// for a library that is the whole repository, the project's own edits for
// a prefix library.
func projectStatus(l *Repo) string {
	if l.Prefix == "" {
		return ""
	}
	return projectStatusWant
}

// openTestRepoAt is openTestRepo for the library at prefix.
func openTestRepoAt(t *testing.T, dir, prefix string, env map[string]string) *Repo {
	t.Helper()
	o := openOpts(env)
	o.Prefix = prefix
	l, err := Open(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Recover(context.Background()); err != nil {
		l.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// newPrefixTestRepo makes a project with git (its files, a sibling of the
// library folder, one commit), imports the example files at testPrefix by
// one engine write, and leaves the project's work in progress: an edit of
// a tracked file and a staged new file.
func newPrefixTestRepo(t *testing.T) (*Repo, map[string]string) {
	t.Helper()
	env := testEnv(t)
	dir := filepath.Join(t.TempDir(), "proj")
	for p, c := range map[string]string{
		"src/app.go":            "package app\n",
		"README.md":             "# project\n",
		".claude/settings.json": "{}\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, env, false, "init", "-q", "-b", "main")
	gitIn(t, dir, env, false, "add", "-A")
	gitIn(t, dir, env, false, "commit", "-q", "-m", "project")
	libDir := filepath.Join(dir, filepath.FromSlash(testPrefix))
	if err := os.CopyFS(libDir, os.DirFS("../../example")); err != nil {
		t.Fatal(err)
	}
	l := openTestRepoAt(t, dir, testPrefix, env)
	_, err := l.Update(context.Background(), UpdateOptions{Branch: "main", RecordsWorktree: true, Reflog: "skillrepo: import"}, func(tx *Tx) error {
		if err := fs.WalkDir(os.DirFS(libDir), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			b, err := os.ReadFile(filepath.Join(libDir, p))
			if err != nil {
				return err
			}
			return tx.WriteFile(p, b, fi.Mode()&0o111 != 0)
		}); err != nil {
			return err
		}
		_, err := tx.Commit("import")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if err := os.WriteFile(filepath.Join(dir, "src", "app.go"), []byte("package app\n// work in progress\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("staged\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, env, false, "add", "notes.txt")
	return openTestRepoAt(t, dir, testPrefix, env), env
}

// A write on a prefix library changes only paths under the prefix: the
// project's other trees keep their hashes, its edits stay uncommitted and
// untouched, and the library reads its own paths.
func TestPrefixWriteKeepsProject(t *testing.T) {
	l, env := newPrefixTestRepo(t)
	before := gitCmd(t, l, env, "ls-tree", "HEAD")
	if _, err := patchFiles(l, edit{"ci-debugging/SKILL.md", "Pitfalls", "Traps"}); err != nil {
		t.Fatal(err)
	}
	assertConsistent(t, l, env)
	if got := gitCmd(t, l, env, "diff-tree", "-r", "--name-only", "--no-commit-id", "HEAD"); got != ".claude/skills/ci-debugging/SKILL.md\n" {
		t.Errorf("commit changed %q", got)
	}
	after := gitCmd(t, l, env, "ls-tree", "HEAD")
	for _, line := range strings.Split(strings.TrimSpace(before), "\n") {
		if strings.HasSuffix(line, "\t.claude") {
			continue // the library's parent folder: a new tree
		}
		if !strings.Contains(after, line+"\n") {
			t.Errorf("root entry changed: %s", line)
		}
	}
	if a, b := gitCmd(t, l, env, "rev-parse", "HEAD~1:.claude/settings.json"), gitCmd(t, l, env, "rev-parse", "HEAD:.claude/settings.json"); a != b {
		t.Errorf("sibling of the library changed: %s -> %s", a, b)
	}
	b, _ := os.ReadFile(filepath.Join(l.Root, "src", "app.go"))
	if string(b) != "package app\n// work in progress\n" {
		t.Errorf("project edit touched: %q", b)
	}
	got, err := readFileAt(l, "main", "ci-debugging/SKILL.md")
	if err != nil || !strings.Contains(string(got), "Traps") {
		t.Errorf("library read: %v %q", err, got)
	}
	files, err := l.ScanWorktree()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasPrefix(f.Path, ".claude") || f.Path == "notes.txt" || strings.HasPrefix(f.Path, "src/") {
			t.Errorf("scan listed %s outside the library (or with its repository path)", f.Path)
		}
	}
}

// An uncommitted edit under the prefix refuses a write of that path; one
// of the project's elsewhere does not.
func TestPrefixDirtyRefusal(t *testing.T) {
	l, env := newPrefixTestRepo(t)
	p := filepath.Join(l.Root, filepath.FromSlash(testPrefix), "ci-debugging", "SKILL.md")
	orig, _ := os.ReadFile(p)
	mine := append(append([]byte(nil), orig...), "my edit\n"...)
	if err := os.WriteFile(p, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	head := gitCmd(t, l, env, "rev-parse", "HEAD")
	_, err := patchFiles(l, edit{"ci-debugging/SKILL.md", "Pitfalls", "Traps"})
	var de *DirtyError
	if !errors.As(err, &de) || len(de.Paths) != 1 || de.Paths[0] != testPrefix+"/ci-debugging/SKILL.md" {
		t.Fatalf("err = %v, want a DirtyError naming the library file", err)
	}
	if gitCmd(t, l, env, "rev-parse", "HEAD") != head {
		t.Error("HEAD moved")
	}
	if got, _ := os.ReadFile(p); string(got) != string(mine) {
		t.Error("the edit was overwritten")
	}
	// A write elsewhere in the library goes through.
	if _, err := patchFiles(l, edit{"devops/docker-cleanup/SKILL.md", "Measure first", "Measure"}); err != nil {
		t.Fatal(err)
	}
	if st := gitCmd(t, l, env, "status", "--porcelain"); st != " M .claude/skills/ci-debugging/SKILL.md\nA  notes.txt\n M src/app.go\n" {
		t.Errorf("status = %q", st)
	}
}

// The index write keeps a git add that ran during ours, on a prefix
// library as on a root one.
func TestPrefixIndexWriteKeepsConcurrentGitAdd(t *testing.T) {
	l, env := newPrefixTestRepo(t)
	if err := os.WriteFile(filepath.Join(l.Root, "more.txt"), []byte("staged by the user\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l.testOnlyBeforeIndexLock = func() { gitCmd(t, l, env, "add", "more.txt") }
	writeSome(t, l, "while-git-adds")
	l.testOnlyBeforeIndexLock = nil
	if got := gitCmd(t, l, env, "status", "--porcelain"); got != "A  more.txt\nA  notes.txt\n M src/app.go\n" {
		t.Errorf("status: %q", got)
	}
	gitCmd(t, l, env, "fsck", "--strict", "--no-progress")
}

// Two libraries of one repository share the lock and the intent record
// (one index, one set of refs) and keep their own state folders.
func TestPrefixStateDirs(t *testing.T) {
	l, env := newPrefixTestRepo(t)
	other := openTestRepoAt(t, l.Root, ".agents/skills", env)
	root := openTestRepoAt(t, l.Root, "", env)
	dirs := map[string]bool{l.StateDir(): true, other.StateDir(): true, root.StateDir(): true}
	if len(dirs) != 3 || root.StateDir() != filepath.Join(l.GitDir, "skillrepo") {
		t.Errorf("state dirs %v", dirs)
	}
	if l.repoStateDir() != other.repoStateDir() {
		t.Error("the repository state is not shared")
	}
	unlock, err := l.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := writeFile(other, "main", "x/SKILL.md", "x\n"); !errors.Is(err, ErrLocked) {
		t.Errorf("a second library's write under the first's lock: %v, want ErrLocked", err)
	}
}

// A fast-forward of a prefix library to a commit that changes the
// project's files is refused: the work tree update would miss them.
func TestPrefixFastForwardOutsideRefused(t *testing.T) {
	l, env := newPrefixTestRepo(t)
	gitCmd(t, l, env, "branch", "side")
	gitCmd(t, l, env, "commit", "-q", "-m", "notes") // the staged notes.txt, on main
	tip := gitCmd(t, l, env, "rev-parse", "main")
	_, err := l.Update(context.Background(), UpdateOptions{Branch: "side"}, func(tx *Tx) error {
		to := NewHash(strings.TrimSpace(tip))
		tree, _, err := tx.Store().CommitInfo(to)
		if err != nil {
			return err
		}
		return tx.FastForward(to, tree, nil)
	})
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "outside the library folder") {
		t.Fatalf("err = %v", err)
	}
}
