package review

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// Format names a transcript format.
type Format string

// The formats [Read] understands.
const (
	FormatAuto       Format = "auto"
	FormatOpenAI     Format = "openai"                 // chat-messages JSON: a list, or {"messages": [...]}
	FormatClaudeCode Format = Format(agent.ClaudeCode) // a Claude Code session file (JSON Lines)
	FormatCodex      Format = Format(agent.Codex)      // a Codex rollout file (JSON Lines)
	FormatGemini     Format = Format(agent.Gemini)     // a Gemini CLI session file (JSON Lines)
	FormatOpenCode   Format = Format(agent.OpenCode)   // an OpenCode session as its API exports it (JSON)
	FormatCopilot    Format = Format(agent.Copilot)    // a GitHub Copilot CLI session file (events.jsonl)
)

// MaxTranscriptBytes bounds a transcript: [Read] refuses a larger one
// without loading more than this (a long Claude Code session is a few MiB;
// the review digests anything long anyway).
const MaxTranscriptBytes = 32 << 20

// ParseFormat accepts the --format values.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case "", FormatAuto:
		return FormatAuto, nil
	case FormatOpenAI, FormatClaudeCode, FormatCodex, FormatGemini, FormatOpenCode, FormatCopilot:
		return f, nil
	}
	return "", fmt.Errorf("unknown transcript format %q: use auto, openai, claude-code, codex, gemini, opencode or copilot", s)
}

// Message is one message of a conversation, in chat-completions shape.
type Message struct {
	Role string // system, developer, user, assistant or tool
	// Content is the text. When the source held a list of content parts,
	// Parts holds their texts instead (so a replay can send the same parts)
	// and Content is empty.
	Content    string
	Parts      []string
	ToolCalls  []ToolCall // assistant
	ToolCallID string     // tool
	Name       string
	Line       int // where the message starts in the source (1-based)
	// Context marks a user-role message the agent program or skillrepo
	// wrote (Codex's <environment_context>, Gemini CLI's
	// <session_context>, a goal's continuation prompt): not the user's
	// words and no turn of theirs.
	Context bool
}

// ContinuationMark opens the prompt skillrepo's goal loop continues an
// agent with (package goals writes it); the agent's transcript shows it
// as a user message, which is no turn of the user.
const ContinuationMark = "[Continuing toward your standing goal]"

// isContinuation reports our goal loop's continuation prompt, at the
// start of a message or of the agent's wrapping of it (Claude Code's
// "Stop hook feedback:").
func isContinuation(text string) bool {
	s := strings.TrimSpace(text)
	return strings.Contains(s[:min(len(s), 200)], ContinuationMark)
}

// Text is the message's text, parts joined by newlines.
func (m Message) Text() string {
	if m.Parts != nil {
		return strings.Join(m.Parts, "\n")
	}
	return m.Content
}

// ToolCall is a tool call of an assistant message.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string // JSON text as the model wrote it
}

// EventKind tells a user turn from a model iteration.
type EventKind int

// Event kinds.
const (
	UserTurn  EventKind = iota // the user asked something that made the agent run
	Iteration                  // one model call of the agent
)

// Event is a user turn or a model iteration, in transcript order: what
// the reference's nudge counters count (docs/reference-behaviour.md §1.2, §1.3).
type Event struct {
	Kind  EventKind
	Line  int
	Tools []string // for an Iteration: the tools it called, in order
	// FailedTools are the tools whose result was an error: a blocked or
	// malformed call does not reset a counter (docs/reference-behaviour.md §1.4).
	FailedTools []string
}

// Transcript is a finished conversation read from a file.
type Transcript struct {
	Format    Format
	SessionID string // when the file names one
	Messages  []Message
	Events    []Event
	// Final says the last turn ended with a final answer: the agent's last
	// message is text without tool calls, and nothing interrupted it.
	Final bool
	// Interrupted says the user interrupted the last turn.
	Interrupted bool
	SHA256      string // of the file's bytes
	// Model is the model the session's last model call used, and
	// Provider the model provider Codex names, when the file says: a
	// review through the agent's own program runs as its session did.
	Model    string
	Provider string
	// Cwd is the folder the session ran in, when the file says.
	Cwd string
}

