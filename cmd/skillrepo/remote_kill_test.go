package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/gitserver"
)

// TestRemoteSyncKill kills `remote sync` (SIGKILL) while its git fetch
// waits on a host that holds every request: the fetch and its
// git-remote-http end with it (issue 40 item 12: they ran on until the
// host answered), and the next sync, status and git fsck find a clean
// library.
func TestRemoteSyncKill(t *testing.T) {
	bin, env := killEnv(t, []string{"git", "sh"}, "SKILLREPO_WORKER=off")
	srv := gitserver.HTTP(t, gitserver.Options{})
	url := srv.Init(t, "skills.git")
	lib := filepath.Join(t.TempDir(), "lib")
	run := func(name string, args ...string) string {
		t.Helper()
		c := exec.Command(name, args...)
		c.Env = env
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	run(bin, "init", "--example", lib)
	run("git", "-C", lib, "remote", "add", "origin", url)
	run("git", "-C", lib, "push", "-q", "origin", "main")
	cfg := filepath.Join(lib, ".skillrepo", "config.yaml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(data, "remote:\n  main: both\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	run("git", "-C", lib, "commit", "-qam", "share main")
	for i := 0; i < 3; i++ {
		srv.SetDelay(time.Minute)
		sync := exec.Command(bin, "-C", lib, "remote", "sync")
		sync.Env = env
		if err := sync.Start(); err != nil {
			t.Fatal(err)
		}
		// The fetch's helper names the host's URL.
		for deadline := time.Now().Add(20 * time.Second); len(procsNaming(url)) == 0; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the sync's fetch never started")
			}
		}
		time.Sleep(time.Duration(i*100) * time.Millisecond)
		_ = sync.Process.Kill()
		_ = sync.Wait()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			left := append(procsNaming(url), procsNaming(" fetch --quiet --no-tags")...)
			if len(left) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("kill %d: still running after the sync was killed: %q", i, left)
			}
		}
		srv.SetDelay(0)
		run(bin, "-C", lib, "remote", "sync")
		if st := run("git", "-C", lib, "status", "--porcelain"); st != "" {
			t.Fatalf("kill %d: git status:\n%s", i, st)
		}
		run("git", "-C", lib, "fsck", "--strict", "--no-progress")
		run(bin, "-C", lib, "status")
	}
}

// procsNaming lists the live processes (not zombies) whose command line
// holds s.
func procsNaming(s string) []string {
	var out []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		cmdline := strings.ReplaceAll(string(b), "\x00", " ")
		if err != nil || !strings.Contains(cmdline, s) || strings.Contains(cmdline, "/proc/") {
			continue
		}
		if stat, _ := os.ReadFile(filepath.Join(d, "stat")); strings.Contains(string(stat), ") Z ") {
			continue
		}
		out = append(out, cmdline)
	}
	return out
}
