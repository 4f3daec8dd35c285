package agentsession

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents/copilot"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// GitHub Copilot CLI's hooks, driven by the payloads its hooks reference
// documents for the PascalCase event names skillrepo installs
// (docs/agents.md, "GitHub Copilot CLI"): snake_case fields, an ISO 8601
// timestamp, tool_result instead of tool_response, no tool_use_id.
func TestCopilotDocumentedPayloads(t *testing.T) {
	f := newHookFixture(t)
	cwd := filepath.Dir(f.lib.Root)
	skill := filepath.Join(f.lib.Root, "ci-debugging", "SKILL.md")
	base := func(event string) map[string]any {
		return map[string]any{"hook_event_name": event, "session_id": "0f4a6c1e-5b2d-4c83-9e1f-2a7d9c0b8e11",
			"timestamp": "2026-12-01T12:00:00.000Z", "cwd": cwd}
	}

	start := base("SessionStart")
	start["source"], start["initial_prompt"] = "new", "fix the build"
	f.run(copilot.Name, "SessionStart", start)

	// The skill tool loads a skill by name; the view tool reads a library
	// SKILL.md by path, bash by command (named Read and Bash in the
	// payloads Copilot CLI 1.0.102 sends a PascalCase hook); a tool that
	// reads no SKILL.md counts nothing.
	for _, call := range []struct {
		tool  string
		input map[string]any
	}{
		{"view", map[string]any{"path": skill}},
		{"bash", map[string]any{"command": "sed -n 1,40p " + skill, "description": "read the skill"}},
		{"Read", map[string]any{"path": skill}},
		{"Bash", map[string]any{"command": "cat " + skill, "description": "read"}},
		{"skill", map[string]any{"skill": "ci-debugging"}},
		{"grep", map[string]any{"pattern": "SKILL.md", "path": f.lib.Root}},
		{"edit", map[string]any{"path": skill, "old_str": "a", "new_str": "b"}},
	} {
		ev := base("PostToolUse")
		ev["tool_name"], ev["tool_input"] = call.tool, call.input
		ev["tool_result"] = map[string]any{"result_type": "success", "text_result_for_llm": "…"}
		f.run(copilot.Name, "PostToolUse", ev)
	}
	if use, view := f.uses("ci-debugging"); use != 5 || view != 4 {
		t.Errorf("ci-debugging: %d uses, %d views; want the four reads and the skill tool's load, 5 and 4", use, view)
	}

	prompt := base("UserPromptSubmit")
	prompt["prompt"] = "and the tests"
	f.run(copilot.Name, "UserPromptSubmit", prompt)

	// Stop: a judge's block is Copilot CLI's decision "block" with the
	// next turn's prompt as reason, and nothing else.
	stop := base("Stop")
	stop["transcript_path"], stop["stop_reason"] = filepath.Join(t.TempDir(), "events.jsonl"), "end_turn"
	data, _ := json.Marshal(stop)
	var out bytes.Buffer
	judge := func(ctx context.Context, a agent.Name, in *Input, lib *skillrepo.Library) (*StopDecision, error) {
		if a != copilot.Name || in.SessionID != "0f4a6c1e-5b2d-4c83-9e1f-2a7d9c0b8e11" {
			t.Errorf("judge asked for %s, session %q", a, in.SessionID)
		}
		return &StopDecision{Block: true, Reason: "the tests are not green", Message: "goal 1/3"}, nil
	}
	if _, err := Run(context.Background(), Options{Agent: copilot.Agent{}, Event: "Stop", Library: f.lib.Root, In: bytes.NewReader(data), Out: &out,
		Getenv: func(k string) string { return f.env[k] }, Now: func() time.Time { return f.now }, StopJudge: judge}); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != `{"decision":"block","reason":"the tests are not green"}` {
		t.Errorf("Stop output %s", got)
	}

	end := base("SessionEnd")
	end["reason"] = "complete"
	f.run(copilot.Name, "SessionEnd", end)
}