// UserTurns counts the user turns.
func (t *Transcript) UserTurns() int { return t.count(UserTurn) }

// Iterations counts the model iterations.
func (t *Transcript) Iterations() int { return t.count(Iteration) }

func (t *Transcript) count(k EventKind) int {
	n := 0
	for _, e := range t.Events {
		if e.Kind == k {
			n++
		}
	}
	return n
}

// ParseError is a transcript that cannot be read, with the line at fault.
type ParseError struct {
	Name string // file name as given
	Line int
	Msg  string
	// Err is the sentinel behind it, when there is one (ErrNoConversation).
	Err error
}

// Unwrap returns the sentinel behind the error, if any.
func (e *ParseError) Unwrap() error { return e.Err }

// ErrNoConversation is a transcript with no conversation in it yet: a
// session that ended (or stopped) before its first exchange.
var ErrNoConversation = errors.New("the transcript holds no conversation messages")

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Name, e.Msg)
}

// Read reads a transcript. name is used in error messages. With
// [FormatAuto] the format is the one [Detect] finds. Errors are
// [*ParseError]s naming the line.
func Read(r io.Reader, name string, format Format) (*Transcript, error) {
	data, err := boundedread.ReadAll(r, name, MaxTranscriptBytes)
	if err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	if format == FormatAuto || format == "" {
		format = Detect(data)
	}
	var t *Transcript
	switch format {
	case FormatOpenAI:
		t, err = readOpenAI(data, name)
	case FormatClaudeCode:
		t, err = readClaudeCode(data, name)
	case FormatCodex:
		t, err = readCodex(data, name)
	case FormatGemini:
		t, err = readGemini(data, name)
	case FormatOpenCode:
		t, err = readOpenCode(data, name)
	case FormatCopilot:
		t, err = readCopilot(data, name)
	default:
		return nil, fmt.Errorf("read transcript %s: unknown format %q", name, format)
	}
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	t.SHA256 = hex.EncodeToString(sum[:])
	t.Format = format
	if len(t.Messages) == 0 {
		return nil, &ParseError{Name: name, Msg: ErrNoConversation.Error(), Err: ErrNoConversation}
	}
	return t, nil
}

// Detect guesses the format of a transcript's bytes from its first line:
// a Codex rollout envelope ({"type":"session_meta","payload":…}) or the
// bare header of an older rollout ({"id","timestamp"}) is Codex, another
// OpenCode session (messages of "info" and "parts") is OpenCode, another
// JSON object with a "type" field a Claude Code session, and anything else
// chat-messages JSON.
func Detect(data []byte) Format {
	first, _, _ := bytes.Cut(bytes.TrimLeft(data, " \t\r\n\ufeff"), []byte("\n"))
	if isCodexFirstLine(first) {
		return FormatCodex
	}
	if isGeminiSession(first) || isLegacyGemini(bytes.TrimSpace(data)) {
		return FormatGemini
	}
	if isCopilotFirstLine(first) {
		return FormatCopilot
	}
	if isOpenCode(data) {
		return FormatOpenCode
	}
	var probe struct {
		Type     *string         `json:"type"`
		Messages json.RawMessage `json:"messages"`
	}
	if json.Unmarshal(first, &probe) == nil && probe.Type != nil && probe.Messages == nil {
		return FormatClaudeCode
	}
	return FormatOpenAI
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// jsonError turns a decoding error into a message and the offset it
// happened at, when known.
func jsonError(err error, fallback int64) (string, int64) {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return "invalid JSON: " + syn.Error(), syn.Offset
	case errors.As(err, &typ):
		return fmt.Sprintf("field %q must be %s, not JSON %s", typ.Field, typ.Type, typ.Value), typ.Offset
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "truncated JSON: the file ends in the middle of a value", fallback
	}
	return "invalid JSON: " + err.Error(), fallback
}

// ---- OpenAI chat messages ----

type oaMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Name       string          `json:"name"`
	ToolCalls  []oaToolCall    `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
	// FunctionCall is the legacy single-call form.
	FunctionCall *oaFunction `json:"function_call"`
}

type oaToolCall struct {
	ID       string     `json:"id"`
	Type     string     `json:"type"`
	Function oaFunction `json:"function"`
}

type oaFunction struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func readOpenAI(data []byte, name string) (*Transcript, error) {
	fail := func(off int64, format string, args ...any) error {
		return &ParseError{Name: name, Line: lineAt(data, off), Msg: fmt.Sprintf(format, args...)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		if len(bytes.TrimSpace(data)) == 0 {
			return nil, &ParseError{Name: name, Msg: "empty file"}
		}
		msg, off := jsonError(err, int64(len(data)))
		return nil, fail(off, "%s", msg)
	}
	t := &Transcript{}
	switch tok {
	case json.Delim('['):
		if err := readOAArray(dec, data, name, t); err != nil {
			return nil, err
		}
	case json.Delim('{'):
		found := false
		for dec.More() {
			keyOff := dec.InputOffset()
			k, err := dec.Token()
			if err != nil {
				msg, off := jsonError(err, int64(len(data)))
				return nil, fail(off, "%s", msg)
			}
			key, _ := k.(string)
			switch key {
			case "messages":
				open, err := dec.Token()
				if err != nil {
					msg, off := jsonError(err, int64(len(data)))
					return nil, fail(off, "%s", msg)
				}
				if open != json.Delim('[') {
					return nil, fail(keyOff, `"messages" must be a list of messages`)
				}
				if err := readOAArray(dec, data, name, t); err != nil {
					return nil, err
				}
				found = true
			case "session_id", "sessionId":
				var s string
				if err := dec.Decode(&s); err == nil {
					t.SessionID = s
				} else {
					msg, off := jsonError(err, int64(len(data)))
					return nil, fail(off, "%s", msg)
				}
			default:
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					msg, off := jsonError(err, int64(len(data)))
					return nil, fail(off, "%s", msg)
				}
			}
		}
		if _, err := dec.Token(); err != nil {
			msg, off := jsonError(err, int64(len(data)))
			return nil, fail(off, "%s", msg)
		}
		if !found {
			return nil, fail(0, `the JSON object has no "messages" list`)
		}
	default:
		return nil, fail(0, "expected a list of messages or an object with \"messages\"")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fail(dec.InputOffset(), "unexpected data after the end of the JSON value")
	}
	finishOpenAI(t)
	return t, nil
}

func readOAArray(dec *json.Decoder, data []byte, name string, t *Transcript) error {
	for dec.More() {
		start := skipSpace(data, dec.InputOffset())
		line := lineAt(data, start)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			msg, off := jsonError(err, int64(len(data)))
			return &ParseError{Name: name, Line: lineAt(data, off), Msg: msg}
		}
		m, err := convertOA(raw)
		if err != nil {
			return &ParseError{Name: name, Line: line, Msg: fmt.Sprintf("message %d: %v", len(t.Messages)+1, err)}
		}
		m.Line = line
		t.Messages = append(t.Messages, m)
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		msg, off := jsonError(err, int64(len(data)))
		return &ParseError{Name: name, Line: lineAt(data, off), Msg: msg}
	}
	return nil
}

// skipSpace moves off past whitespace and the comma between elements, so
// a message's line is the line of its opening brace.
func skipSpace(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',':
			off++
		default:
			return off
		}
	}
	return off
}

func convertOA(raw json.RawMessage) (Message, error) {
	var om oaMessage
	if err := json.Unmarshal(raw, &om); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return Message{}, fmt.Errorf("field %q must be %s, not JSON %s", typ.Field, typ.Type, typ.Value)
		}
		return Message{}, fmt.Errorf("not a message object: %v", err)
	}
	m := Message{Role: om.Role, Name: om.Name, ToolCallID: om.ToolCallID}
	switch om.Role {
	case "system", "developer", "user", "assistant", "tool":
	case "function":
		m.Role = "tool" // the legacy function-result role
	case "":
		return Message{}, errors.New(`"role" is missing`)
	default:
		return Message{}, fmt.Errorf("unknown role %q", om.Role)
	}
	content, parts, err := contentText(om.Content)
	if err != nil {
		return Message{}, err
	}
	m.Content, m.Parts = content, parts
	for i, c := range om.ToolCalls {
		if c.Function.Name == "" {
			return Message{}, fmt.Errorf("tool call %d has no function name", i+1)
		}
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: argumentsText(c.Function.Arguments)})
	}
	if om.FunctionCall != nil && om.FunctionCall.Name != "" {
		m.ToolCalls = append(m.ToolCalls, ToolCall{Name: om.FunctionCall.Name, Arguments: argumentsText(om.FunctionCall.Arguments)})
	}
	if len(m.ToolCalls) > 0 && m.Role != "assistant" {
		return Message{}, fmt.Errorf("a %s message cannot carry tool calls", m.Role)
	}
	return m, nil
}

// argumentsText accepts arguments as the JSON string the API sends, or as
// an object some exporters write.
func argumentsText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) == 0 || string(raw) == "null" {
		return "{}"
	}
	return string(raw)
}

// contentText reads a message's content: a string, null, or a list of
// parts whose texts are kept (other parts become a placeholder).
func contentText(raw json.RawMessage) (string, []string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil, nil
	}
	var s string
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", nil, fmt.Errorf("content: %v", err)
		}
		return s, nil, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", nil, errors.New(`"content" must be a string, null or a list of parts`)
	}
	texts := []string{}
	for _, p := range parts {
		switch p.Type {
		case "text", "input_text", "output_text":
			texts = append(texts, p.Text)
		default:
			texts = append(texts, "["+p.Type+"]")
		}
	}
	return "", texts, nil
}

// finishOpenAI derives the events and the last turn's state. Every user
// message is a turn (the reference counts role == user when it hydrates
// its counter) and every assistant message one model call.
func finishOpenAI(t *Transcript) {
	failed := map[string]bool{}
	for _, m := range t.Messages {
		if m.Role == "tool" && m.ToolCallID != "" && toolFailed(m.Text()) {
			failed[m.ToolCallID] = true
		}
	}
	for _, m := range t.Messages {
		switch m.Role {
		case "user":
			t.Events = append(t.Events, Event{Kind: UserTurn, Line: m.Line})
		case "assistant":
			e := Event{Kind: Iteration, Line: m.Line}
			for _, c := range m.ToolCalls {
				e.Tools = append(e.Tools, c.Name)
				if failed[c.ID] {
					e.FailedTools = append(e.FailedTools, c.Name)
				}
			}
			t.Events = append(t.Events, e)
		}
	}
	if n := len(t.Messages); n > 0 {
		last := t.Messages[n-1]
		t.Final = last.Role == "assistant" && len(last.ToolCalls) == 0 && strings.TrimSpace(last.Text()) != ""
	}
}

// toolFailed recognises a tool result that reports failure in the
// reference's JSON shape ({"success": false, ...}).
func toolFailed(text string) bool {
	var r struct {
		Success *bool `json:"success"`
	}
	return json.Unmarshal([]byte(strings.TrimSpace(text)), &r) == nil && r.Success != nil && !*r.Success
}

// ---- Claude Code session files ----

type ccLine struct {
	Type              string    `json:"type"`
	IsSidechain       bool      `json:"isSidechain"`
	IsMeta            bool      `json:"isMeta"`
	IsCompactSummary  bool      `json:"isCompactSummary"`
	IsAPIErrorMessage bool      `json:"isApiErrorMessage"`
	SessionID         string    `json:"sessionId"`
	Cwd               string    `json:"cwd"`
	Message           ccMessage `json:"message"`
}

type ccMessage struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
}

type ccBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// userKind classifies a user line's text.
type userKind int

const (
	kindPrompt      userKind = iota // something the user typed
	kindCommand                     // a slash command (a turn unless it ran locally)
	kindLocalOutput                 // output of a local command, or its caveat
	kindInterrupt                   // "[Request interrupted by user…]"
	kindContext                     // isMeta / compaction summary: context, not a turn
)

func classifyUser(l ccLine, text string) userKind {
	s := strings.TrimSpace(text)
	switch {
	case l.IsMeta || l.IsCompactSummary || isContinuation(s):
		return kindContext
	case strings.HasPrefix(s, "[Request interrupted by user"):
		return kindInterrupt
	case strings.HasPrefix(s, "<local-command-stdout>"), strings.HasPrefix(s, "<local-command-stderr>"),
		strings.HasPrefix(s, "<local-command-caveat>"):
		return kindLocalOutput
	case strings.HasPrefix(s, "<command-name>"), strings.HasPrefix(s, "<command-message>"):
		return kindCommand
	}
	return kindPrompt
}

// ccUser is a user text line awaiting classification (a command is a turn
// only when no local output follows it).
type ccUser struct {
	msgIndex int
	kind     userKind
	line     int
}

func readClaudeCode(data []byte, name string) (*Transcript, error) {
	t := &Transcript{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	var (
		users      []ccUser
		lastAsstID string
		lastAsst   = -1 // index in t.Messages of the open assistant message
		iterOf     = map[string]int{}
		failed     = map[string]bool{} // tool_use ids whose result was an error
		toolEvent  = map[string]int{}  // tool_use id -> its iteration's event index
		lineNo     int
	)
	for sc.Scan() {
		lineNo++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var l ccLine
		if err := json.Unmarshal(raw, &l); err != nil {
			msg, _ := jsonError(err, 0)
			var syn *json.SyntaxError
			if errors.As(err, &syn) && syn.Offset >= int64(len(raw)) || strings.Contains(err.Error(), "unexpected end of JSON input") {
				msg = "truncated JSON line: " + err.Error()
			}
			return nil, &ParseError{Name: name, Line: lineNo, Msg: msg}
		}
		if l.SessionID != "" && t.SessionID == "" {
			t.SessionID = l.SessionID
		}
		if l.Cwd != "" && !l.IsSidechain {
			t.Cwd = l.Cwd
		}
		if l.IsSidechain || (l.Type != "user" && l.Type != "assistant") {
			continue
		}
		switch l.Type {
		case "assistant":
			if l.Message.Model == "<synthetic>" || l.IsAPIErrorMessage {
				continue // written by Claude Code itself, not a model call
			}
			if l.Message.Model != "" {
				t.Model = l.Message.Model
			}
			blocks, err := ccBlocks(l.Message.Content)
			if err != nil {
				return nil, &ParseError{Name: name, Line: lineNo, Msg: "assistant message: " + err.Error()}
			}
			id := l.Message.ID
			if id == "" {
				id = fmt.Sprintf("line-%d", lineNo)
			}
			// Claude Code writes one line per content block; lines of one
			// API response share the message id and make one message (and
			// one model iteration), even with tool results between them.
			if id != lastAsstID || lastAsst < 0 {
				t.Messages = append(t.Messages, Message{Role: "assistant", Line: lineNo})
				lastAsst, lastAsstID = len(t.Messages)-1, id
				if _, seen := iterOf[id]; !seen {
					iterOf[id] = len(t.Events)
					t.Events = append(t.Events, Event{Kind: Iteration, Line: lineNo})
				}
			}
			m := &t.Messages[lastAsst]
			ev := &t.Events[iterOf[id]]
			for _, b := range blocks {
				switch b.Type {
				case "text":
					if m.Content != "" && b.Text != "" {
						m.Content += "\n"
					}
					m.Content += b.Text
				case "tool_use":
					args := "{}"
					if len(b.Input) > 0 {
						var buf bytes.Buffer
						if json.Compact(&buf, b.Input) == nil {
							args = buf.String()
						}
					}
					m.ToolCalls = append(m.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
					ev.Tools = append(ev.Tools, b.Name)
					toolEvent[b.ID] = iterOf[id]
				}
			}
		case "user":
			text, results, err := ccUserContent(l.Message.Content)
			if err != nil {
				return nil, &ParseError{Name: name, Line: lineNo, Msg: "user message: " + err.Error()}
			}
			for _, r := range results {
				t.Messages = append(t.Messages, Message{Role: "tool", ToolCallID: r.ToolUseID, Content: r.Text, Line: lineNo})
				if r.IsError {
					failed[r.ToolUseID] = true
				}
			}
			if text == nil {
				continue
			}
			kind := classifyUser(l, *text)
			t.Messages = append(t.Messages, Message{Role: "user", Content: *text, Line: lineNo, Context: kind == kindContext})
			users = append(users, ccUser{msgIndex: len(t.Messages) - 1, kind: kind, line: lineNo})
			lastAsst, lastAsstID = -1, ""
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{Name: name, Line: lineNo + 1, Msg: err.Error()}
	}
	for _, m := range t.Messages {
		for _, c := range m.ToolCalls {
			if ev, ok := toolEvent[c.ID]; ok && failed[c.ID] {
				t.Events[ev].FailedTools = append(t.Events[ev].FailedTools, c.Name)
			}
		}
	}
	finishClaudeCode(t, users)
	return t, nil
}

// finishClaudeCode inserts the user turns among the iterations and works
// out how the last turn ended.
func finishClaudeCode(t *Transcript, users []ccUser) {
	var turns []Event
	for i, u := range users {
		k := u.kind
		if k == kindCommand {
			// A command whose next user line is local output ran without
			// the model (/compact, /mcp, /model); any other command (a
			// custom command or a skill) started a turn.
			local := false
			for _, next := range users[i+1:] {
				if next.kind == kindContext {
					continue
				}
				local = next.kind == kindLocalOutput
				break
			}
			if local {
				continue
			}
		} else if k != kindPrompt {
			continue
		}
		turns = append(turns, Event{Kind: UserTurn, Line: u.line})
	}
	// Merge by line: both lists are in file order.
	events := make([]Event, 0, len(turns)+len(t.Events))
	i, j := 0, 0
	for i < len(turns) || j < len(t.Events) {
		if j >= len(t.Events) || (i < len(turns) && turns[i].Line < t.Events[j].Line) {
			events = append(events, turns[i])
			i++
		} else {
			events = append(events, t.Events[j])
			j++
		}
	}
	t.Events = events

	// The last turn: from the last prompt on, the final answer is the last
	// assistant message when it is text without tool calls, and an
	// interruption marker after the last assistant message voids it.
	lastTurnLine := 0
	if len(turns) > 0 {
		lastTurnLine = turns[len(turns)-1].Line
	}
	lastAsst := -1
	for i := len(t.Messages) - 1; i >= 0; i-- {
		if t.Messages[i].Role == "assistant" && t.Messages[i].Line > lastTurnLine {
			lastAsst = i
			break
		}
	}
	for _, u := range users {
		if u.kind == kindInterrupt && u.line > lastTurnLine && (lastAsst < 0 || u.msgIndex > lastAsst) {
			t.Interrupted = true
		}
	}
	if lastAsst >= 0 && !t.Interrupted {
		m := t.Messages[lastAsst]
		t.Final = len(m.ToolCalls) == 0 && strings.TrimSpace(m.Content) != ""
	}
}

func ccBlocks(raw json.RawMessage) ([]ccBlock, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return []ccBlock{{Type: "text", Text: s}}, nil
	}
	var blocks []ccBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, errors.New(`"content" must be a string or a list of blocks`)
	}
	return blocks, nil
}

type ccResult struct {
	ToolUseID string
	Text      string
	IsError   bool
}

// ccUserContent splits a user line into its text (nil when it has none)
// and its tool results.
func ccUserContent(raw json.RawMessage) (*string, []ccResult, error) {
	blocks, err := ccBlocks(raw)
	if err != nil {
		return nil, nil, err
	}
	var texts []string
	var results []ccResult
	for _, b := range blocks {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "tool_result":
			inner, err := ccBlocks(b.Content)
			if err != nil {
				return nil, nil, fmt.Errorf("tool result %s: %v", b.ToolUseID, err)
			}
			var parts []string
			for _, ib := range inner {
				if ib.Type == "text" {
					parts = append(parts, ib.Text)
				} else {
					parts = append(parts, "["+ib.Type+"]")
				}
			}
			results = append(results, ccResult{ToolUseID: b.ToolUseID, Text: strings.Join(parts, "\n"), IsError: b.IsError})
		case "image", "document":
			texts = append(texts, "["+b.Type+"]")
		}
	}
	if texts == nil {
		return nil, results, nil
	}
	s := strings.Join(texts, "\n")
	return &s, results, nil
}
