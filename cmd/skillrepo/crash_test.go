package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCrashKill kills a writer process (SIGKILL) at random instants, many
// times over, and checks after each kill that the next command leaves a
// consistent library: it runs, git status is clean and git fsck --strict
// passes (docs/architecture.md §2: crash-safe). The seed is logged so a
// failure can be replayed. The prefix case runs the same writes on a
// library in a folder of a project whose own uncommitted edit must come
// through every kill untouched (docs/project-libraries.md).
func TestCrashKill(t *testing.T) {
	t.Run("root", func(t *testing.T) { crashKill(t, false) })
	t.Run("prefix", func(t *testing.T) { crashKill(t, true) })
}

func crashKill(t *testing.T, prefix bool) {
	bin, env := killEnv(t, []string{"git"}, "SKILLREPO_LOCK_TIMEOUT=5s")
	lib := filepath.Join(t.TempDir(), "lib")
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// wantStatus is git status after every command: nothing, or the
	// project's own edit.
	wantStatus, repo := "", lib
	if prefix {
		repo = filepath.Join(t.TempDir(), "proj")
		lib = filepath.Join(repo, ".claude", "skills")
		if err := os.MkdirAll(filepath.Join(repo, "src"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "src", "app.go"), []byte("package app\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"init", "-q", "-b", "main", repo}, {"-C", repo, "add", "-A"}, {"-C", repo, "commit", "-q", "-m", "project"}} {
			if out, err := run("git", args...); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		if err := os.WriteFile(filepath.Join(repo, "src", "app.go"), []byte("package app\n// wip\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		wantStatus = " M src/app.go\n"
	}
	if out, err := run(bin, "init", "--example", lib); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewSource(seed))
	t.Logf("seed %d", seed)
	kills := 60
	if testing.Short() {
		kills = 15
	}
	if prefix {
		kills /= 2
	}
	writes := [][]string{
		{"skill", "patch", "ci-debugging", "--old", "Pitfalls", "--new", "Traps"},
		{"skill", "patch", "ci-debugging", "--old", "Traps", "--new", "Pitfalls"},
		{"skill", "write-file", "docker-cleanup", "references/notes.md", "--content-file", "-"},
		{"skill", "remove-file", "docker-cleanup", "references/notes.md"},
	}
	landed := 0
	for i := 0; i < kills; i++ {
		args := append([]string{"-C", lib}, writes[i%len(writes)]...)
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Stdin = strings.NewReader(fmt.Sprintf("note %d\n", i))
		before, _ := run("git", "-C", repo, "rev-parse", "HEAD")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Intn(40000)) * time.Microsecond)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()

		// The next command recovers; then everything must agree.
		if out, err := run(bin, "-C", lib, "skill", "list"); err != nil {
			t.Fatalf("kill %d: next command failed: %v\n%s", i, err, out)
		}
		if st, err := run("git", "-C", repo, "status", "--porcelain"); err != nil || st != wantStatus {
			t.Fatalf("kill %d (%s): git status not clean: %v\n%s", i, strings.Join(writes[i%len(writes)], " "), err, st)
		}
		if out, err := run("git", "-C", repo, "fsck", "--strict", "--no-progress"); err != nil {
			t.Fatalf("kill %d: git fsck: %v\n%s", i, err, out)
		}
		if after, _ := run("git", "-C", repo, "rev-parse", "HEAD"); after != before {
			landed++
		}
	}
	t.Logf("%d kills, %d of them after the ref moved", kills, landed)
}

// TestInitKill kills init at random instants; init run again must succeed
// from whatever state it left, with git fsck clean and no temp file of its
// own in the commit.
func TestInitKill(t *testing.T) {
	bin, env := killEnv(t, []string{"git"})
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewSource(seed))
	t.Logf("seed %d", seed)
	kills := 12
	if testing.Short() {
		kills = 4
	}
	for i := 0; i < kills; i++ {
		lib := filepath.Join(t.TempDir(), "lib")
		for j := 0; j < 30; j++ {
			d := filepath.Join(lib, fmt.Sprintf("skill-%02d", j))
			os.MkdirAll(d, 0o755)
			os.WriteFile(filepath.Join(d, "SKILL.md"), []byte(fmt.Sprintf("---\nname: skill-%02d\ndescription: Use when testing init kills.\n---\nbody\n", j)), 0o644)
		}
		cmd := exec.Command(bin, "init", lib)
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Intn(60000)) * time.Microsecond)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		again := exec.Command(bin, "init", lib)
		again.Env = env
		if out, err := again.CombinedOutput(); err != nil {
			t.Fatalf("kill %d: init again: %v\n%s", i, err, out)
		}
		for _, args := range [][]string{{"fsck", "--strict", "--no-progress"}, {"status", "--porcelain"}, {"ls-tree", "-r", "--name-only", "HEAD"}} {
			c := exec.Command("git", append([]string{"-C", lib}, args...)...)
			c.Env = env
			out, err := c.CombinedOutput()
			if err != nil {
				t.Fatalf("kill %d: git %v: %v\n%s", i, args, err, out)
			}
			if args[0] == "status" && len(out) != 0 {
				t.Fatalf("kill %d: status not clean:\n%s", i, out)
			}
			if args[0] == "ls-tree" && (strings.Contains(string(out), ".tmp-") || !strings.Contains(string(out), "skill-29/SKILL.md")) {
				t.Fatalf("kill %d: committed tree:\n%s", i, out)
			}
		}
	}
}

