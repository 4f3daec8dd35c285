package review

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// A Gemini CLI session file (~/.gemini/tmp/<project>/chats/session-<time>-
// <id>.jsonl, as Gemini CLI 0.61 writes it) is JSON Lines of records:
//
//   - metadata: {"sessionId", "projectHash", "startTime", "kind", …};
//   - a message: {"id", "timestamp", "type": "user" | "gemini" | "info" |
//     "error" | "warning", "content": a string or a list of parts,
//     "toolCalls": [{"id", "name", "args", "result", "status"}], "model"};
//     a record with an id already seen replaces that message in place (a
//     model message gains its tool calls that way);
//   - {"$set": {…}}: metadata; with "messages", the whole list again;
//   - {"$rewindTo": id}: the messages from that one on are dropped.
//
// Older versions wrote one JSON object with a "messages" list (a .json
// file); it is read the same way. A user message whose parts are
// functionResponse parts carries tool results back to the model; one that
// opens with <session_context> is Gemini CLI's own context, not a turn.

// geminiRecord is one line of a session file, or one message.
type geminiRecord struct {
	ID          string            `json:"id"`
	Type        string            `json:"type"`
	Content     json.RawMessage   `json:"content"`
	ToolCalls   []geminiToolCall  `json:"toolCalls"`
	Model       string            `json:"model"`
	SessionID   string            `json:"sessionId"`
	ProjectHash string            `json:"projectHash"`
	Set         *geminiSet        `json:"$set"`
	RewindTo    *string           `json:"$rewindTo"`
	Messages    []json.RawMessage `json:"messages"`
	Directories []string          `json:"directories"`
}

type geminiSet struct {
	Messages    []json.RawMessage `json:"messages"`
	Directories []string          `json:"directories"`
}

type geminiToolCall struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Status string          `json:"status"`
}

// geminiPart is the part of a Gemini content part the review reads.
type geminiPart struct {
	Text             *string `json:"text"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// geminiMessages keeps the session's messages in order, a record with a
// known id replacing its message.
type geminiMessages struct {
	order []string
	byID  map[string]geminiRecord
	line  map[string]int
}

func (g *geminiMessages) set(r geminiRecord, line int) {
	if _, ok := g.byID[r.ID]; !ok {
		g.order = append(g.order, r.ID)
		g.line[r.ID] = line
	}
	g.byID[r.ID] = r
}

func (g *geminiMessages) reset() {
	g.order, g.byID, g.line = nil, map[string]geminiRecord{}, map[string]int{}
}

func (g *geminiMessages) rewind(id string) {
	for i, o := range g.order {
		if o == id {
			for _, d := range g.order[i:] {
				delete(g.byID, d)
			}
			g.order = g.order[:i]
			return
		}
	}
	g.reset()
}

// isGeminiSession reports whether a first line (or a whole legacy file)
// is Gemini CLI's session metadata.
func isGeminiSession(first []byte) bool {
	var probe struct {
		SessionID   *string `json:"sessionId"`
		ProjectHash *string `json:"projectHash"`
	}
	return json.Unmarshal(first, &probe) == nil && probe.SessionID != nil && probe.ProjectHash != nil
}

func readGemini(data []byte, name string) (*Transcript, error) {
	t := &Transcript{}
	msgs := &geminiMessages{}
	msgs.reset()
	add := func(raw json.RawMessage, line int) error {
		var r geminiRecord
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		if r.ID != "" {
			msgs.set(r, line)
		}
		return nil
	}
	trimmed := bytes.TrimSpace(data)
	if bytes.HasPrefix(trimmed, []byte("{")) && !bytes.Contains(trimmed, []byte("\n")) || isLegacyGemini(trimmed) {
		// One JSON object: the legacy .json session (or a one-line file).
		var r geminiRecord
		if err := json.Unmarshal(trimmed, &r); err != nil {
			msg, off := jsonError(err, 0)
			return nil, &ParseError{Name: name, Line: lineAt(trimmed, off), Msg: msg}
		}
		t.SessionID = r.SessionID
		for _, m := range r.Messages {
			if err := add(m, 1); err != nil {
				return nil, &ParseError{Name: name, Line: 1, Msg: "message: " + err.Error()}
			}
		}
	} else {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		lineNo := 0
		for sc.Scan() {
			lineNo++
			raw := bytes.TrimSpace(sc.Bytes())
			if len(raw) == 0 {
				continue
			}
			var r geminiRecord
			if err := json.Unmarshal(raw, &r); err != nil {
				msg, _ := jsonError(err, 0)
				var syn *json.SyntaxError
				if errors.As(err, &syn) && syn.Offset >= int64(len(raw)) || strings.Contains(err.Error(), "unexpected end of JSON input") {
					msg = "truncated JSON line: " + err.Error()
				}
				return nil, &ParseError{Name: name, Line: lineNo, Msg: msg}
			}
			switch {
			case r.RewindTo != nil:
				msgs.rewind(*r.RewindTo)
			case r.ID != "":
				msgs.set(r, lineNo)
			case r.Set != nil:
				if r.Set.Messages != nil {
					msgs.reset()
					for _, m := range r.Set.Messages {
						if err := add(m, lineNo); err != nil {
							return nil, &ParseError{Name: name, Line: lineNo, Msg: "message: " + err.Error()}
						}
					}
				}
				if len(r.Set.Directories) > 0 {
					t.Cwd = r.Set.Directories[0]
				}
			case r.SessionID != "":
				if t.SessionID == "" {
					t.SessionID = r.SessionID
				}
				if len(r.Directories) > 0 {
					t.Cwd = r.Directories[0]
				}
			}
		}
		if err := sc.Err(); err != nil {
			return nil, &ParseError{Name: name, Line: lineNo + 1, Msg: err.Error()}
		}
	}
	geminiConvert(t, msgs)
	return t, nil
}

// isLegacyGemini reports whether data is one JSON object holding the
// session's metadata and its messages (pretty-printed or not).
func isLegacyGemini(data []byte) bool {
	if !bytes.HasPrefix(data, []byte("{")) {
		return false
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	if json.Valid(first) {
		return false // JSON Lines: the first line is a record of its own
	}
	var probe struct {
		SessionID *string         `json:"sessionId"`
		Messages  json.RawMessage `json:"messages"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.SessionID != nil && probe.Messages != nil
}

