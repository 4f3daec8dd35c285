package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

const goTestSkill = "---\nname: go-test-not-make\ndescription: Use when running tests in a Go repository without make targets.\n---\n# Go tests, not make\n\n1. Run `go test ./...`; the repository has no make targets.\n2. Re-run a flaky test once with -count=2 before touching code.\n"

// The session in both of OpenCode's shapes (export and message list):
// found by Read's detection, one iteration per step, a synthetic part is
// OpenCode's own context, an errored tool call counts as failed.
func TestOpenCodeTranscripts(t *testing.T) {
	data, err := os.ReadFile("testdata/opencode/skill-load.json")
	if err != nil {
		t.Fatal(err)
	}
	var export struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(data, &export); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		data      []byte
		sessionID string
	}{
		{"export", data, "ses_5b1e0f2a7ffeQk3Jd9Lm2Np4Rs"},
		{"message list", export.Messages, "ses_5b1e0f2a7ffeQk3Jd9Lm2Np4Rs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := Read(bytes.NewReader(tc.data), "skill-load.json", FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatOpenCode || tr.SessionID != tc.sessionID || tr.Model != "fake/m1" || tr.Provider != "fake" || tr.Cwd != "/home/ada/proj" {
				t.Errorf("format %s session %q model %q provider %q cwd %q", tr.Format, tr.SessionID, tr.Model, tr.Provider, tr.Cwd)
			}
			if tr.UserTurns() != 2 || tr.Iterations() != 5 {
				t.Errorf("%d turns, %d iterations; want 2 and 5", tr.UserTurns(), tr.Iterations())
			}
			var tools, failed []string
			for _, e := range tr.Events {
				tools = append(tools, e.Tools...)
				failed = append(failed, e.FailedTools...)
			}
			if strings.Join(tools, " ") != "skill bash bash" || strings.Join(failed, " ") != "bash" {
				t.Errorf("tools %v failed %v", tools, failed)
			}
			// user, skill call + result, bash + error, bash + output,
			// answer, user, OpenCode's note (context), answer.
			if len(tr.Messages) != 11 {
				t.Errorf("%d messages", len(tr.Messages))
			}
			var ctx []string
			for _, m := range tr.Messages {
				if m.Context {
					ctx = append(ctx, m.Text())
				}
			}
			if len(ctx) != 1 || !strings.Contains(ctx[0], "Called the Read tool") {
				t.Errorf("context messages %q", ctx)
			}
			if !tr.Final || tr.Interrupted {
				t.Errorf("final %v interrupted %v", tr.Final, tr.Interrupted)
			}
			if c := tr.Messages[1].ToolCalls; len(c) != 1 || c[0].Name != "skill" || c[0].Arguments != `{"name":"ci-debugging"}` || c[0].ID != "call_1" {
				t.Errorf("first call %+v", c)
			}
		})
	}
}

// Broken, hostile or empty sessions: a clear error naming the file, never
// a panic; an interrupted turn has no final answer.
func TestOpenCodeRecords(t *testing.T) {
	user := `{"info":{"id":"m1","sessionID":"ses_1","role":"user"},"parts":[{"type":"text","text":"Fix CI."}]}`
	for _, tc := range []struct {
		name, data, err string
		interrupted     bool
	}{
		{"truncated", `[` + user + `,{"info":{"role":"assist`, "truncated JSON", false},
		{"not JSON", `[{"info": {}, "parts": [}]`, "invalid JSON", false},
		{"unknown role", `[` + user + `,{"info":{"role":"system"},"parts":[]}]`, `message 2: unknown role "system"`, false},
		{"parts not a list", `[{"info":{"role":"user"},"parts":{"type":"text"}}]`, "message 1:", false},
		{"no conversation", `{"info":{"id":"ses_1"},"messages":[{"info":{"role":"user"},"parts":[{"type":"step-start"}]}]}`, ErrNoConversation.Error(), false},
		{"messages not a list", `{"info":{"id":"ses_1"},"messages":{"info":{},"parts":[]}}`, "must be", false},
		{"aborted", `[` + user + `,{"info":{"role":"assistant","error":{"name":"MessageAbortedError","data":{"message":"aborted"}}},"parts":[{"type":"step-start"},{"type":"text","text":"Looking"}]}]`, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := Read(strings.NewReader(tc.data), "s.json", FormatOpenCode)
			if tc.err != "" {
				var pe *ParseError
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.As(err, &pe) || pe.Name != "s.json" {
					t.Fatalf("err %v, want one naming s.json with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tr.Interrupted != tc.interrupted || tr.Final {
				t.Errorf("interrupted %v final %v", tr.Interrupted, tr.Final)
			}
		})
	}
	// A session larger than the bound is refused without reading it all.
	huge := strings.NewReader(`[` + user + `,{"info":{"role":"user"},"parts":[{"type":"text","text":"` + strings.Repeat("a", MaxTranscriptBytes) + `"}]}]`)
	if _, err := Read(huge, "huge.json", FormatOpenCode); err == nil || !strings.Contains(err.Error(), "huge.json") {
		t.Errorf("huge session: %v", err)
	}
}

// A review of an OpenCode session, against the fake model, lands the
// skill it writes on main.
func TestReviewOfOpenCodeSessionLandsSkill(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tr, err := readFile(t, "testdata/opencode/skill-load.json", FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	run := f.review(`[
		{"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "create", "name": "go-test-not-make", "content": `+js(goTestSkill)+`}]}}]},
		{"content": "Created go-test-not-make."}
	]`, tr, nil)
	if run.sum.Status != StatusCompleted || !run.sum.Merged || len(run.sum.Applied) != 1 {
		t.Fatalf("summary: %+v", run.sum)
	}
	if got := f.show("main", "go-test-not-make/SKILL.md"); got != goTestSkill {
		t.Fatalf("main has %q", got)
	}
	if got := f.trailer(run.sum.Applied[0].Commit, "Transcript-Sha256"); got != tr.SHA256 {
		t.Errorf("Transcript-Sha256 %q, want %q", got, tr.SHA256)
	}
	// The model saw the session: the person's words and the failed call.
	first := run.requests[0]
	var all []string
	for i := range first.Messages {
		all = append(all, first.text(i))
	}
	if s := strings.Join(all, "\n"); !strings.Contains(s, "never use make") || !strings.Contains(s, "No rule to make target") {
		t.Errorf("the review's first request does not hold the session:\n%s", s)
	}
	f.clean()
}
