package remote

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/gitserver"
)

// A remote sync's time limit ends git's helpers too (issue 40 item 12):
// against a host that holds every request, git-remote-http kept the
// pipes open and the sync ran past its limit; now the sync returns soon
// after its context ends and no helper of its fetch is left running.
func TestRemoteSyncTimeLimitEndsGitHelpers(t *testing.T) {
	srv := gitserver.HTTP(t, gitserver.Options{})
	s := newShared(t, srv, 1, bothMain())
	a := s.libs[0]
	srv.SetDelay(time.Minute)
	defer srv.SetDelay(0)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	if _, err := New(a).Sync(ctx, SyncOptions{}); err == nil {
		t.Fatal("a sync against a host that never answers succeeded")
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the sync took %s past a 2 s limit", took)
	}
	// No git-remote-http of this sync is left (its arguments name the
	// server's URL).
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := helpersOf(s.url)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("git helpers still running after the sync: %q", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// helpersOf lists the live processes (not zombies) whose command line
// names url.
func helpersOf(url string) []string {
	var out []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		cmdline, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !strings.Contains(string(cmdline), url) {
			continue
		}
		if stat, _ := os.ReadFile(filepath.Join(d, "stat")); strings.Contains(string(stat), ") Z ") {
			continue
		}
		out = append(out, strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return out
}
