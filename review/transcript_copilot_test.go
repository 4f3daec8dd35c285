package review

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// A session file Copilot CLI 1.0.102 wrote (testdata/copilot/SOURCE.md),
// found by Read's detection: the person's words (not Copilot CLI's
// wrapping of them), one iteration per model call with its tool calls,
// each result after its call, a failed call counted as failed, the model
// and folder from session.start, a final answer.
func TestCopilotTranscript(t *testing.T) {
	data, err := os.ReadFile("testdata/copilot/skill-load.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if f := Detect(data); f != FormatCopilot {
		t.Fatalf("detected %q", f)
	}
	tr, err := Read(bytes.NewReader(data), "events.jsonl", FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCopilot || tr.SessionID != "aa32a630-47d9-472f-9aa6-ad705bb40c01" || tr.Model != "fake-model" || tr.Cwd != "/home/ada/proj" {
		t.Errorf("session: %q %q %q %q", tr.Format, tr.SessionID, tr.Model, tr.Cwd)
	}
	if tr.UserTurns() != 2 || tr.Iterations() != 4 || !tr.Final || tr.Interrupted {
		t.Errorf("%d turns, %d iterations, final %v, interrupted %v", tr.UserTurns(), tr.Iterations(), tr.Final, tr.Interrupted)
	}
	var roles []string
	for _, m := range tr.Messages {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, " "); got != "user assistant tool tool assistant user assistant tool assistant" {
		t.Errorf("roles %s", got)
	}
	first := tr.Messages[0]
	if first.Content != "Use the ci-debugging skill: why does CI fail?" {
		t.Errorf("the prompt: %q", first.Content)
	}
	calls := tr.Messages[1].ToolCalls
	if len(calls) != 2 || calls[0].Name != "skill" || calls[0].Arguments != `{"skill":"ci-debugging"}` || calls[1].Name != "bash" || calls[0].ID != "call_1" {
		t.Errorf("calls %+v", calls)
	}
	if m := tr.Messages[3]; m.ToolCallID != "call_2" || !strings.Contains(m.Content, "name: docker-cleanup") {
		t.Errorf("the bash result: %+v", m)
	}
	if e := tr.Events[4]; len(e.FailedTools) != 1 || e.FailedTools[0] != "bash" {
		t.Errorf("the failed call: %+v", e)
	}
	if m := tr.Messages[7]; !strings.Contains(m.Content, "No rule to make target") {
		t.Errorf("the failed call's result: %+v", m)
	}
}

// A last line Copilot CLI is still writing is left out; a broken line
// before it is a parse error with its line; a session with only its start
// has no conversation; an interrupted turn is no final answer.
func TestCopilotTranscriptEdges(t *testing.T) {
	data, err := os.ReadFile("testdata/copilot/skill-load.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	partial := strings.Join(lines[:12], "") + `{"type":"user.message","data":{"cont`
	tr, err := Read(strings.NewReader(partial), "events.jsonl", FormatCopilot)
	if err != nil || tr.UserTurns() != 1 || !tr.Final {
		t.Errorf("a partial last line: %v %+v", err, tr)
	}
	broken := strings.Join(lines[:3], "") + "{not json\n" + strings.Join(lines[3:], "")
	var pe *ParseError
	if _, err := Read(strings.NewReader(broken), "events.jsonl", FormatCopilot); !errors.As(err, &pe) || pe.Line != 4 {
		t.Errorf("a broken line: %v", err)
	}
	if _, err := Read(strings.NewReader(lines[0]), "events.jsonl", FormatAuto); !errors.Is(err, ErrNoConversation) {
		t.Errorf("only the start: %v", err)
	}
	aborted := strings.Join(lines[:4], "") + `{"type":"abort","data":{"reason":"user"}}` + "\n"
	if tr, err := Read(strings.NewReader(aborted), "events.jsonl", FormatCopilot); err != nil || !tr.Interrupted || tr.Final {
		t.Errorf("an aborted turn: %v %+v", err, tr)
	}
}