// TestCuratorKill kills `curator run` (SIGKILL) at random instants of the
// whole run, its landing included (the run record, the merge's engine
// write, what follows it), on a fresh copy of one library each time. The
// next commands must find a consistent library: `skill list` runs, git
// status is clean, git fsck --strict passes. When the kill left the merge
// on main, `curator status` names the run and `curator rollback` puts
// main's tree back as it was before the run; either way the next run
// drops the branch the killed one left (and lands the work when the
// killed run had not).
func TestCuratorKill(t *testing.T) {
	bin, env := killEnv(t, []string{"git", "cp"}, "SKILLREPO_LOCK_TIMEOUT=5s", "SKILLREPO_WORKER=off")
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(what string, name string, args ...string) string {
		t.Helper()
		out, err := run(name, args...)
		if err != nil {
			t.Fatalf("%s: %s %v: %v\n%s", what, name, args, err, out)
		}
		return out
	}
	// Three skills an agent made, unused for weeks: a run archives two
	// and marks one stale (a merge of two commits).
	tmpl := filepath.Join(t.TempDir(), "lib")
	files := map[string]string{
		".usage.json": `{
  "alpha": {"created_by": "agent", "use_count": 4, "last_used_at": "2026-10-20T12:00:00+00:00", "state": "active"},
  "beta": {"created_by": "agent", "use_count": 2, "last_used_at": "2026-11-10T12:00:00+00:00", "state": "active"},
  "gamma": {"created_by": "agent", "use_count": 1, "last_used_at": "2025-01-01T00:00:00+00:00", "state": "active"}
}
`,
		"ops/alpha/references/notes.md": "Alpha notes.\n",
	}
	for _, s := range []string{"ops/alpha", "beta", "gamma"} {
		name := filepath.Base(s)
		files[s+"/SKILL.md"] = fmt.Sprintf("---\nname: %s\ndescription: Use when %s.\n---\n%s steps.\n", name, name, name)
	}
	for p, c := range files {
		full := filepath.Join(tmpl, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must("init", bin, "init", tmpl)
	const now, id = "2026-12-01T12:00:00Z", "20261201-120000"
	fresh := func() string {
		dir := filepath.Join(t.TempDir(), "lib")
		must("copy", "cp", "-a", tmpl, dir)
		return dir
	}
	// One whole run first: how long the kills may wait, and proof that
	// the run lands something.
	lib := fresh()
	start := time.Now()
	must("a whole run", bin, "-C", lib, "--now", now, "curator", "run")
	whole := time.Since(start)
	if out := must("diff", "git", "-C", lib, "diff", "--name-only", "main^1", "main"); !strings.Contains(out, ".archive/alpha/SKILL.md") {
		t.Fatalf("the run archived nothing:\n%s", out)
	}

	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewSource(seed))
	t.Logf("seed %d, a whole run %v", seed, whole)
	kills := 12
	if testing.Short() {
		kills = 4
	}
	landed := 0
	for i := 0; i < kills; i++ {
		lib := fresh()
		pre := strings.TrimSpace(must("rev-parse", "git", "-C", lib, "rev-parse", "main"))
		cmd := exec.Command(bin, "-C", lib, "--now", now, "curator", "run")
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// From a third of a whole run on: the landing is at its end
		// (TestCrashKill covers the writes' own instants).
		time.Sleep(whole/3 + time.Duration(rng.Int63n(int64(whole)*11/12)))
		_ = cmd.Process.Kill()
		_ = cmd.Wait()

		must(fmt.Sprintf("kill %d: the next command", i), bin, "-C", lib, "skill", "list")
		if st := must("status", "git", "-C", lib, "status", "--porcelain"); st != "" {
			t.Fatalf("kill %d: git status not clean:\n%s", i, st)
		}
		must(fmt.Sprintf("kill %d: fsck", i), "git", "-C", lib, "fsck", "--strict", "--no-progress")
		var status struct {
			LastRunID string `json:"last_run_id"`
		}
		if err := json.Unmarshal([]byte(must("curator status", bin, "-C", lib, "curator", "status", "--json")), &status); err != nil {
			t.Fatalf("kill %d: curator status --json: %v", i, err)
		}
		main := strings.TrimSpace(must("rev-parse", "git", "-C", lib, "rev-parse", "main"))
		if main != pre {
			landed++
			if status.LastRunID != id {
				t.Errorf("kill %d: the merge is on main, curator status says the last run is %q", i, status.LastRunID)
			}
			must(fmt.Sprintf("kill %d: rollback of the landed run", i), bin, "-C", lib, "curator", "rollback", id)
			if diff := must("diff", "git", "-C", lib, "diff", "--stat", pre, "main"); diff != "" {
				t.Errorf("kill %d: main after the rollback differs from before the run:\n%s", i, diff)
			}
		}
		// The next run deletes whatever branch the killed one left; it
		// does the work when the killed run did not land (a rolled-back
		// run's skills are not archived again).
		must(fmt.Sprintf("kill %d: the next run", i), bin, "-C", lib, "--now", "2026-12-01T12:01:00Z", "curator", "run")
		if out := must("diff", "git", "-C", lib, "diff", "--name-only", pre, "main"); main == pre && !strings.Contains(out, ".archive/alpha/SKILL.md") {
			t.Errorf("kill %d: the next run archived nothing:\n%s", i, out)
		}
		if b := must("branches", "git", "-C", lib, "branch", "--list", "curator/*"); b != "" {
			t.Errorf("kill %d: branches left: %s", i, b)
		}
		if st := must("status", "git", "-C", lib, "status", "--porcelain"); st != "" {
			t.Fatalf("kill %d: git status after the rollback or the next run:\n%s", i, st)
		}
		must(fmt.Sprintf("kill %d: fsck at the end", i), "git", "-C", lib, "fsck", "--strict", "--no-progress")
	}
	t.Logf("%d kills, %d of them after the merge reached main", kills, landed)
}

// killEnv is what the kill tests share: the skillrepo binary testscript's
// TestMain put on PATH (the test skips without it, or without one of
// needs), and an environment of a temporary home with a git identity and
// no system config, plus extra.
func killEnv(t *testing.T, needs []string, extra ...string) (bin string, env []string) {
	t.Helper()
	bin, err := exec.LookPath("skillrepo")
	if err != nil {
		t.Skip("skillrepo test binary not on PATH")
	}
	for _, n := range needs {
		if _, err := exec.LookPath(n); err != nil {
			t.Skip(n + " not on PATH")
		}
	}
	home := t.TempDir()
	env = append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Crash", "GIT_AUTHOR_EMAIL=crash@example.com",
		"GIT_COMMITTER_NAME=Crash", "GIT_COMMITTER_EMAIL=crash@example.com", "NO_COLOR=1")
	return bin, append(env, extra...)
}
