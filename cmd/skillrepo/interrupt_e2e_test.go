package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/agentsession"
	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/worker"
)

// TestNewTurnInterruptsReview: a review on a loopback endpoint (the
// agent's model on this machine, review.defer: auto) whose model call
// blocks is interrupted by the UserPromptSubmit hook, run as Claude Code
// runs it (its installed command, the event JSON on standard input): the
// worker ends the attempt and queues the review again, counting the
// interruptions; the fourth drops it, and the hooks log, the worker log
// and the entry say so (docs/reference-behaviour.md §2.7).
func TestNewTurnInterruptsReview(t *testing.T) {
	// Every model call blocks (a minute: longer than the test, short enough
	// that a failed run does not hang on the server's close).
	srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{{DelayMS: 60_000, Content: "late", Times: -1}}}, nil)
	defer srv.Close()
	s := newAgentSim(t, "OPENAI_BASE_URL="+srv.BaseURL(), "OPENAI_API_KEY=k", "SKILLREPO_MODEL=test-model",
		"SKILLREPO_DEFER_QUIET=1s", "SKILLREPO_WORKER_IDLE=1s")
	defer s.waitNoWorker()
	s.run("init", "--example", s.library)
	s.run("hooks", "install", "--claude-code")
	s.loadCommands()
	transcript := filepath.Join(s.home, ".claude", "projects", "-project", e2eSession+".jsonl")
	if err := os.MkdirAll(filepath.Dir(transcript), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(claudeTranscript(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(transcript, data, 0o644); err != nil {
		t.Fatal(err)
	}
	event := func(kv ...any) map[string]any {
		m := map[string]any{"transcript_path": transcript, "cwd": s.project}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	// The session ends: its final review is queued and a worker started.
	s.hook("SessionEnd", event("reason", "prompt_input_exit"))
	state := filepath.Join(s.library, ".git", "skillrepo")
	store := queue.New(state)
	entries, err := store.List()
	if err != nil || len(entries) != 1 {
		t.Fatalf("queue after SessionEnd: %+v %v", entries, err)
	}
	id := entries[0].ID
	// The model calls of the reviews (the worker also asks /models how
	// the server is).
	chats := func() int {
		n := 0
		for _, r := range srv.Requests() {
			if r.API == "chat" {
				n++
			}
		}
		return n
	}
	wait := func(what string, ok func(queue.Entry) bool) queue.Entry {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); ; {
			e, err := store.Get(id)
			if err != nil {
				t.Fatal(err)
			}
			if ok(e) {
				return e
			}
			if time.Now().After(deadline) {
				log, _ := os.ReadFile(worker.LogPath(state))
				t.Fatalf("%s (%d model requests): the entry is %+v\nworker log:\n%s", what, chats(), e, log)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	var reviews []string
	for n := 1; n <= queue.MaxInterruptions+1; n++ {
		// The review runs (its model call waits) …
		running := wait("the review never ran", func(e queue.Entry) bool {
			return e.State == queue.Running && e.Interruptible && chats() == n
		})
		reviews = append(reviews, running.ReviewID)
		// … and the person types a prompt.
		s.hook("UserPromptSubmit", event("prompt", "next, please"))
		// The interruption is counted in the same update that queues the
		// review again; the worker may take it up again before a poll sees
		// it queued (under -race on a loaded machine it did), so the count
		// is what is waited for, not the state.
		e := wait("the review was not interrupted", func(e queue.Entry) bool {
			return e.State == queue.Done || e.Interruptions >= n && e.InterruptRequested == nil
		})
		if n <= queue.MaxInterruptions {
			if e.State == queue.Done || e.Interruptions != n || e.InterruptRequested != nil {
				t.Fatalf("after interruption %d: %+v", n, e)
			}
			continue
		}
		if e.State != queue.Done || e.Interruptions != n || e.Outcome == nil || !strings.Contains(e.Outcome.Summary, "dropped: a new user turn interrupted it 4 times") {
			t.Fatalf("after interruption %d: %+v outcome %+v", n, e, e.Outcome)
		}
	}
	s.waitNoWorker()
	// Four attempts, each its own review id, each asked the model once;
	// nothing landed.
	e, _ := store.Get(id)
	if strings.Join(e.ReviewIDs, ",") != strings.Join(reviews, ",") || chats() != 4 {
		t.Errorf("attempts %v (ran %v), %d model calls", e.ReviewIDs, reviews, chats())
	}
	if log := s.git("log", "--format=%s", "main"); strings.Contains(log, "Merge proposal") {
		t.Errorf("an interrupted review landed:\n%s", log)
	}
	hooks, _ := os.ReadFile(agentsession.LogPath(state))
	wlog, _ := os.ReadFile(worker.LogPath(state))
	for _, want := range []string{"queued again (1 of 3 interruptions)", "queued again (3 of 3 interruptions)", "dropped: a new user turn interrupted it 4 times"} {
		if !strings.Contains(string(hooks), want) {
			t.Errorf("hooks log lacks %q:\n%s", want, hooks)
		}
	}
	for _, want := range []string{"interrupted by a new user turn (1 of 3); queued again", "dropped: a new user turn interrupted it 4 times"} {
		if !strings.Contains(string(wlog), want) {
			t.Errorf("worker log lacks %q:\n%s", want, wlog)
		}
	}
}
