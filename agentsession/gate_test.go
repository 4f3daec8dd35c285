package agentsession

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// The gating rules of docs/reference-behaviour.md §1.2–§1.6, checked
// through the hook commands as the agents call them (their stdin JSON).

// setReview replaces the review: section's keys given, in the work tree's
// config file (hooks read it from there at every run).
func (f *hookFixture) setReview(lines ...string) {
	f.t.Helper()
	p := filepath.Join(f.lib.Root, config.Path)
	data, err := os.ReadFile(p)
	if err != nil {
		f.t.Fatal(err)
	}
	s := string(data)
	for _, l := range lines {
		key, _, _ := strings.Cut(strings.TrimSpace(l), ":")
		var kept []string
		for _, old := range strings.Split(s, "\n") {
			if !strings.HasPrefix(old, "  "+key+":") {
				kept = append(kept, old)
			}
		}
		s = strings.Replace(strings.Join(kept, "\n"), "\nreview:\n", "\nreview:\n  "+strings.TrimSpace(l)+"\n", 1)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// chatTranscript writes an OpenAI chat transcript of n user turns, each
// answered.
func chatTranscript(t *testing.T, n int) string {
	t.Helper()
	var msgs []map[string]string
	for i := 0; i < n; i++ {
		msgs = append(msgs, map[string]string{"role": "user", "content": fmt.Sprintf("question %d", i+1)}, map[string]string{"role": "assistant", "content": fmt.Sprintf("answer %d", i+1)})
	}
	data, _ := json.Marshal(msgs)
	p := filepath.Join(t.TempDir(), "chat.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *hookFixture) queued() []queue.Entry {
	f.t.Helper()
	all, err := queue.New(f.lib.State().Queue()).List()
	if err != nil {
		f.t.Fatal(err)
	}
	return all
}

func notes(rep *Report) string { return strings.Join(rep.Notes, "\n") }

// A review is queued only when a nudge fired, never for an interrupted
// turn; the hooks log says why not.
func TestQueueOnlyWhenANudgeFires(t *testing.T) {
	f := newHookFixture(t)
	f.setReview("memory_interval: 2", "skill_interval: 5")
	one := chatTranscript(t, 1)
	_, rep := f.run(agent.Codex, "Stop", map[string]any{"session_id": "s", "transcript_path": one, "last_assistant_message": "answer 1"})
	if n := len(f.queued()); n != 0 {
		t.Fatalf("one turn of an interval of 2 queued %d reviews (%s)", n, notes(rep))
	}
	two := chatTranscript(t, 2)
	_, rep = f.run(agent.Codex, "Stop", map[string]any{"session_id": "s", "transcript_path": two, "last_assistant_message": "answer 2"})
	q := f.queued()
	if len(q) != 1 || !q[0].Due.Memory || q[0].Due.Skills || !strings.Contains(q[0].Due.Reason, "due at Stop") {
		t.Fatalf("the second turn queued %+v (%s)", q, notes(rep))
	}

	// Claude Code, an interrupted last turn: the nudge fires, no review.
	g := newHookFixture(t)
	g.setReview("memory_interval: 1", "skill_interval: 1")
	_, rep = g.run(agent.ClaudeCode, "Stop", map[string]any{"session_id": "i", "transcript_path": abs(t, "../review/testdata/claude-code/short.jsonl")})
	if n := len(g.queued()); n != 0 || !strings.Contains(notes(rep), "a nudge fired, but the last turn was interrupted") {
		t.Errorf("an interrupted turn: %d queued; log %q", n, notes(rep))
	}
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// SessionEnd queues a final review only when a nudge is pending: one that
// fired with the last turn, or the session's review still waiting, which
// then takes the final transcript. Turns no nudge asked for get none.
func TestFinalReviewOnlyWhenPending(t *testing.T) {
	f := newHookFixture(t)
	f.setReview("memory_interval: 3", "skill_interval: 10")
	two := chatTranscript(t, 2)
	_, rep := f.run(agent.Codex, "SessionEnd", map[string]any{"session_id": "a", "transcript_path": two, "reason": "other"})
	if n := len(f.queued()); n != 0 || !strings.Contains(notes(rep), "no final review: no nudge is pending") {
		t.Fatalf("two turns of an interval of 3: %d queued; log %q", n, notes(rep))
	}

	// The third turn fires the nudge at Stop; the entry waits (no worker
	// here); SessionEnd hands it the final transcript.
	three, four := chatTranscript(t, 3), chatTranscript(t, 4)
	f.run(agent.Codex, "Stop", map[string]any{"session_id": "b", "transcript_path": three, "last_assistant_message": "answer 3"})
	_, rep = f.run(agent.Codex, "SessionEnd", map[string]any{"session_id": "b", "transcript_path": four, "reason": "other"})
	q := f.queued()
	if len(q) != 1 || !q[0].Due.Final || q[0].Transcript != four || !strings.Contains(q[0].Due.Reason, "the pending review takes the final transcript") {
		t.Fatalf("queue %+v; log %q", q, notes(rep))
	}

	// The nudge fires with the last turn itself, seen first at SessionEnd.
	_, rep = f.run(agent.Codex, "SessionEnd", map[string]any{"session_id": "c", "transcript_path": three, "reason": "other"})
	var c *queue.Entry
	for _, e := range f.queued() {
		if e.SessionID == "c" {
			c = &e
		}
	}
	if c == nil || !c.Due.Final || !strings.Contains(c.Due.Reason, "a nudge fired with the last turn") {
		t.Errorf("session c: %+v; log %q", c, notes(rep))
	}
}

// review.enabled: false, a batch session (SKILLREPO_REVIEW=off), a
// headless one (claude -p, codex exec: the reference's scheduled job)
// and a session without a transcript queue nothing, and the hooks log
// says so; SKILLREPO_REVIEW=on reviews a headless session.
func TestNoReviewAndSaySo(t *testing.T) {
	// codexExec is a rollout `codex exec` wrote: its session_meta names
	// the source.
	codexExec := func(t *testing.T) string {
		p := filepath.Join(t.TempDir(), "rollout.jsonl")
		os.WriteFile(p, []byte(`{"timestamp":"2026-11-30T10:00:00Z","type":"session_meta","payload":{"id":"s","source":"exec","originator":"codex_exec"}}`+"\n"+
			`{"timestamp":"2026-11-30T10:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"question 1"}]}}`+"\n"+
			`{"timestamp":"2026-11-30T10:00:02Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"answer 2"}]}}`+"\n"), 0o644)
		return p
	}
	chat := func(t *testing.T) string { return chatTranscript(t, 2) }
	// claudeChat is two turns of a Claude Code session file.
	claudeChat := func(t *testing.T) string {
		var b strings.Builder
		for i := 1; i <= 2; i++ {
			fmt.Fprintf(&b, `{"type":"user","sessionId":"s","uuid":"u%d","message":{"role":"user","content":"question %d"}}`+"\n", i, i)
			fmt.Fprintf(&b, `{"type":"assistant","sessionId":"s","uuid":"a%d","message":{"role":"assistant","model":"m","content":[{"type":"text","text":"answer %d"}]}}`+"\n", i, i)
		}
		p := filepath.Join(t.TempDir(), "s.jsonl")
		os.WriteFile(p, []byte(b.String()), 0o644)
		return p
	}
	for _, tt := range []struct {
		name       string
		agent      agent.Name
		config     string
		env        map[string]string
		transcript func(*testing.T) string // nil: none
		says       string
		queued     int
	}{
		{"reviews off", agent.Codex, "enabled: false", nil, chat, "review.enabled is false: no review queued", 0},
		{"a batch session", agent.Codex, "", map[string]string{"SKILLREPO_REVIEW": "off"}, chat, "a batch session (SKILLREPO_REVIEW=off): no review queued", 0},
		{"no transcript", agent.Codex, "", nil, nil, "the session has no transcript", 0},
		{"claude -p", agent.ClaudeCode, "", map[string]string{"CLAUDE_CODE_ENTRYPOINT": "sdk-cli"}, chat, "a headless session (CLAUDE_CODE_ENTRYPOINT=sdk-cli): no review queued; SKILLREPO_REVIEW=on reviews it", 0},
		{"codex exec", agent.Codex, "", nil, codexExec, "a headless session (codex exec): no review queued", 0},
		{"claude -p, reviewed", agent.ClaudeCode, "", map[string]string{"CLAUDE_CODE_ENTRYPOINT": "sdk-cli", "SKILLREPO_REVIEW": "on"}, claudeChat, "queued review", 1},
		{"claude interactive", agent.ClaudeCode, "", map[string]string{"CLAUDE_CODE_ENTRYPOINT": "cli"}, claudeChat, "queued review", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newHookFixture(t)
			f.setReview("memory_interval: 1", "skill_interval: 1")
			if tt.config != "" {
				f.setReview(tt.config)
			}
			for k, v := range tt.env {
				f.env[k] = v
			}
			in := map[string]any{"session_id": "s", "last_assistant_message": "answer 2"}
			if tt.transcript != nil {
				in["transcript_path"] = tt.transcript(t)
			}
			for _, ev := range []string{"Stop", "SessionEnd"} {
				_, rep := f.run(tt.agent, ev, in)
				if ev == "Stop" && !strings.Contains(notes(rep), tt.says) {
					t.Errorf("%s: log %q, want %q", ev, notes(rep), tt.says)
				}
			}
			if n := len(f.queued()); n != tt.queued {
				t.Errorf("%d reviews queued, want %d", n, tt.queued)
			}
		})
	}
}

// A goal reaching done queues the session's review with the goal's id and
// sets the counters to 0: the next nudge counts only turns after it.
func TestGoalDoneResetsCounters(t *testing.T) {
	f := newHookFixture(t)
	f.setReview("memory_interval: 3", "skill_interval: 100")
	judge := func(ctx context.Context, a agent.Name, in *Input, lib *skillrepo.Library) (*StopDecision, error) {
		if in.LastAssistantMessage == "answer 2" {
			return &StopDecision{Message: "✓ Goal achieved", ReviewGoal: "g-1"}, nil
		}
		return nil, nil
	}
	stop := func(turns int) *Report {
		data, _ := json.Marshal(map[string]any{"session_id": "s", "transcript_path": chatTranscript(t, turns), "last_assistant_message": fmt.Sprintf("answer %d", turns)})
		rep, err := Run(context.Background(), Options{Agent: sessionAgent(agent.Codex), Event: "Stop", Library: f.lib.Root, In: bytes.NewReader(data), Out: &bytes.Buffer{},
			Getenv: func(k string) string { return f.env[k] }, StopJudge: judge})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	stop(1)
	stop(2) // the goal is done: its review is queued
	q := f.queued()
	if len(q) != 1 || q[0].GoalID != "g-1" {
		t.Fatalf("after the goal: %+v", q)
	}
	// Turn 3 would have fired the memory nudge (interval 3) had the goal's
	// review not covered turns 1 and 2.
	rep := stop(3)
	q = f.queued()
	if len(q) != 1 || strings.Contains(notes(rep), "queued review") || strings.Contains(notes(rep), "merged into") {
		t.Errorf("turn 3 queued again: %+v; log %q", q, notes(rep))
	}
}

// A session start tells the person, in one line with the fix, when
// reviews cannot run (no model backend), and once about each failure.
func TestSessionStartTellsOfTrouble(t *testing.T) {
	f := newHookFixture(t)
	delete(f.env, "OPENAI_BASE_URL")
	f.env["PATH"] = t.TempDir() // no claude on it
	out, _ := f.run(agent.ClaudeCode, "SessionStart", map[string]any{"session_id": "a", "source": "startup"})
	var got struct {
		SystemMessage string `json:"systemMessage"`
	}
	json.Unmarshal([]byte(out), &got)
	if !strings.Contains(got.SystemMessage, "reviews cannot run: no model: no claude program") || !strings.Contains(got.SystemMessage, "skillrepo status") {
		t.Fatalf("no model: %q", out)
	}

	// With a backend, a parked review is told once.
	f.env["OPENAI_BASE_URL"], f.env["SKILLREPO_MODEL"] = "http://127.0.0.1:9/v1", "m"
	store := queue.New(f.lib.State().Queue())
	e, _, err := store.Enqueue(queue.Entry{Kind: queue.KindReview, SessionID: "old", Transcript: "/x", Due: queue.Due{Skills: true}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Update(e.ID, func(x *queue.Entry) error {
		x.State, x.Attempts, x.LastError = queue.Failed, 1, "model call failed: 401 Unauthorized"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	out, _ = f.run(agent.ClaudeCode, "SessionStart", map[string]any{"session_id": "b", "source": "startup"})
	got.SystemMessage = ""
	json.Unmarshal([]byte(out), &got)
	if !strings.Contains(got.SystemMessage, "1 review failed: model call failed: 401 Unauthorized") || !strings.Contains(got.SystemMessage, "skillrepo queue retry "+e.ID) {
		t.Fatalf("a failed review: %q", out)
	}
	if out, _ = f.run(agent.Codex, "SessionStart", map[string]any{"session_id": "c", "source": "startup"}); strings.Contains(out, "systemMessage") {
		t.Errorf("told twice: %q", out)
	}
}
