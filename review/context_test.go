package review

import (
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/goals"
)

// What the agent program and skillrepo's goal loop put in a user-role
// message is no turn of the user: Codex's <environment_context> and a
// goal's continuation prompt are marked as context, counted as no turn,
// and left out of a digest, in every agent's format.
func TestContextIsNoUserTurn(t *testing.T) {
	cont := goals.ContinuationPrompt(goals.State{Goal: "ship the release", MaxTurns: 20}, "tests still fail")
	if !strings.HasPrefix(cont, ContinuationMark) {
		t.Fatalf("the goal loop's prompt does not open with %q: %q", ContinuationMark, cont)
	}
	q := func(s string) string {
		b := strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`)
		return strings.ReplaceAll(b, "\n", `\n`)
	}
	codex := strings.Join([]string{
		`{"timestamp":"2026-12-01T00:00:00Z","type":"session_meta","payload":{"id":"s1","cwd":"/w","originator":"codex_exec","cli_version":"0.169.1"}}`,
		`{"timestamp":"2026-12-01T00:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"}]}}`,
		`{"timestamp":"2026-12-01T00:00:02Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"release it"}]}}`,
		`{"timestamp":"2026-12-01T00:00:03Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Tests fail."}]}}`,
		`{"timestamp":"2026-12-01T00:00:04Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"` + q(cont) + `"}]}}`,
		`{"timestamp":"2026-12-01T00:00:05Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Fixed and released."}]}}`,
	}, "\n")
	gemini := strings.Join([]string{
		`{"sessionId":"s2","projectHash":"h","startTime":"2026-12-01T00:00:00Z","kind":"main"}`,
		`{"id":"c","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"}]}`,
		`{"id":"u","type":"user","content":[{"text":"release it"}]}`,
		`{"id":"g1","type":"gemini","content":"Tests fail."}`,
		`{"id":"k","type":"user","content":[{"text":"` + q(cont) + `"}]}`,
		`{"id":"g2","type":"gemini","content":"Fixed and released."}`,
	}, "\n")
	for name, data := range map[string]string{"codex": codex, "gemini": gemini} {
		tr, err := Read(strings.NewReader(data), name, FormatAuto)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tr.UserTurns() != 1 {
			t.Errorf("%s: %d user turns, want 1 (context and continuation are no turns)", name, tr.UserTurns())
		}
		var ctx, user int
		for _, m := range tr.Messages {
			if m.Role == "user" && m.Context {
				ctx++
			} else if m.Role == "user" {
				user++
			}
		}
		if ctx != 2 || user != 1 {
			t.Errorf("%s: %d context and %d user messages, want 2 and 1", name, ctx, user)
		}
	}
	// A digest keeps the user's words and drops the context.
	var msgs []Message
	for i := range 30 {
		msgs = append(msgs, Message{Role: "user", Content: "<environment_context>cwd</environment_context>", Context: true},
			Message{Role: "user", Content: "question " + string(rune('a'+i%26))}, Message{Role: "assistant", Content: "answer"})
	}
	d := digest(msgs)
	if strings.Contains(d[0].Content, "environment_context") || !strings.Contains(d[0].Content, "USER: question a") {
		t.Errorf("digest: %s", d[0].Content)
	}
}