// geminiParts reads a content that is a string or a list of parts.
func geminiParts(raw json.RawMessage) (text string, results []geminiPart) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []geminiPart
	if json.Unmarshal(raw, &parts) != nil {
		var one geminiPart
		if json.Unmarshal(raw, &one) != nil {
			return "", nil
		}
		parts = []geminiPart{one}
	}
	var texts []string
	for _, p := range parts {
		switch {
		case p.FunctionResponse != nil:
			results = append(results, p)
		case p.Text != nil:
			texts = append(texts, *p.Text)
		}
	}
	return strings.Join(texts, "\n"), results
}

// geminiContext reports a user message Gemini CLI writes itself.
func geminiContext(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(text), "<session_context>") || isContinuation(text)
}

// geminiConvert turns the session's messages into the conversation, its
// turns and iterations, and how the last turn ended.
func geminiConvert(t *Transcript, msgs *geminiMessages) {
	lastPrompt := -1
	var lastAsst int = -1
	var cancelled bool
	for _, id := range msgs.order {
		r, line := msgs.byID[id], msgs.line[id]
		switch r.Type {
		case "user":
			text, results := geminiParts(r.Content)
			for _, res := range results {
				t.Messages = append(t.Messages, Message{Role: "tool", ToolCallID: res.FunctionResponse.ID, Content: string(res.FunctionResponse.Response), Line: line})
			}
			if strings.TrimSpace(text) == "" {
				continue
			}
			ctx := geminiContext(text)
			t.Messages = append(t.Messages, Message{Role: "user", Content: text, Line: line, Context: ctx})
			if ctx {
				continue
			}
			t.Events = append(t.Events, Event{Kind: UserTurn, Line: line})
			lastPrompt, cancelled = len(t.Messages)-1, false
		case "gemini":
			text, _ := geminiParts(r.Content)
			m := Message{Role: "assistant", Content: text, Line: line}
			e := Event{Kind: Iteration, Line: line}
			for _, c := range r.ToolCalls {
				args := "{}"
				var buf bytes.Buffer
				if len(c.Args) > 0 && json.Compact(&buf, c.Args) == nil {
					args = buf.String()
				}
				m.ToolCalls = append(m.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Arguments: args})
				e.Tools = append(e.Tools, c.Name)
				if c.Status == "error" || c.Status == "cancelled" {
					e.FailedTools = append(e.FailedTools, c.Name)
				}
			}
			if strings.TrimSpace(text) == "" && len(m.ToolCalls) == 0 {
				continue
			}
			if r.Model != "" {
				t.Model = r.Model
			}
			t.Messages = append(t.Messages, m)
			t.Events = append(t.Events, e)
			lastAsst = len(t.Messages) - 1
			for _, c := range r.ToolCalls {
				if c.Status == "cancelled" {
					cancelled = true
				}
			}
		case "info", "error", "warning":
			text, _ := geminiParts(r.Content)
			if strings.Contains(strings.ToLower(text), "cancel") {
				cancelled = true
			}
		}
	}
	if lastAsst >= 0 && lastAsst > lastPrompt {
		if cancelled {
			t.Interrupted = true
		} else {
			m := t.Messages[lastAsst]
			t.Final = len(m.ToolCalls) == 0 && strings.TrimSpace(m.Content) != ""
		}
	} else if cancelled {
		t.Interrupted = true
	}
}
