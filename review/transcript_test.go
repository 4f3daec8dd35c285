package review

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claudeDir holds real Claude Code sessions (MIT; see its SOURCE.md).
const claudeDir = "testdata/claude-code"

// claudeFile returns the path of a session file in claudeDir. A file kept
// gzip-compressed there (name + ".gz", to keep the repository small) is
// decompressed into the test's temporary folder under its own name, since
// the reader takes the session name from the file name.
func claudeFile(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(claudeDir, name)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	in, err := os.Open(p + ".gz")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(name))
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, zr); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

func readFile(t *testing.T, path string, format Format) (*Transcript, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return Read(f, filepath.Base(path), format)
}

// TestClaudeCodeCounts checks the counts a person gets by reading the real
// sessions line by line: a user turn is something the user typed or a
// custom slash command, not a tool result, a meta line (skill text,
// caveats), local command output, a compaction summary, an interruption
// marker or a local command (/compact, /mcp); a model iteration is one API
// response, which Claude Code spreads over one line per content block
// sharing a message id.
func TestClaudeCodeCounts(t *testing.T) {
	tests := []struct {
		file               string
		session            string
		turns, iterations  int
		final, interrupted bool
		turnLines          []int
	}{
		// "mix phx.server doesnt seem to start"; one response with two
		// parallel tool calls, both rejected, then an interruption.
		{"short.jsonl", "55604662-cf2a-4331-851a-ec234028f8ca", 1, 1, false, true, []int{4}},
		// "start phoenix in background", /mcp (local), "scrolling back…";
		// interrupted at the end.
		{"tool_heavy.jsonl", "d6e0bada-1959-4eec-a9d2-0bfade768d8f", 2, 4, false, true, []int{4, 26}},
		// a custom command (/handgemacht:create-beads) and "create the
		// beads"; the interruption at line 69 is before the last turn.
		{"subagent.jsonl", "491e126e-1e71-469c-ade2-fcc8af567c74", 2, 12, true, false, []int{4, 71}},
		// the long session: the first prompt, /compact (local, not a
		// turn), "continue implementation"; 217 distinct responses.
		{"ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl", "ae4a77f8-aedd-4bc1-888f-c94edc91af04", 2, 217, true, false, []int{7, 1491}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			tr, err := readFile(t, claudeFile(t, tt.file), FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatClaudeCode {
				t.Errorf("format = %s", tr.Format)
			}
			if tr.SessionID != tt.session {
				t.Errorf("session = %s", tr.SessionID)
			}
			if tr.UserTurns() != tt.turns || tr.Iterations() != tt.iterations {
				t.Errorf("turns, iterations = %d, %d; want %d, %d", tr.UserTurns(), tr.Iterations(), tt.turns, tt.iterations)
			}
			if tr.Final != tt.final || tr.Interrupted != tt.interrupted {
				t.Errorf("final, interrupted = %v, %v; want %v, %v", tr.Final, tr.Interrupted, tt.final, tt.interrupted)
			}
			var lines []int
			for _, e := range tr.Events {
				if e.Kind == UserTurn {
					lines = append(lines, e.Line)
				}
			}
			if !equalInts(lines, tt.turnLines) {
				t.Errorf("turn lines = %v, want %v", lines, tt.turnLines)
			}
			if len(tr.SHA256) != 64 {
				t.Errorf("sha256 = %q", tr.SHA256)
			}
			// Every tool call has its result in the replay, right after it.
			assertReplayPaired(t, tr)
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func assertReplayPaired(t *testing.T, tr *Transcript) {
	t.Helper()
	msgs := replayMessages(tr.Messages)
	for i, m := range msgs {
		if m.Role != "assistant" || len(m.ToolCalls) == 0 {
			if m.Role == "tool" && (i == 0 || (msgs[i-1].Role != "tool" && len(msgs[i-1].ToolCalls) == 0)) {
				t.Fatalf("message %d: tool result without a call before it", i)
			}
			continue
		}
		// The results follow the call, in any order (parallel calls
		// finish in any order).
		want := map[string]bool{}
		for _, c := range m.ToolCalls {
			want[c.ID] = true
		}
		for j := range m.ToolCalls {
			r := msgs[i+1+j]
			if r.Role != "tool" || !want[r.ToolCallID] {
				t.Fatalf("message %d: unexpected %s message %q after the calls", i+1+j, r.Role, r.ToolCallID)
			}
			delete(want, r.ToolCallID)
		}
	}
}

// TestClaudeCodeMerging checks one response spread over several lines
// becomes one assistant message with all its tool calls.
func TestClaudeCodeMerging(t *testing.T) {
	tr, err := readFile(t, claudeFile(t, "short.jsonl"), FormatClaudeCode)
	if err != nil {
		t.Fatal(err)
	}
	var asst []Message
	for _, m := range tr.Messages {
		if m.Role == "assistant" {
			asst = append(asst, m)
		}
	}
	if len(asst) != 1 || len(asst[0].ToolCalls) != 2 || asst[0].ToolCalls[0].Name != "Bash" || asst[0].ToolCalls[1].Name != "Glob" {
		t.Fatalf("assistant messages = %+v", asst)
	}
	if !strings.Contains(asst[0].Content, "Let me check the project structure") {
		t.Errorf("text = %q", asst[0].Content)
	}
	if strings.Contains(asst[0].Content, "The user is having trouble") {
		t.Errorf("thinking leaked into the replay: %q", asst[0].Content)
	}
	if got := asst[0].ToolCalls[0].Arguments; got != `{"command":"mix phx.server 2>&1 | head -80","timeout":30000}` {
		t.Errorf("arguments = %s", got)
	}
}

// TestSidechainsIgnored: a subagent file holds only sidechain lines.
func TestSidechainsIgnored(t *testing.T) {
	_, err := readFile(t, claudeFile(t, "ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl"), FormatClaudeCode)
	var pe *ParseError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "no conversation messages") {
		t.Fatalf("err = %v", err)
	}
}

func TestOpenAI(t *testing.T) {
	tests := []struct {
		file              string
		session           string
		turns, iterations int
		final             bool
		messages          int
		system            string
	}{
		{"simple.json", "", 1, 2, true, 5, "You are a careful coding agent.\nFollow the user's conventions exactly."},
		{"object.json", "sess-obj-1", 2, 3, false, 9, ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			tr, err := readFile(t, filepath.Join("testdata/openai", tt.file), FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatOpenAI || tr.SessionID != tt.session || len(tr.Messages) != tt.messages {
				t.Errorf("format %s session %q messages %d", tr.Format, tr.SessionID, len(tr.Messages))
			}
			if tr.UserTurns() != tt.turns || tr.Iterations() != tt.iterations || tr.Final != tt.final {
				t.Errorf("turns %d iterations %d final %v", tr.UserTurns(), tr.Iterations(), tr.Final)
			}
			if tt.system != "" && tr.Messages[0].Content != tt.system {
				t.Errorf("system = %q", tr.Messages[0].Content)
			}
			assertReplayPaired(t, tr)
		})
	}
}

// TestOpenAIParts keeps content parts as parts (so a replay sends the same
// texts) and marks what is not text.
func TestOpenAIParts(t *testing.T) {
	tr, err := readFile(t, "testdata/openai/object.json", FormatOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Messages[0].Parts; len(got) != 2 || got[1] != "Part two." {
		t.Errorf("developer parts = %q", got)
	}
	if got := tr.Messages[1].Text(); got != "Summarise the log.\n[image_url]" {
		t.Errorf("user text = %q", got)
	}
	// The skill_manage call failed ({"success": false}), the memory call
	// did not.
	it := tr.Events[1]
	if it.Kind != Iteration || len(it.Tools) != 2 || len(it.FailedTools) != 1 || it.FailedTools[0] != "skill_manage" {
		t.Errorf("first iteration = %+v", it)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, data string
		format     Format
		want       string
	}{
		{"truncated list", "", FormatAuto, ""}, // filled from the file below
		{"bad role", "", FormatAuto, ""},
		{"jsonl bad line", "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{\"type\": \"assistant\", oops}\n", FormatAuto, "t:2: invalid JSON"},
		{"jsonl truncated last line", "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":[{\"type\":\"te", FormatAuto, "t:2: truncated JSON line"},
		{"jsonl not an object", "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n[1,2]\n", FormatClaudeCode, "t:2:"},
		{"empty", "  \n", FormatOpenAI, "t: empty file"},
		{"no messages key", `{"model": "x"}`, FormatOpenAI, `no "messages" list`},
		{"messages not a list", "{\n\"messages\": 3}", FormatOpenAI, `t:2: "messages" must be a list`},
		{"trailing garbage", `[{"role":"user","content":"a"}] x`, FormatOpenAI, "unexpected data after"},
		{"content wrong type", "[\n{\"role\":\"user\",\"content\":7}]", FormatOpenAI, `t:2: message 1: "content" must be a string`},
		{"tool calls on a user", `[{"role":"user","content":"a","tool_calls":[{"id":"x","function":{"name":"f"}}]}]`, FormatOpenAI, "cannot carry tool calls"},
		{"no role", "[\n  {\"content\": \"a\"}\n]", FormatOpenAI, `t:2: message 1: "role" is missing`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			switch tt.name {
			case "truncated list":
				_, err = readFile(t, "testdata/openai/truncated.json", FormatAuto)
				tt.want = "truncated.json:4:"
			case "bad role":
				_, err = readFile(t, "testdata/openai/badrole.json", FormatAuto)
				tt.want = `badrole.json:4: message 2: unknown role "robot"`
			default:
				_, err = Read(strings.NewReader(tt.data), "t", tt.format)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	for in, want := range map[string]Format{
		`[{"role":"user"}]`:                     FormatOpenAI,
		"{\n \"messages\": []}":                 FormatOpenAI,
		`{"messages": [], "type": "chat"}`:      FormatOpenAI,
		`{"type":"user","message":{}}` + "\n{}": FormatClaudeCode,
		"\ufeff" + `{"type":"summary"}`:         FormatClaudeCode,
	} {
		if got := Detect([]byte(in)); got != want {
			t.Errorf("Detect(%q) = %s, want %s", in, got, want)
		}
	}
	if _, err := ParseFormat("yaml"); err == nil {
		t.Error("ParseFormat(yaml) accepted")
	}
}
