package review

import (
	"os"
	"strings"
	"testing"
)

func readGeminiFile(t *testing.T, name string) (*Transcript, error) {
	t.Helper()
	f, err := os.Open("testdata/gemini/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return Read(f, name, FormatAuto)
}

// Real Gemini CLI sessions: found by Read's detection, Gemini CLI's own
// context is no turn, a tool result is a tool message, a model record
// written twice is one iteration, an errored tool call counts as failed.
func TestGeminiTranscripts(t *testing.T) {
	for _, tc := range []struct {
		file                string
		turns, iterations   int
		tools, failed, last string
		messages            int
	}{
		{"activate-skill.jsonl", 1, 2, "activate_skill", "", "Activated the skill. Done.", 5},
		{"two-turns.jsonl", 2, 4, "activate_skill read_file", "read_file", "Noted: re-run flaky tests before touching code.", 10},
	} {
		t.Run(tc.file, func(t *testing.T) {
			tr, err := readGeminiFile(t, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatGemini || tr.SessionID == "" || tr.Model != "gemini-2.5-flash" {
				t.Errorf("format %s session %q model %q", tr.Format, tr.SessionID, tr.Model)
			}
			if tr.UserTurns() != tc.turns || tr.Iterations() != tc.iterations {
				t.Errorf("%d turns, %d iterations; want %d and %d", tr.UserTurns(), tr.Iterations(), tc.turns, tc.iterations)
			}
			var tools, failed []string
			for _, e := range tr.Events {
				tools = append(tools, e.Tools...)
				failed = append(failed, e.FailedTools...)
			}
			if strings.Join(tools, " ") != tc.tools || strings.Join(failed, " ") != tc.failed {
				t.Errorf("tools %v failed %v", tools, failed)
			}
			if len(tr.Messages) != tc.messages {
				for _, m := range tr.Messages {
					t.Logf("%s %q %v", m.Role, m.Text()[:min(40, len(m.Text()))], m.ToolCalls)
				}
				t.Errorf("%d messages, want %d", len(tr.Messages), tc.messages)
			}
			if !tr.Final || tr.Interrupted || tr.Messages[len(tr.Messages)-1].Text() != tc.last {
				t.Errorf("final %v interrupted %v last %q", tr.Final, tr.Interrupted, tr.Messages[len(tr.Messages)-1].Text())
			}
			// Every tool result answers a call of the conversation.
			calls := map[string]bool{}
			for _, m := range tr.Messages {
				for _, c := range m.ToolCalls {
					calls[c.ID] = true
				}
			}
			for _, m := range tr.Messages {
				if m.Role == "tool" && !calls[m.ToolCallID] {
					t.Errorf("tool result %s answers no call", m.ToolCallID)
				}
				if m.Role == "user" && strings.HasPrefix(m.Text(), "<session_context>") && m.Line != tr.Messages[0].Line {
					t.Errorf("session context is not the first message")
				}
			}
		})
	}
	// The stub of a resumed run holds Gemini CLI's context and no turn.
	stub, err := readGeminiFile(t, "resume-stub.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if stub.UserTurns() != 0 || stub.Iterations() != 0 || stub.Final {
		t.Errorf("resume stub: %d turns, %d iterations, final %v", stub.UserTurns(), stub.Iterations(), stub.Final)
	}
}

// The records that edit the list: $rewindTo drops from a message on, a
// $set of messages replaces the list, a cancelled tool call ends the turn
// interrupted, and the legacy one-object file reads the same.
func TestGeminiRecords(t *testing.T) {
	lines := []string{
		`{"sessionId":"s1","projectHash":"h","startTime":"2026-01-01T00:00:00Z","kind":"main"}`,
		`{"id":"u1","type":"user","content":[{"text":"first question"}]}`,
		`{"id":"g1","type":"gemini","content":"first answer","model":"gemini-x"}`,
		`{"id":"u2","type":"user","content":[{"text":"second question"}]}`,
		`{"id":"g2","type":"gemini","content":"wrong answer"}`,
		`{"$rewindTo":"u2"}`,
		`{"id":"u3","type":"user","content":"third question"}`,
		`{"id":"g3","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"ls"},"status":"cancelled"}]}`,
		`{"id":"i1","type":"info","content":"Request cancelled."}`,
	}
	tr, err := Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "s.jsonl", FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range tr.Messages {
		texts = append(texts, m.Role+":"+m.Text())
	}
	if got := strings.Join(texts, "|"); got != "user:first question|assistant:first answer|user:third question|assistant:" {
		t.Errorf("messages %s", got)
	}
	if tr.UserTurns() != 2 || !tr.Interrupted || tr.Final {
		t.Errorf("turns %d interrupted %v final %v", tr.UserTurns(), tr.Interrupted, tr.Final)
	}

	legacy := `{
  "sessionId": "s2", "projectHash": "h", "startTime": "2026-01-01T00:00:00Z",
  "messages": [
    {"id": "u1", "type": "user", "content": "hello"},
    {"id": "g1", "type": "gemini", "content": "hi there"}
  ]
}`
	tr, err = Read(strings.NewReader(legacy), "old.json", FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatGemini || tr.SessionID != "s2" || tr.UserTurns() != 1 || !tr.Final {
		t.Errorf("legacy: %+v", tr)
	}
	// A broken line is named.
	_, err = Read(strings.NewReader(lines[0]+"\n{\"id\":\"u1\",\n"), "b.jsonl", FormatGemini)
	if err == nil || !strings.Contains(err.Error(), "b.jsonl:2") {
		t.Errorf("broken line: %v", err)
	}
}
