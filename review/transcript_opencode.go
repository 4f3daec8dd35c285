package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// An OpenCode session as OpenCode's own API gives it (docs/agents.md,
// "OpenCode"): `opencode export <id>` prints {"info": the session,
// "messages": [...]}, and its server's GET /session/<id>/message (the
// plugin's client.session.messages) the list alone. Each message is
// {"info": {"id", "sessionID", "role": "user" | "assistant", "modelID",
// "providerID", "path": {"cwd"}, "error": {"name"}}, "parts": [...]}, and
// the parts are typed:
//
//   - text {"text", "synthetic"}: a synthetic text is OpenCode's own (a
//     file it read in, a compaction's note), not the user's words;
//   - tool {"callID", "tool", "state": {"status": "completed" | "error" |
//     …, "input", "output", "error"}};
//   - step-start: an assistant message holds one model call per step;
//   - reasoning, file, patch, snapshot, step-finish and others, which
//     the review does not read.
//
// An assistant message whose error is MessageAbortedError was
// interrupted by the person.

type ocMessage struct {
	Info struct {
		ID         string `json:"id"`
		SessionID  string `json:"sessionID"`
		Role       string `json:"role"`
		ModelID    string `json:"modelID"`
		ProviderID string `json:"providerID"`
		Path       struct {
			Cwd string `json:"cwd"`
		} `json:"path"`
		Error *struct {
			Name string `json:"name"`
		} `json:"error"`
	} `json:"info"`
	Parts []ocPart `json:"parts"`
}

type ocPart struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	Synthetic bool   `json:"synthetic"`
	Ignored   bool   `json:"ignored"`
	CallID    string `json:"callID"`
	Tool      string `json:"tool"`
	State     struct {
		Status string          `json:"status"`
		Input  json.RawMessage `json:"input"`
		Output string          `json:"output"`
		Error  string          `json:"error"`
	} `json:"state"`
}

// isOpenCode reports whether data is an OpenCode session: an object whose
// "messages" list, or a list whose first element, is a message with
// "info" and "parts". Only the first message is decoded.
func isOpenCode(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	if tok == json.Delim('{') {
		for {
			k, err := dec.Token()
			if err != nil {
				return false
			}
			if k == "messages" {
				if t, err := dec.Token(); err != nil || t != json.Delim('[') {
					return false
				}
				break
			}
			if _, ok := k.(string); !ok {
				return false
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
		}
	} else if tok != json.Delim('[') {
		return false
	}
	if !dec.More() {
		return false
	}
	var probe struct {
		Info  json.RawMessage `json:"info"`
		Parts json.RawMessage `json:"parts"`
	}
	return dec.Decode(&probe) == nil && probe.Info != nil && probe.Parts != nil
}

func readOpenCode(data []byte, name string) (*Transcript, error) {
	var export struct {
		Info struct {
			ID        string `json:"id"`
			Directory string `json:"directory"`
		} `json:"info"`
		Messages []json.RawMessage `json:"messages"`
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, &ParseError{Name: name, Msg: "empty file"}
	}
	var raws []json.RawMessage
	var err error
	if trimmed[0] == '[' {
		err = json.Unmarshal(trimmed, &raws)
	} else {
		err = json.Unmarshal(trimmed, &export)
		raws = export.Messages
	}
	if err != nil {
		msg, off := jsonError(err, int64(len(trimmed)))
		if off >= int64(len(trimmed)) {
			msg = "truncated JSON: the file ends in the middle of a value"
		}
		return nil, &ParseError{Name: name, Line: lineAt(trimmed, off), Msg: msg}
	}
	if trimmed[0] != '[' && export.Messages == nil {
		return nil, &ParseError{Name: name, Msg: `an OpenCode session is a list of messages or an object with "messages"`}
	}
	t := &Transcript{SessionID: export.Info.ID, Cwd: export.Info.Directory}
	lastPrompt, lastAsst := -1, -1
	for i, raw := range raws {
		var m ocMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			msg, _ := jsonError(err, 0)
			return nil, &ParseError{Name: name, Msg: fmt.Sprintf("message %d: %s", i+1, msg)}
		}
		line := i + 1 // a message's place in the list: the file has no lines of its own
		if t.SessionID == "" {
			t.SessionID = m.Info.SessionID
		}
		switch m.Info.Role {
		case "user":
			var words, own []string
			for _, p := range m.Parts {
				switch {
				case p.Type != "text" || p.Ignored:
				case p.Synthetic:
					own = append(own, p.Text)
				default:
					words = append(words, p.Text)
				}
			}
			if text := strings.Join(own, "\n"); strings.TrimSpace(text) != "" {
				t.Messages = append(t.Messages, Message{Role: "user", Content: text, Line: line, Context: true})
			}
			text := strings.Join(words, "\n")
			if strings.TrimSpace(text) == "" {
				continue
			}
			ctx := isContinuation(text)
			t.Messages = append(t.Messages, Message{Role: "user", Content: text, Line: line, Context: ctx})
			if !ctx {
				t.Events = append(t.Events, Event{Kind: UserTurn, Line: line})
				lastPrompt = len(t.Messages) - 1
				t.Interrupted = false
			}
		case "assistant":
			if m.Info.ModelID != "" {
				t.Model, t.Provider = m.Info.ModelID, m.Info.ProviderID
				if m.Info.ProviderID != "" {
					t.Model = m.Info.ProviderID + "/" + m.Info.ModelID
				}
			}
			if m.Info.Path.Cwd != "" {
				t.Cwd = m.Info.Path.Cwd
			}
			for _, step := range ocSteps(m.Parts) {
				if n := ocStep(t, step, line); n >= 0 {
					lastAsst = n
				}
			}
			if m.Info.Error != nil && m.Info.Error.Name == "MessageAbortedError" {
				t.Interrupted = true
			}
		default:
			return nil, &ParseError{Name: name, Msg: fmt.Sprintf("message %d: unknown role %q", i+1, m.Info.Role)}
		}
	}
	if lastAsst > lastPrompt && !t.Interrupted {
		m := t.Messages[lastAsst]
		t.Final = len(m.ToolCalls) == 0 && strings.TrimSpace(m.Content) != ""
	}
	return t, nil
}

