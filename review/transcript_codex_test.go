package review

import (
	"cmp"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	codexCLI  = "testdata/codex/codex-session-view/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl"
	codexExec = "testdata/codex/agent-history/session-01.jsonl"
)

// TestCodexCounts checks the counts a person gets reading the real
// rollouts line by line (testdata/codex/SOURCE.md says where they come
// from): a user turn is a user_message event (the environment context and
// developer messages are not); a model iteration is a run of model output
// (reasoning, text, calls) that a tool result or a user message ends; every
// call is paired with its output by call_id.
func TestCodexCounts(t *testing.T) {
	tests := []struct {
		file               string
		session            string
		turns, iterations  int
		calls, outputs     int
		final, interrupted bool
		turnLines          []int
		tools              map[string]int
	}{
		// 0.58 interactive: one prompt (line 4), 39 model calls each
		// ending in one call; the copy stops after a tool result.
		{codexCLI, "019a93b9-f380-7600-98ff-940e6b99603c", 1, 39, 39, 39, false, false, []int{4},
			map[string]int{"shell": 37, "update_plan": 2}},
		// 0.135 exec: one prompt (line 7, after its response item), one
		// call that answers.
		{codexExec, "019e9625-802f-7e91-840a-cfe88d14117a", 1, 1, 0, 0, true, false, []int{7}, map[string]int{}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			tr, err := readFile(t, tt.file, FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatCodex {
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
			tools := map[string]int{}
			for _, e := range tr.Events {
				if e.Kind == UserTurn {
					lines = append(lines, e.Line)
				}
				for _, name := range e.Tools {
					tools[name]++
				}
			}
			if !equalInts(lines, tt.turnLines) {
				t.Errorf("turn lines = %v, want %v", lines, tt.turnLines)
			}
			if len(tools) != len(tt.tools) {
				t.Errorf("tools = %v, want %v", tools, tt.tools)
			}
			for name, n := range tt.tools {
				if tools[name] != n {
					t.Errorf("tools = %v, want %v", tools, tt.tools)
				}
			}
			// Every call has exactly one output with its call_id.
			calls, outputs := map[string]bool{}, 0
			for _, m := range tr.Messages {
				for _, c := range m.ToolCalls {
					if c.ID == "" || calls[c.ID] || !json.Valid([]byte(c.Arguments)) {
						t.Fatalf("call %+v: no id, a repeated id or arguments that are not JSON", c)
					}
					calls[c.ID] = true
				}
			}
			for _, m := range tr.Messages {
				if m.Role == "tool" {
					if !calls[m.ToolCallID] {
						t.Fatalf("output for unknown call %q", m.ToolCallID)
					}
					outputs++
				}
			}
			if len(calls) != tt.calls || outputs != tt.outputs {
				t.Errorf("calls, outputs = %d, %d; want %d, %d", len(calls), outputs, tt.calls, tt.outputs)
			}
			assertReplayPaired(t, tr)
		})
	}
}

// TestCodexMessages checks what the replay sees of the real 0.58 rollout:
// the environment context and the prompt as user messages, the first call
// with its arguments as Codex wrote them and its output's text, no
// reasoning text.
func TestCodexMessages(t *testing.T) {
	tr, err := readFile(t, codexCLI, FormatCodex)
	if err != nil {
		t.Fatal(err)
	}
	m := tr.Messages
	if m[0].Role != "user" || !strings.HasPrefix(m[0].Content, "<environment_context>") {
		t.Fatalf("message 0 = %+v", m[0])
	}
	if m[1].Role != "user" || !strings.HasPrefix(m[1].Content, "finish up the users work") {
		t.Fatalf("message 1 = %+v", m[1])
	}
	a := m[2]
	if a.Role != "assistant" || a.Content != "" || len(a.ToolCalls) != 1 || a.ToolCalls[0].ID != "call_GfHib9GW3d5m9EB1wMTper0j" ||
		a.ToolCalls[0].Arguments != `{"command":["bash","-lc","ls"],"workdir":"/home/user/projects/temp/chatbot-ui"}` {
		t.Fatalf("message 2 = %+v", a)
	}
	if r := m[3]; r.Role != "tool" || r.ToolCallID != a.ToolCalls[0].ID || !strings.Contains(r.Content, "LM Studio configuration.md") {
		t.Fatalf("message 3 = %+v", r)
	}
	for _, x := range m {
		if strings.Contains(x.Content, "Planning repository inspection") || strings.Contains(x.Content, "gAAAAA") {
			t.Fatalf("reasoning leaked into the replay: %q", x.Content)
		}
	}
	// The exec rollout: the developer message is Codex's own and is not
	// replayed; the answer is.
	tr, err = readFile(t, codexExec, FormatCodex)
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, x := range tr.Messages {
		roles = append(roles, x.Role)
	}
	if strings.Join(roles, ",") != "user,user,assistant" || tr.Messages[2].Content != "[REDACTED_ASSISTANT_TEXT]" {
		t.Fatalf("messages = %+v", tr.Messages)
	}
}

// TestCodexShapes covers the shapes the real files above do not: the
// pre-envelope rollout (a bare header, record_type markers, bare items;
// no user_message events, so user messages that are not context are the
// turns), parallel calls in one model call, freeform and local shell
// calls, structured and failed outputs, an aborted turn and a compaction.
// The lines follow the shapes documented in Codex's RolloutItem enum; they
// are written here, not copied from a session.
func TestCodexShapes(t *testing.T) {
	legacy := strings.Join([]string{
		`{"id":"c27a914d-0000-4000-8000-000000000001","timestamp":"2025-08-20T13:20:47.060Z","instructions":null,"git":{"branch":"main"}}`,
		`{"record_type":"state"}`,
		`{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"<environment_context>\n<cwd>/w</cwd>\n</environment_context>"}]}`,
		`{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"list the files"}]}`,
		`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"opaque"}`,
		`{"type":"function_call","id":"fc_1","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_1"}`,
		`{"record_type":"state"}`,
		`{"type":"function_call_output","call_id":"call_1","output":"{\"output\":\"a\\nb\\n\",\"metadata\":{\"exit_code\":0}}"}`,
		`{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Two files: a and b."}]}`,
	}, "\n")
	tr, err := Read(strings.NewReader(legacy), "legacy.jsonl", FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCodex || tr.SessionID != "c27a914d-0000-4000-8000-000000000001" {
		t.Fatalf("format %s session %q", tr.Format, tr.SessionID)
	}
	if tr.UserTurns() != 1 || tr.Iterations() != 2 || !tr.Final || tr.Interrupted {
		t.Fatalf("turns %d iterations %d final %v interrupted %v", tr.UserTurns(), tr.Iterations(), tr.Final, tr.Interrupted)
	}
	if tr.Events[0].Kind != UserTurn || tr.Events[0].Line != 4 {
		t.Errorf("first event = %+v", tr.Events[0])
	}
	assertReplayPaired(t, tr)

	newer := strings.Join([]string{
		`{"timestamp":"t","type":"session_meta","payload":{"id":"s-2","cwd":"/w","cli_version":"0.149.0"}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix the build"}]}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"fix the build"}}`,
		`{"timestamp":"t","type":"turn_context","payload":{"turn_id":"t1","model":"gpt-5.5"}}`,
		// one model call, two parallel calls, then both outputs
		`{"timestamp":"t","type":"response_item","payload":{"type":"reasoning","summary":[]}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"make\"}","call_id":"c1"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"local_shell_call","call_id":"c2","status":"completed","action":{"type":"exec","command":["cat","Makefile"]}}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":{"content":"make: *** no rule","success":false}}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":[{"type":"input_text","text":"all: build"}]}}`,
		// a freeform apply_patch
		`{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** End Patch","call_id":"c3"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c3","output":"Done"}}`,
		`{"timestamp":"t","type":"compacted","payload":{"message":"summary of the work so far"}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"and the tests"}]}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"and the tests"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Running them."}]}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"make test\"}","call_id":"c4"}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}`,
		`{"timestamp":"t","type":"world_state","payload":{"anything":1}}`,
	}, "\n")
	tr, err = Read(strings.NewReader(newer), "newer.jsonl", FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCodex || tr.SessionID != "s-2" {
		t.Fatalf("format %s session %q", tr.Format, tr.SessionID)
	}
	if tr.UserTurns() != 2 || tr.Iterations() != 3 || tr.Final || !tr.Interrupted {
		t.Fatalf("turns %d iterations %d final %v interrupted %v", tr.UserTurns(), tr.Iterations(), tr.Final, tr.Interrupted)
	}
	var kinds []string
	for _, e := range tr.Events {
		if e.Kind == UserTurn {
			kinds = append(kinds, "turn")
		} else {
			kinds = append(kinds, strings.Join(e.Tools, "+")+"!"+strings.Join(e.FailedTools, "+"))
		}
	}
	if got := strings.Join(kinds, " "); got != "turn exec_command+local_shell!exec_command apply_patch! turn exec_command!" {
		t.Errorf("events = %s", got)
	}
	if tr.Events[1].FailedTools[0] != "exec_command" {
		t.Errorf("the failed call is not marked")
	}
	var patch, shell, list string
	for _, m := range tr.Messages {
		for _, c := range m.ToolCalls {
			switch c.Name {
			case "apply_patch":
				patch = c.Arguments
			case "local_shell":
				shell = c.Arguments
			}
		}
		if m.Role == "tool" && m.ToolCallID == "c2" {
			list = m.Content
		}
	}
	if patch != `{"input":"*** Begin Patch\n*** End Patch"}` || shell != `{"type":"exec","command":["cat","Makefile"]}` || list != "all: build" {
		t.Errorf("apply_patch %s, local_shell %s, output %q", patch, shell, list)
	}
	assertReplayPaired(t, tr)
}

func TestCodexErrors(t *testing.T) {
	for _, tt := range []struct{ name, data, want string }{
		{"bad line", `{"timestamp":"t","type":"session_meta","payload":{"id":"s"}}` + "\n{oops}\n", "c.jsonl:2: invalid JSON"},
		{"truncated", `{"timestamp":"t","type":"session_meta","payload":{"id":"s"}}` + "\n" + `{"timestamp":"t","type":"response_item","payload":{"type":"mess`, "c.jsonl:2: truncated JSON line"},
		{"only meta", `{"timestamp":"t","type":"session_meta","payload":{"id":"s"}}` + "\n", "no conversation messages"},
		{"unknown role", `{"timestamp":"t","type":"session_meta","payload":{"id":"s"}}` + "\n" + `{"type":"response_item","payload":{"type":"message","role":"robot","content":[]}}`, `c.jsonl:2: message with unknown role "robot"`},
		{"call without name", `{"type":"response_item","payload":{"type":"function_call","call_id":"x"}}`, "c.jsonl:1: function_call without a name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.data), "c.jsonl", FormatCodex)
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want a *ParseError with %q", err, tt.want)
			}
		})
	}
}

func TestDetectCodex(t *testing.T) {
	for in, want := range map[string]Format{
		`{"timestamp":"t","type":"session_meta","payload":{"id":"s"}}`:      FormatCodex,
		`{"timestamp":"t","type":"response_item","payload":{}}`:             FormatCodex,
		`{"id":"s","timestamp":"2025-08-20T13:20:47Z","instructions":null}`: FormatCodex,
		// Claude Code lines have a type but no payload.
		`{"type":"user","message":{},"sessionId":"x"}`: FormatClaudeCode,
		`{"type":"session_meta"}`:                      FormatClaudeCode,
		// An id and a timestamp with messages is chat JSON.
		`{"id":"s","timestamp":"t","messages":[]}`: FormatOpenAI,
	} {
		if got := Detect([]byte(in)); got != want {
			t.Errorf("Detect(%s) = %s, want %s", in, got, want)
		}
	}
	if f, err := ParseFormat("codex"); err != nil || f != FormatCodex {
		t.Errorf("ParseFormat(codex) = %s, %v", f, err)
	}
}

// TestReviewCodexTranscript reviews the real 0.58 rollout against the
// fake model: the replay is the rollout's conversation, every call
// answered right after it, and the review's create lands as usual.
func TestReviewCodexTranscript(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tr, err := readFile(t, codexCLI, FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	const skill = "---\nname: lmstudio-openai-compat\ndescription: Use when pointing an app at LM Studio.\n---\n# LM Studio\n\n1. Base URL http://localhost:1234/v1.\n"
	run := f.review(`[
		{"tool_calls": [{"name": "skill_manage", "arguments": {"action": "create", "name": "lmstudio-openai-compat", "content": `+js(skill)+`}}]},
		{"content": "Saved the LM Studio wiring."}
	]`, tr, func(o *Options) { o.SessionID, o.Model = tr.SessionID, cmp.Or(tr.Model, o.Model) })
	if run.sum.Status != StatusCompleted || !run.sum.Merged || len(run.sum.Applied) != 1 {
		t.Fatalf("summary: %+v", run.sum)
	}
	if got := f.show("main", "lmstudio-openai-compat/SKILL.md"); got != skill {
		t.Fatalf("main has %q", got)
	}
	if got := f.trailer(run.sum.Applied[0].Commit, "Session-Id"); got != "019a93b9-f380-7600-98ff-940e6b99603c" {
		t.Errorf("Session-Id = %q", got)
	}
	// The review's create reached the usage sidecar as the agent's, as the
	// reference's record_created(agent_created=True) marks it.
	recs, err := f.lib.Usage().Load()
	if err != nil {
		t.Fatal(err)
	}
	if r := recs["lmstudio-openai-compat"]; r == nil || !r.AgentCreated() || r.CreatedAt == nil {
		t.Errorf("usage record = %+v", r)
	}
	req := run.requests[0]
	assertReplayPairedMsgs(t, req)
	if !strings.Contains(req.text(1), "finish up the users work") {
		t.Errorf("message 1 = %q", req.text(1))
	}
	tools := 0
	for _, m := range req.Messages {
		if m.Role == "tool" {
			tools++
		}
	}
	if tools != 39 {
		t.Errorf("%d tool results replayed, want 39", tools)
	}
	f.clean()
}

// TestSessionModel: a transcript names the model, the provider and the
// folder its session ran with, so a review through the agent's own
// program runs as the session did.
func TestSessionModel(t *testing.T) {
	for _, tt := range []struct {
		file, format         string
		model, provider, cwd string
	}{
		{"testdata/claude-code/subagent.jsonl", "claude-code", "claude-opus-4-6", "", "/home/marco/projects/spotter"},
		{codexCLI, "codex", "gpt-5.1-codex", "openai", "/home/user/projects/temp/chatbot-ui"},
		{codexExec, "codex", "gpt-5.5", "openai", "/tmp/agent-history-real-agent/codex/workspace"},
	} {
		f, err := os.Open(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Read(f, tt.file, Format(tt.format))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if tr.Model != tt.model || tr.Provider != tt.provider || tr.Cwd != tt.cwd {
			t.Errorf("%s: model %q provider %q cwd %q; want %q %q %q", tt.file, tr.Model, tr.Provider, tr.Cwd, tt.model, tt.provider, tt.cwd)
		}
	}
}
