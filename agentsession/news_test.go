package agentsession

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// finishReview puts a review in the queue as a worker leaves it done.
func (f *hookFixture) finishReview(reviewID, summary string, applied, staged int, at time.Time) {
	f.t.Helper()
	q := queue.New(f.lib.State().Queue())
	e, _, err := q.Enqueue(queue.Entry{Kind: queue.KindReview, Agent: "claude-code", SessionID: "s-" + reviewID, Transcript: "/x.jsonl", Due: queue.Due{Skills: true}})
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := q.Update(e.ID, func(e *queue.Entry) error {
		e.State, e.FinishedAt, e.ReviewID = queue.Done, &at, reviewID
		e.Outcome = &queue.Outcome{Status: "completed", Summary: summary, Applied: applied, Staged: staged, Merged: applied > 0}
		if applied > 0 {
			e.Outcome.Proposal = reviewID
		}
		return nil
	}); err != nil {
		f.t.Fatal(err)
	}
}

// systemMessage is the line a hook's output shows the person.
func systemMessage(t *testing.T, out string) string {
	t.Helper()
	if out == "" {
		return ""
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("hook output %q: %v", out, err)
	}
	s, _ := m["systemMessage"].(string)
	return s
}

// Told in the agent: after a review lands or stages a proposal, the next
// session start of any agent, or the next prompt of a running session,
// tells the person once, in its systemMessage (the channel each agent
// shows the user, not the model): what the review did, in its words, the
// command to look, and what waits for them. review.notify: off says
// nothing.
func TestNewsToldOnce(t *testing.T) {
	f := newHookFixture(t)
	start := func(agent agent.Name, session string) string {
		out, _ := f.run(agent, "SessionStart", map[string]any{"session_id": session, "source": "startup"})
		return systemMessage(t, out)
	}
	prompt := func(agent agent.Name, session string) string {
		out, _ := f.run(agent, "UserPromptSubmit", map[string]any{"session_id": session, "prompt": "go on"})
		return systemMessage(t, out)
	}
	// The first start says only when reviews come (welcome.go).
	if got := start(agent.ClaudeCode, "s1"); !strings.Contains(got, "shorter sessions are not") || strings.Contains(got, "review r-") {
		t.Fatalf("nothing learned, yet: %q", got)
	}
	f.finishReview("r-1", "Self-improvement review: Skill 'flaky-test-triage' created", 1, 0, f.now.Add(time.Minute))
	f.finishReview("r-0", "wrote nothing", 0, 0, f.now.Add(30*time.Second))
	f.now = f.now.Add(2 * time.Minute)
	want := "skillrepo: Self-improvement review: Skill 'flaky-test-triage' created (review r-1). See `skillrepo whatsnew`."
	if got := start(agent.Codex, "s2"); got != want {
		t.Errorf("codex session start says %q, want %q", got, want)
	}
	if got := start(agent.ClaudeCode, "s3"); got != "" {
		t.Errorf("told twice: %q", got)
	}

	// A staged proposal: told with what waits, in a running session's
	// next prompt.
	content := "---\nname: pdf-forms\ndescription: Use when filling PDF forms.\n---\n# PDF forms\n\nUse pdftk.\n"
	pol, err := f.lib.Policy(skillrepo.Writer{Proposal: "r-2-user", Provenance: skillrepo.Provenance{Origin: skillrepo.OriginBackgroundReview, ReviewID: "r-2"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pol.Apply(context.Background(), []skillrepo.Op{{Action: skillrepo.ActionCreate, Name: "pdf-forms", Content: &content}}, false); err != nil {
		t.Fatal(err)
	}
	f.finishReview("r-2", "Waiting for approval: Skill 'pdf-forms' created, proposed (proposal r-2-user)", 0, 1, f.now.Add(time.Minute))
	f.now = f.now.Add(2 * time.Minute)
	got := prompt(agent.Gemini, "s3")
	lines := strings.Split(got, "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "Waiting for approval: Skill 'pdf-forms' created, proposed (proposal r-2-user) (review r-2)") ||
		lines[1] != "skillrepo: 1 proposal waits for your approval (newest: r-2-user for pdf-forms): `skillrepo proposal show r-2-user`, then `proposal approve r-2-user` or `reject`." {
		t.Errorf("gemini prompt says %q", got)
	}
	if got := prompt(agent.ClaudeCode, "s3"); got != "" {
		t.Errorf("told twice: %q", got)
	}

	f.setReview("notify: off")
	f.finishReview("r-3", "Self-improvement review: Skill 'x' patched", 1, 0, f.now.Add(time.Minute))
	f.now = f.now.Add(2 * time.Minute)
	if got := start(agent.ClaudeCode, "s4"); got != "" {
		t.Errorf("review.notify off, yet: %q", got)
	}
}
