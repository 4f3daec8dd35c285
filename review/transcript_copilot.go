package review

import (
	"bytes"
	"encoding/json"
	"strings"
)

// A GitHub Copilot CLI session file, session-state/<session id>/
// events.jsonl in its folder (docs/agents.md, "GitHub Copilot CLI"): one
// event a line, {"type", "data", "id", "timestamp", "parentId"}, as
// Copilot CLI 1.0.102 writes them. The review reads
//
//   - session.start {"sessionId", "selectedModel", "context": {"cwd"}};
//   - user.message {"content"}: the person's words (transformedContent
//     is Copilot CLI's own wrapping of them, not read);
//   - assistant.message {"model", "content", "toolRequests":
//     [{"toolCallId", "name", "arguments"}]}: one model call;
//   - tool.execution_complete {"toolCallId", "success", "result":
//     {"content"}, "error": {"message"}}: a call's result;
//   - abort: the person interrupted the turn;
//
// and leaves hooks, turns, usage and the rest aside.

type copilotEvent struct {
	Type string `json:"type"`
	Data struct {
		SessionID     string `json:"sessionId"`
		Producer      string `json:"producer"`
		SelectedModel string `json:"selectedModel"`
		Context       struct {
			Cwd string `json:"cwd"`
		} `json:"context"`
		Model        string `json:"model"`
		Content      string `json:"content"`
		ToolRequests []struct {
			ToolCallID string          `json:"toolCallId"`
			Name       string          `json:"name"`
			Arguments  json.RawMessage `json:"arguments"`
		} `json:"toolRequests"`
		ToolCallID string `json:"toolCallId"`
		Success    *bool  `json:"success"`
		Result     struct {
			Content string `json:"content"`
		} `json:"result"`
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	} `json:"data"`
}

// isCopilotFirstLine reports a Copilot CLI session file's first line:
// session.start written by the copilot-agent.
func isCopilotFirstLine(first []byte) bool {
	var ev copilotEvent
	return json.Unmarshal(first, &ev) == nil && ev.Type == "session.start" && ev.Data.Producer == "copilot-agent"
}

func readCopilot(data []byte, name string) (*Transcript, error) {
	t := &Transcript{}
	lastPrompt, lastAsst := -1, -1
	tools := map[string]string{} // call id: tool name
	lines := bytes.Split(data, []byte("\n"))
	for i, raw := range lines {
		line := i + 1
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var ev copilotEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			if i == len(lines)-1 {
				break // a last line Copilot CLI is still writing
			}
			msg, _ := jsonError(err, 0)
			return nil, &ParseError{Name: name, Line: line, Msg: msg}
		}
		d := ev.Data
		switch ev.Type {
		case "session.start":
			t.SessionID, t.Model, t.Cwd = d.SessionID, d.SelectedModel, d.Context.Cwd
		case "user.message":
			if strings.TrimSpace(d.Content) == "" {
				continue
			}
			ctx := isContinuation(d.Content)
			t.Messages = append(t.Messages, Message{Role: "user", Content: d.Content, Line: line, Context: ctx})
			if !ctx {
				t.Events = append(t.Events, Event{Kind: UserTurn, Line: line})
				lastPrompt = len(t.Messages) - 1
				t.Interrupted = false
			}
		case "assistant.message":
			if d.Model != "" {
				t.Model = d.Model
			}
			m := Message{Role: "assistant", Content: d.Content, Line: line}
			e := Event{Kind: Iteration, Line: line}
			for _, r := range d.ToolRequests {
				args := "{}"
				var buf bytes.Buffer
				if len(r.Arguments) > 0 && json.Compact(&buf, r.Arguments) == nil {
					args = buf.String()
				}
				m.ToolCalls = append(m.ToolCalls, ToolCall{ID: r.ToolCallID, Name: r.Name, Arguments: args})
				e.Tools = append(e.Tools, r.Name)
				tools[r.ToolCallID] = r.Name
			}
			if strings.TrimSpace(m.Content) == "" && len(m.ToolCalls) == 0 {
				continue
			}
			t.Messages = append(t.Messages, m)
			t.Events = append(t.Events, e)
			lastAsst = len(t.Messages) - 1
		case "tool.execution_complete":
			content := d.Result.Content
			if d.Success != nil && !*d.Success {
				content = d.Error.Message
				for j := len(t.Events) - 1; j >= 0; j-- {
					if t.Events[j].Kind == Iteration {
						t.Events[j].FailedTools = append(t.Events[j].FailedTools, tools[d.ToolCallID])
						break
					}
				}
			}
			t.Messages = append(t.Messages, Message{Role: "tool", ToolCallID: d.ToolCallID, Content: content, Line: line})
		case "abort":
			t.Interrupted = true
		}
	}
	if lastAsst > lastPrompt && !t.Interrupted {
		m := t.Messages[lastAsst]
		t.Final = len(m.ToolCalls) == 0 && strings.TrimSpace(m.Content) != ""
	}
	return t, nil
}
