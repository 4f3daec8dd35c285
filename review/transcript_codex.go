package review

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ---- Codex rollout files ----
//
// Codex writes a session to $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl.
// Since mid 2025 every line is an envelope {"timestamp","type","payload"}:
// session_meta (first line: id, cwd, cli_version), turn_context (the
// settings of a turn), response_item (what went to and came from the model:
// messages, reasoning, function_call / custom_tool_call / local_shell_call
// and their *_output paired by call_id), event_msg (UI events:
// user_message, agent_message, token_count, task_started, task_complete,
// turn_aborted) and compacted. Older builds wrote a bare header line {id,
// timestamp, instructions}, {"record_type":"state"} markers and bare
// response items without the envelope; both shapes are read here. Kinds a
// newer build adds are skipped, so a new Codex does not break a review.

// codexEnvelopeTypes are the top-level line types of an enveloped rollout.
var codexEnvelopeTypes = map[string]bool{
	"session_meta": true, "turn_context": true, "response_item": true,
	"event_msg": true, "compacted": true,
}

// codexItemTypes are the response items a pre-envelope rollout writes bare.
var codexItemTypes = map[string]bool{
	"message": true, "reasoning": true, "function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true, "local_shell_call": true,
	"web_search_call": true,
}

// isCodexFirstLine tells a rollout's first line: an envelope, or the bare
// header of a pre-envelope rollout ({id, timestamp} and no "type").
func isCodexFirstLine(line []byte) bool {
	var probe struct {
		Type      *string         `json:"type"`
		Payload   json.RawMessage `json:"payload"`
		ID        *string         `json:"id"`
		Timestamp *string         `json:"timestamp"`
		Messages  json.RawMessage `json:"messages"`
	}
	if json.Unmarshal(line, &probe) != nil || probe.Messages != nil {
		return false
	}
	if probe.Type != nil {
		return codexEnvelopeTypes[*probe.Type] && probe.Payload != nil
	}
	return probe.ID != nil && probe.Timestamp != nil
}

type codexLine struct {
	Type       string          `json:"type"`
	Payload    json.RawMessage `json:"payload"`
	RecordType string          `json:"record_type"`
	ID         string          `json:"id"`
	Timestamp  string          `json:"timestamp"`
}

type codexItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	Action    json.RawMessage `json:"action"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	// Message is the text of a user_message event; ID the session's id
	// in session_meta.
	Message json.RawMessage `json:"message"`
	ID      string          `json:"id"`
	// session_meta and turn_context: where and with what the session ran.
	Cwd           string `json:"cwd"`
	Model         string `json:"model"`
	ModelProvider string `json:"model_provider"`
}

// codexContextPrefixes open the user-role messages Codex writes itself
// (environment, AGENTS.md and instructions, an aborted-turn notice, a
// shell command the user ran with "!"): context for the model, not a
// question from the user.
var codexContextPrefixes = []string{
	"<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<INSTRUCTIONS>",
	"<turn_aborted>", "<user_shell_command>", "<subagent_notification>", "<permissions instructions>",
}

func codexContext(text string) bool {
	if isContinuation(text) {
		return true
	}
	s := strings.TrimSpace(text)
	for _, p := range codexContextPrefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// codexState follows a rollout line by line.
type codexState struct {
	t         *Transcript
	name      string
	iterOpen  bool // a run of model output is open: more output joins its iteration
	asst      int  // index in t.Messages of the open iteration's assistant message, or -1
	iterEvent int  // index in t.Events of the open iteration
	toolEvent map[string]int
	failed    map[string]bool
	// Typed prompts: user_message events when the file has them (every
	// build since the envelope), else the user messages that are not
	// context.
	eventTurns, itemTurns []int
	aborts                []int // lines of turn_aborted events and notices
	completes             []int // lines of task_complete events
}

func readCodex(data []byte, name string) (*Transcript, error) {
	s := &codexState{t: &Transcript{}, name: name, asst: -1, toolEvent: map[string]int{}, failed: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	lineNo, seen := 0, 0
	for sc.Scan() {
		lineNo++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		seen++
		var l codexLine
		if err := json.Unmarshal(raw, &l); err != nil {
			msg, _ := jsonError(err, 0)
			if strings.Contains(err.Error(), "unexpected end of JSON input") {
				msg = "truncated JSON line: " + err.Error()
			}
			return nil, &ParseError{Name: name, Line: lineNo, Msg: msg}
		}
		var err error
		switch {
		case l.Type == "" && seen == 1 && l.ID != "":
			s.t.SessionID = l.ID // the pre-envelope header
		case l.Type == "" || l.RecordType != "":
			// {"record_type":"state"} and anything else without a kind.
		case l.Type == "session_meta":
			var meta codexItem
			if err = json.Unmarshal(l.Payload, &meta); err == nil {
				if s.t.SessionID == "" {
					s.t.SessionID = meta.ID
				}
				s.t.Cwd = cmp.Or(meta.Cwd, s.t.Cwd)
				s.t.Provider = cmp.Or(meta.ModelProvider, s.t.Provider)
			}
		case l.Type == "turn_context":
			var tc codexItem
			if json.Unmarshal(l.Payload, &tc) == nil {
				s.t.Model = cmp.Or(tc.Model, s.t.Model)
				s.t.Cwd = cmp.Or(tc.Cwd, s.t.Cwd)
			}
		case l.Type == "response_item":
			err = s.item(l.Payload, lineNo)
		case l.Type == "event_msg":
			err = s.event(l.Payload, lineNo)
		case l.Type == "compacted":
			s.closeIteration()
		case l.Payload == nil && codexItemTypes[l.Type]:
			err = s.item(raw, lineNo) // a bare item of a pre-envelope rollout
		}
		if err != nil {
			return nil, &ParseError{Name: name, Line: lineNo, Msg: err.Error()}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{Name: name, Line: lineNo + 1, Msg: err.Error()}
	}
	s.finish()
	return s.t, nil
}

func (s *codexState) closeIteration() { s.iterOpen, s.asst = false, -1 }

// modelOutput joins a model item to the open iteration or opens one: a
// model call's items (reasoning, text, calls) are written one after the
// other, and a tool result or a user message ends the call.
func (s *codexState) modelOutput(line int) {
	if !s.iterOpen {
		s.iterOpen = true
		s.iterEvent = len(s.t.Events)
		s.t.Events = append(s.t.Events, Event{Kind: Iteration, Line: line})
	}
}

// assistant is the open iteration's assistant message, made on first use
// (an iteration of reasoning alone has none).
func (s *codexState) assistant(line int) *Message {
	if s.asst < 0 {
		s.t.Messages = append(s.t.Messages, Message{Role: "assistant", Line: line})
		s.asst = len(s.t.Messages) - 1
	}
	return &s.t.Messages[s.asst]
}

func (s *codexState) call(id, name, args string, line int) {
	s.modelOutput(line)
	m := s.assistant(line)
	m.ToolCalls = append(m.ToolCalls, ToolCall{ID: id, Name: name, Arguments: args})
	ev := &s.t.Events[s.iterEvent]
	ev.Tools = append(ev.Tools, name)
	if id != "" {
		s.toolEvent[id] = s.iterEvent
	}
}

func (s *codexState) item(payload json.RawMessage, line int) error {
	var it codexItem
	if err := json.Unmarshal(payload, &it); err != nil {
		msg, _ := jsonError(err, 0)
		return errors.New("response item: " + msg)
	}
	switch it.Type {
	case "message":
		content, parts, err := contentText(it.Content)
		if err != nil {
			return fmt.Errorf("%s message: %v", it.Role, err)
		}
		text := content
		if parts != nil {
			text = strings.Join(parts, "\n")
		}
		switch it.Role {
		case "assistant":
			s.modelOutput(line)
			m := s.assistant(line)
			if m.Content != "" && text != "" {
				m.Content += "\n"
			}
			m.Content += text
		case "user":
			s.closeIteration()
			s.t.Messages = append(s.t.Messages, Message{Role: "user", Content: text, Line: line, Context: codexContext(text)})
			switch {
			case strings.HasPrefix(strings.TrimSpace(text), "<turn_aborted>"):
				s.aborts = append(s.aborts, line)
			case !codexContext(text):
				s.itemTurns = append(s.itemTurns, line)
			}
		case "developer", "system":
			// Codex's own instructions (permissions, collaboration mode):
			// the harness speaking, not the conversation.
			s.closeIteration()
		default:
			return fmt.Errorf("message with unknown role %q", it.Role)
		}
	case "reasoning", "web_search_call", "tool_search_call", "image_generation_call":
		// Model output the review needs no text of; a hosted tool call
		// has no result of its own in the conversation.
		s.modelOutput(line)
	case "function_call":
		if it.Name == "" {
			return errors.New("function_call without a name")
		}
		s.call(it.CallID, it.Name, argumentsText(it.Arguments), line)
	case "custom_tool_call":
		// A freeform tool (apply_patch): its input is text, which a
		// chat-completions tool call carries as a JSON argument.
		var input string
		if err := json.Unmarshal(it.Input, &input); err != nil && len(it.Input) > 0 {
			input = string(it.Input)
		}
		args, _ := json.Marshal(map[string]string{"input": input})
		s.call(it.CallID, it.Name, string(args), line)
	case "local_shell_call":
		args := "{}"
		if len(it.Action) > 0 {
			var buf bytes.Buffer
			if json.Compact(&buf, it.Action) == nil {
				args = buf.String()
			}
		}
		s.call(it.CallID, "local_shell", args, line)
	case "function_call_output", "custom_tool_call_output":
		s.closeIteration()
		text, failed := codexOutput(it.Output)
		s.t.Messages = append(s.t.Messages, Message{Role: "tool", ToolCallID: it.CallID, Content: text, Line: line})
		if failed {
			s.failed[it.CallID] = true
		}
	}
	// ghost_snapshot, compaction and kinds added later carry nothing the
	// review replays.
	return nil
}

func (s *codexState) event(payload json.RawMessage, line int) error {
	var it codexItem
	if err := json.Unmarshal(payload, &it); err != nil {
		msg, _ := jsonError(err, 0)
		return errors.New("event: " + msg)
	}
	switch it.Type {
	case "user_message":
		s.closeIteration()
		s.eventTurns = append(s.eventTurns, line)
	case "turn_aborted":
		s.closeIteration()
		s.aborts = append(s.aborts, line)
	case "task_complete":
		s.closeIteration()
		s.completes = append(s.completes, line)
	}
	return nil
}

// codexOutput reads a tool result: a string (some builds wrap a JSON
// {"output","metadata"} in it), an object {"content","success"}, or a list
// of content items. failed says the tool reported failure.
func codexOutput(raw json.RawMessage) (text string, failed bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, toolFailed(s)
	}
	var obj struct {
		Content json.RawMessage `json:"content"`
		Success *bool           `json:"success"`
	}
	if raw[0] == '{' && json.Unmarshal(raw, &obj) == nil {
		t, _ := codexOutput(obj.Content)
		return t, obj.Success != nil && !*obj.Success
	}
	var items []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &items) == nil {
		parts := make([]string, 0, len(items))
		for _, it := range items {
			if it.Text != "" {
				parts = append(parts, it.Text)
			} else {
				parts = append(parts, "["+it.Type+"]")
			}
		}
		return strings.Join(parts, "\n"), false
	}
	return string(raw), false
}

// finish marks failed calls, places the user turns among the iterations
// and works out how the last turn ended.
func (s *codexState) finish() {
	t := s.t
	for _, m := range t.Messages {
		for _, c := range m.ToolCalls {
			if ev, ok := s.toolEvent[c.ID]; ok && s.failed[c.ID] {
				t.Events[ev].FailedTools = append(t.Events[ev].FailedTools, c.Name)
			}
		}
	}
	turnLines := s.eventTurns
	if len(turnLines) == 0 {
		turnLines = s.itemTurns
	}
	events := make([]Event, 0, len(turnLines)+len(t.Events))
	i, j := 0, 0
	for i < len(turnLines) || j < len(t.Events) {
		if j >= len(t.Events) || (i < len(turnLines) && turnLines[i] < t.Events[j].Line) {
			events = append(events, Event{Kind: UserTurn, Line: turnLines[i]})
			i++
		} else {
			events = append(events, t.Events[j])
			j++
		}
	}
	t.Events = events

	last := 0
	if len(turnLines) > 0 {
		last = turnLines[len(turnLines)-1]
	}
	lastAsst := -1
	for k := len(t.Messages) - 1; k >= 0; k-- {
		if t.Messages[k].Role == "assistant" && t.Messages[k].Line > last {
			lastAsst = k
			break
		}
	}
	// An abort after the last turn began voids its answer unless the
	// model answered after the abort (the abort was of an earlier call).
	for _, a := range s.aborts {
		if a > last && (lastAsst < 0 || a > t.Messages[lastAsst].Line) {
			t.Interrupted = true
		}
	}
	if lastAsst >= 0 && !t.Interrupted {
		m := t.Messages[lastAsst]
		// The answer is final when it is text without calls and nothing
		// the model did came after it.
		final := len(m.ToolCalls) == 0 && strings.TrimSpace(m.Content) != ""
		for _, e := range t.Events {
			if e.Kind == Iteration && e.Line > m.Line {
				final = false
			}
		}
		t.Final = final
	}
}
