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

	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/queue"
)

// TestWorkerKill kills the worker (SIGKILL) at random instants while it
// drains a queue of reviews, at least 30 times, then lets one finish:
// every entry ends done or failed (none lost), no review is merged twice,
// git fsck --strict passes and the work tree is clean (docs/agents.md). The seed is
// logged so a failure can be replayed.
func TestWorkerKill(t *testing.T) {
	bin, err := exec.LookPath("skillrepo")
	if err != nil {
		t.Skip("skillrepo test binary not on PATH")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	// Each review creates a skill, then answers; a review cut short and
	// run again takes the next replies, so the script is long.
	var replies []fakemodel.Reply
	for i := 0; i < 300; i++ {
		args, _ := json.Marshal(map[string]any{"operations": []map[string]any{{"action": "create", "name": fmt.Sprintf("learned-%03d", i),
			"content": fmt.Sprintf("---\nname: learned-%03d\ndescription: Use when lesson %d applies.\n---\n# Lesson %d\n\n1. Do the thing.\n", i, i, i)}}})
		replies = append(replies, fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{Name: "skill_manage", Arguments: args}}}, fakemodel.Reply{Content: "Saved."})
	}
	replies = append(replies, fakemodel.Reply{Content: "Nothing to save.", Times: -1})
	srv := fakemodel.Start(&fakemodel.Script{Replies: replies}, nil)
	defer srv.Close()

	home := t.TempDir()
	env := append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Kill", "GIT_AUTHOR_EMAIL=kill@example.com", "GIT_COMMITTER_NAME=Kill", "GIT_COMMITTER_EMAIL=kill@example.com",
		"SKILLREPO_LOCK_TIMEOUT=5s", "NO_COLOR=1", "SKILLREPO_LIBRARY=",
		"OPENAI_BASE_URL="+srv.BaseURL(), "OPENAI_API_KEY=k", "SKILLREPO_MODEL=test-model",
		"SKILLREPO_DEFER_QUIET=0s", "SKILLREPO_RETRY_BACKOFF=10ms", "SKILLREPO_MAX_ATTEMPTS=1000")
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	lib := filepath.Join(t.TempDir(), "lib")
	if out, err := run(bin, "init", "--example", lib); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	transcript := filepath.Join(t.TempDir(), "chat.json")
	if err := os.WriteFile(transcript, []byte(`[{"role":"user","content":"Install deps and run the tests."},{"role":"assistant","content":"Done: 42 tests pass."}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	store := queue.New(filepath.Join(lib, ".git", "skillrepo"))
	const entries = 40
	for i := 0; i < entries; i++ {
		if _, _, err := store.Enqueue(queue.Entry{Kind: queue.KindReview, SessionID: fmt.Sprintf("s-%02d", i), Transcript: transcript, Format: "openai", Due: queue.Due{Skills: true}}); err != nil {
			t.Fatal(err)
		}
	}

	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewSource(seed))
	t.Logf("seed %d", seed)
	for kill := 0; kill < 30; kill++ {
		cmd := exec.Command(bin, "-C", lib, "worker", "--once")
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+rng.Intn(300)) * time.Millisecond)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if out, err := run("git", "-C", lib, "fsck", "--strict", "--no-progress"); err != nil {
			t.Fatalf("kill %d: git fsck: %v\n%s", kill, err, out)
		}
	}
	if out, err := run(bin, "-C", lib, "worker", "--once"); err != nil {
		t.Fatalf("final worker: %v\n%s", err, out)
	}

	all, err := store.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != entries {
		t.Fatalf("%d entries left of %d", len(all), entries)
	}
	merges := map[string]int{}
	log, err := run("git", "-C", lib, "log", "--first-parent", "--format=%(trailers:key=Proposal-Id,valueonly,separator=%x2C)", "main")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range strings.Fields(log) {
		merges[id]++
	}
	attempts, recovered := 0, 0
	for _, e := range all {
		if e.State != queue.Done {
			t.Errorf("entry %s ended %s: %s", e.ID, e.State, e.LastError)
			if log, err := os.ReadFile(filepath.Join(lib, ".git", "skillrepo", "logs", "worker.log")); err == nil {
				t.Logf("worker log, lines of %s:\n%s", e.ID, grepLines(string(log), e.ID))
			}
			continue
		}
		landed := 0
		for _, id := range e.ReviewIDs {
			landed += merges[id]
		}
		if landed > 1 {
			t.Errorf("entry %s landed %d times (reviews %v)", e.ID, landed, e.ReviewIDs)
		}
		if e.Outcome.Merged && (landed != 1 || merges[e.ReviewID] != 1) {
			t.Errorf("entry %s says merged as %s, main has %d merges of its reviews", e.ID, e.ReviewID, landed)
		}
		attempts += len(e.ReviewIDs)
		if e.Outcome.Recovered {
			recovered++
		}
	}
	for id, n := range merges {
		if n > 1 {
			t.Errorf("proposal %s merged %d times", id, n)
		}
	}
	t.Logf("%d entries, %d attempts, %d recovered after a kill, %d merges", entries, attempts, recovered, len(merges))
	if out, err := run("git", "-C", lib, "status", "--porcelain"); err != nil || out != "" {
		t.Errorf("git status: %v\n%s", err, out)
	}
	if out, err := run("git", "-C", lib, "fsck", "--strict", "--no-progress"); err != nil {
		t.Errorf("git fsck: %v\n%s", err, out)
	}
}

// grepLines are the lines of text that contain s.
func grepLines(text, s string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
