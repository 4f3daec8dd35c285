package main

import (
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
	bin, err := exec.LookPath("skillrepo")
	if err != nil {
		t.Skip("skillrepo test binary not on PATH")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	home := t.TempDir()
	env := append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Crash", "GIT_AUTHOR_EMAIL=crash@example.com",
		"GIT_COMMITTER_NAME=Crash", "GIT_COMMITTER_EMAIL=crash@example.com",
		"SKILLREPO_LOCK_TIMEOUT=5s", "NO_COLOR=1")
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
	bin, err := exec.LookPath("skillrepo")
	if err != nil {
		t.Skip("skillrepo test binary not on PATH")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	home := t.TempDir()
	env := append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Crash", "GIT_AUTHOR_EMAIL=crash@example.com",
		"GIT_COMMITTER_NAME=Crash", "GIT_COMMITTER_EMAIL=crash@example.com", "NO_COLOR=1")
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