// ocSteps splits an assistant message's parts at each step-start: one
// model call each.
func ocSteps(parts []ocPart) [][]ocPart {
	var steps [][]ocPart
	cur := []ocPart{}
	for _, p := range parts {
		if p.Type == "step-start" && len(cur) > 0 {
			steps = append(steps, cur)
			cur = []ocPart{}
		}
		cur = append(cur, p)
	}
	return append(steps, cur)
}

// ocStep adds one model call: the assistant message (its text and tool
// calls) and the tool results after it. It returns the assistant
// message's index, -1 when the step said and called nothing.
func ocStep(t *Transcript, parts []ocPart, line int) int {
	m := Message{Role: "assistant", Line: line}
	e := Event{Kind: Iteration, Line: line}
	var texts []string
	var results []Message
	for _, p := range parts {
		switch p.Type {
		case "text":
			if !p.Synthetic && !p.Ignored {
				texts = append(texts, p.Text)
			}
		case "tool":
			args := "{}"
			var buf bytes.Buffer
			if len(p.State.Input) > 0 && json.Compact(&buf, p.State.Input) == nil {
				args = buf.String()
			}
			m.ToolCalls = append(m.ToolCalls, ToolCall{ID: p.CallID, Name: p.Tool, Arguments: args})
			e.Tools = append(e.Tools, p.Tool)
			switch p.State.Status {
			case "completed":
				results = append(results, Message{Role: "tool", ToolCallID: p.CallID, Content: p.State.Output, Line: line})
			case "error":
				e.FailedTools = append(e.FailedTools, p.Tool)
				results = append(results, Message{Role: "tool", ToolCallID: p.CallID, Content: p.State.Error, Line: line})
			}
		}
	}
	m.Content = strings.Join(texts, "\n")
	if strings.TrimSpace(m.Content) == "" && len(m.ToolCalls) == 0 {
		return -1
	}
	t.Messages = append(t.Messages, m)
	n := len(t.Messages) - 1
	t.Messages = append(t.Messages, results...)
	t.Events = append(t.Events, e)
	return n
}
