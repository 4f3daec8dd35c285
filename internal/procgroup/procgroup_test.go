//go:build unix

package procgroup

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A cancelled command takes its children with it: a grandchild that
// holds the pipes open (as git-remote-http does under git) neither
// outlives the cancel nor keeps Wait waiting.
func TestCancelKillsTheGroup(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("process groups are unix's")
	}
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "sh", "-c", `sleep 300 & echo $! > "$0"; wait`, pidFile)
	var out strings.Builder
	cmd.Stdout = &out // a pipe the grandchild holds too
	Set(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var child int
	for deadline := time.Now().Add(10 * time.Second); child == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
			child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	if child == 0 {
		t.Fatal("the child never started")
	}
	cancel()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not return after cancel")
	}
	// The grandchild is gone (a zombie until init reaps it is gone too).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		err := syscall.Kill(child, 0)
		stat, _ := os.ReadFile("/proc/" + strconv.Itoa(child) + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the grandchild %d outlived the cancel", child)
		}
	}
}
