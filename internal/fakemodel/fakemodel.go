package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"time"
)

// Script is a parsed script.
type Script struct {
	Replies []Reply `json:"replies"`
}

// Reply is one scripted answer.
type Reply struct {
	Content   string     `json:"content,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Status, when not 0 or 200, makes the reply an HTTP error with Error as
	// the OpenAI-style error message.
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
	// DelayMS holds the reply back, for timeouts.
	DelayMS int    `json:"delay_ms,omitempty"`
	Usage   *Usage `json:"usage,omitempty"`
	// Times serves the reply this many times (0 and 1: once; -1: forever).
	Times int `json:"times,omitempty"`
	// FinishReason overrides "stop" / "tool_calls".
	FinishReason string `json:"finish_reason,omitempty"`
	// Match, when set, makes the reply answer only a request whose body
	// holds this text, and Unless only one whose body does not: an agent
	// program makes requests of its own beside the conversation (a
	// title, a quota probe), which a reply meant for the conversation
	// must not answer. A request skips replies that do not match, and
	// those stay for later requests.
	Match  string `json:"match,omitempty"`
	Unless string `json:"unless,omitempty"`
	// API, when set, makes the reply answer only requests of that
	// protocol: "chat", "messages", "responses" or "gemini".
	API string `json:"api,omitempty"`
}

// ToolCall is a scripted tool call.
type ToolCall struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Namespace is the tool's namespace in the Responses API (Codex
	// offers an MCP server's tools as namespace mcp__<server>); other
	// protocols ignore it.
	Namespace    string          `json:"namespace,omitempty"`
	Arguments    json.RawMessage `json:"arguments,omitempty"`
	RawArguments *string         `json:"raw_arguments,omitempty"`
}

// Usage is the token accounting a reply reports.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Request is one request the server received.
type Request struct {
	// API is the protocol: "chat", "messages", "responses" or "gemini"
	// (empty for a path the server does not serve).
	API           string
	Path          string
	Query         string // the raw query string, as received
	Authorization string
	// APIKey is the x-api-key header (Anthropic's).
	APIKey string
	Body   []byte
	// Reply is the index of the script's reply that answered, -1 none.
	Reply int
}

// ParseScript reads a script: a JSON list of replies or {"replies": [...]}.
func ParseScript(data []byte) (*Script, error) {
	data = bytes.TrimSpace(data)
	var s Script
	if len(data) > 0 && data[0] == '[' {
		if err := strictUnmarshal(data, &s.Replies); err != nil {
			return nil, fmt.Errorf("parse fakemodel script: %w", err)
		}
	} else if err := strictUnmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("parse fakemodel script: %w", err)
	}
	for i, r := range s.Replies {
		for j, c := range r.ToolCalls {
			if c.Name == "" {
				return nil, fmt.Errorf("parse fakemodel script: reply %d, tool call %d: name is required", i+1, j+1)
			}
		}
		if r.Times < -1 {
			return nil, fmt.Errorf("parse fakemodel script: reply %d: times must be -1 or more", i+1)
		}
		switch r.API {
		case "", apiChat, apiMessages, apiResponses, apiGemini:
		default:
			return nil, fmt.Errorf("parse fakemodel script: reply %d: api must be chat, messages, responses or gemini, not %q", i+1, r.API)
		}
	}
	return &s, nil
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Server is a running fake model. It is safe for concurrent use.
type Server struct {
	srv *httptest.Server
	log io.Writer

	mu       sync.Mutex
	replies  []Reply
	served   []int // how often each reply was served
	next     int
	requests []Request
	calls    int // tool call ids handed out
}

// Start serves script on 127.0.0.1 until Close. log, if not nil, receives
// every request body as one line.
func Start(script *Script, log io.Writer) *Server {
	s := &Server{log: log, replies: script.Replies, served: make([]int, len(script.Replies))}
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// BaseURL is the OpenAI base URL to configure a client with (ends in /v1).
func (s *Server) BaseURL() string { return s.srv.URL + "/v1" }

// URL is the server's root, http://127.0.0.1:PORT: Anthropic's base URL
// (ANTHROPIC_BASE_URL; its clients add /v1/messages).
func (s *Server) URL() string { return s.srv.URL }

// Close stops the server, waiting for requests in flight.
func (s *Server) Close() { s.srv.Close() }

// Requests returns a copy of the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Remaining reports how many replies are left to serve (-1: unbounded).
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for i := s.next; i < len(s.replies); i++ {
		t := s.replies[i].Times
		switch {
		case t == -1:
			return -1
		case t <= 1:
			n += 1 - s.served[i]
		default:
			n += t - s.served[i]
		}
	}
	return n
}

// take returns the first reply, from the current one on, that is not used
// up and matches the request, or false when there is none.
func (s *Server) take(api string, body []byte) (Reply, int, bool) {
	for i := s.next; i < len(s.replies); i++ {
		r := s.replies[i]
		if r.Times != -1 && s.served[i] >= max(r.Times, 1) {
			if i == s.next {
				s.next++
			}
			continue
		}
		if !r.matches(api, body) {
			continue
		}
		s.served[i]++
		return r, i, true
	}
	return Reply{}, -1, false
}

func (r Reply) matches(api string, body []byte) bool {
	return (r.API == "" || r.API == api) &&
		(r.Match == "" || bytes.Contains(body, []byte(r.Match))) &&
		(r.Unless == "" || !bytes.Contains(body, []byte(r.Unless)))
}

// The protocols served.
const (
	apiChat      = "chat"      // OpenAI chat completions: POST …/chat/completions
	apiMessages  = "messages"  // Anthropic Messages: POST …/v1/messages
	apiResponses = "responses" // OpenAI Responses: POST …/v1/responses
	apiGemini    = "gemini"    // Google Generative Language: POST …/models/MODEL:generateContent (and streamGenerateContent, countTokens)
)

func apiOf(path string) string {
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return apiChat
	case strings.HasSuffix(path, "/v1/messages"):
		return apiMessages
	case strings.HasSuffix(path, "/v1/responses"), strings.HasSuffix(path, "/responses"):
		return apiResponses
	}
	if _, m := geminiMethod(path); m != "" {
		return apiGemini
	}
	return ""
}

// answer is one request's reply, as the protocol writers need it.
type answer struct {
	Reply
	ids   []string // tool call ids
	model string
	n     int // the request's number, from 1
	size  int // the request body's length
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	api := apiOf(r.URL.Path)
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		writeError(w, api, http.StatusBadRequest, "read body: "+err.Error())
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{API: api, Path: r.URL.Path, Query: r.URL.RawQuery, Authorization: r.Header.Get("Authorization"),
		APIKey: r.Header.Get("X-Api-Key"), Body: body, Reply: -1})
	n := len(s.requests)
	if s.log != nil {
		s.logRequest(api, r, body)
	}
	s.mu.Unlock()

	if r.Method != http.MethodPost || api == "" {
		writeError(w, api, http.StatusNotFound, fmt.Sprintf("fakemodel serves POST …/chat/completions, …/v1/messages, …/v1/responses and …/models/MODEL:generateContent, not %s %s", r.Method, r.URL.Path))
		return
	}
	var req struct {
		Model         string `json:"model"`
		Stream        bool   `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, api, http.StatusBadRequest, "request body is not JSON: "+err.Error())
		return
	}
	gemModel, gemMethod := geminiMethod(r.URL.Path)
	if api == apiGemini {
		// The model is in the path; counting tokens is not a turn.
		req.Model = gemModel
		if gemMethod == "countTokens" {
			if err := writeGemini(w, answer{model: req.Model, n: n, size: len(body)}, gemMethod); err != nil {
				writeError(w, api, http.StatusInternalServerError, err.Error())
			}
			return
		}
	}
	s.mu.Lock()
	reply, idx, ok := s.take(api, body)
	s.requests[n-1].Reply = idx
	ids := make([]string, len(reply.ToolCalls))
	for i, c := range reply.ToolCalls {
		if c.ID != "" {
			ids[i] = c.ID
			continue
		}
		s.calls++
		ids[i] = fmt.Sprintf("%s%d", callPrefix[api], s.calls)
	}
	s.mu.Unlock()

	if !ok {
		writeError(w, api, http.StatusBadRequest, fmt.Sprintf("fakemodel: no scripted reply left for request %d", n))
		return
	}
	if reply.DelayMS > 0 {
		select {
		case <-time.After(time.Duration(reply.DelayMS) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
	}
	if reply.Status != 0 && reply.Status != http.StatusOK {
		msg := reply.Error
		if msg == "" {
			msg = http.StatusText(reply.Status)
		}
		writeError(w, api, reply.Status, msg)
		return
	}
	a := answer{Reply: reply, ids: ids, model: req.Model, n: n, size: len(body)}
	switch api {
	case apiChat:
		if req.Stream {
			err = writeCompletionStream(w, a, req.StreamOptions.IncludeUsage)
		} else {
			err = writeCompletion(w, a)
		}
	case apiMessages:
		err = writeMessage(w, a, req.Stream)
	case apiResponses:
		err = writeResponse(w, a, req.Stream)
	case apiGemini:
		err = writeGemini(w, a, gemMethod)
	}
	if err != nil {
		writeError(w, api, http.StatusInternalServerError, err.Error())
	}
}

// maxBody bounds a request body: an agent sends its whole conversation.
const maxBody = 64 << 20

// callPrefix is how each protocol's tool call ids look.
var callPrefix = map[string]string{apiChat: "call_", apiMessages: "toolu_fake", apiResponses: "call_fake", apiGemini: "fake-call-"}

// logRequest writes one line per request: the body of a chat request as
// it came (a JSON body holds no raw newline), else an object naming the
// protocol and path with the body inside.
func (s *Server) logRequest(api string, r *http.Request, body []byte) {
	body = bytes.TrimSpace(body)
	if api == apiChat {
		fmt.Fprintf(s.log, "%s\n", body)
		return
	}
	line := map[string]any{"api": api, "method": r.Method, "path": r.URL.Path, "query": r.URL.RawQuery}
	if json.Valid(body) {
		line["body"] = json.RawMessage(body)
	} else if len(body) > 0 {
		line["body_text"] = string(body)
	}
	data, _ := json.Marshal(line)
	fmt.Fprintf(s.log, "%s\n", data)
}

// arguments is a tool call's argument string: raw_arguments verbatim,
// else the compact JSON of arguments, else {}.
func (c ToolCall) arguments() (string, error) {
	switch {
	case c.RawArguments != nil:
		return *c.RawArguments, nil
	case len(c.Arguments) > 0:
		var buf bytes.Buffer
		if err := json.Compact(&buf, c.Arguments); err != nil {
			return "", fmt.Errorf("tool call %s: arguments: %w", c.Name, err)
		}
		return buf.String(), nil
	}
	return "{}", nil
}

// usage is the reply's token accounting: scripted, or the request body's
// size and the content's, a quarter each.
func (a answer) usage() Usage {
	if a.Usage != nil {
		return *a.Usage
	}
	return Usage{PromptTokens: a.size / 4, CompletionTokens: len(a.Content) / 4}
}

// completion is a chat reply's message and finish reason.
type completion struct {
	Content   string
	ToolCalls []completionCall
	Finish    string
}

type completionCall struct {
	ID, Name, Arguments string
}

func (a answer) completion() (completion, error) {
	c := completion{Content: a.Content, Finish: a.FinishReason}
	for i, tc := range a.ToolCalls {
		args, err := tc.arguments()
		if err != nil {
			return completion{}, err
		}
		c.ToolCalls = append(c.ToolCalls, completionCall{ID: a.ids[i], Name: tc.Name, Arguments: args})
	}
	if c.Finish == "" {
		c.Finish = "stop"
		if len(c.ToolCalls) > 0 {
			c.Finish = "tool_calls"
		}
	}
	return c, nil
}

func (a answer) usageJSON() map[string]int {
	u := a.usage()
	return map[string]int{"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens, "total_tokens": u.PromptTokens + u.CompletionTokens}
}

func writeCompletion(w http.ResponseWriter, a answer) error {
	type function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type toolCall struct {
		ID       string   `json:"id"`
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	type message struct {
		Role      string     `json:"role"`
		Content   string     `json:"content"`
		ToolCalls []toolCall `json:"tool_calls,omitempty"`
	}
	c, err := a.completion()
	if err != nil {
		return err
	}
	msg := message{Role: "assistant", Content: c.Content}
	for _, tc := range c.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, toolCall{ID: tc.ID, Type: "function", Function: function{Name: tc.Name, Arguments: tc.Arguments}})
	}
	data, err := json.Marshal(map[string]any{
		"id":      fmt.Sprintf("chatcmpl-fake-%d", a.n),
		"object":  "chat.completion",
		"created": 0,
		"model":   a.model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": c.Finish}},
		"usage":   a.usageJSON(),
	})
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = w.Write(data)
	return err
}

// writeCompletionStream is a chat reply streamed as OpenAI streams it
// (stream: true; OpenCode's provider, through the AI SDK, asks for no
// other): data-only events, each a chat.completion.chunk — the role,
// the content in deltas, each tool call's id and name in its first delta
// and its arguments in the next ones (by index), a last chunk with the
// finish reason — then, when the request's stream_options.include_usage
// asks, a chunk with no choices carrying the usage, and data: [DONE].
func writeCompletionStream(w http.ResponseWriter, a answer, includeUsage bool) error {
	c, err := a.completion()
	if err != nil {
		return err
	}
	id := fmt.Sprintf("chatcmpl-fake-%d", a.n)
	ev := newEvents(w)
	chunk := func(choices []any, usage map[string]int) {
		v := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": a.model, "choices": choices}
		if usage != nil {
			v["usage"] = usage
		}
		ev.data(v)
	}
	delta := func(d map[string]any, finish any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "finish_reason": finish}}
	}
	chunk(delta(map[string]any{"role": "assistant", "content": ""}, nil), nil)
	if c.Content != "" {
		for _, part := range chunks(c.Content, 40) {
			chunk(delta(map[string]any{"content": part}, nil), nil)
		}
	}
	for i, tc := range c.ToolCalls {
		chunk(delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": tc.ID, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": ""}}}}, nil), nil)
		for _, part := range chunks(tc.Arguments, 40) {
			chunk(delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": part}}}}, nil), nil)
		}
	}
	chunk(delta(map[string]any{}, c.Finish), nil)
	if includeUsage {
		chunk([]any{}, a.usageJSON())
	}
	ev.done()
	return ev.err
}

// writeError answers with an error in the protocol's shape (Anthropic's
// {"type":"error","error":{…}}, Google's {"error":{"code","message",
// "status"}}, OpenAI's {"error":{…}}).
func writeError(w http.ResponseWriter, api string, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	switch api {
	case apiMessages:
		json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]any{"type": anthropicErrorType(status), "message": msg}})
		return
	case apiGemini:
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": status, "message": msg, "status": geminiStatus(status)}})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "fakemodel_error", "code": status}})
}

// StartFile reads a script file and starts a server for it; logPath, when
// not empty, is a file that receives each request body as one JSON line.
// The returned close function stops the server and closes the log.
func StartFile(scriptPath, logPath string) (*Server, func(), error) {
	data, err := os.ReadFile(scriptPath)
	if err != nil {
		return nil, nil, fmt.Errorf("read fakemodel script: %w", err)
	}
	script, err := ParseScript(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", scriptPath, err)
	}
	var log *os.File
	var w io.Writer
	if logPath != "" {
		log, err = os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("open fakemodel log: %w", err)
		}
		w = log
	}
	s := Start(script, w)
	return s, func() {
		s.Close()
		if log != nil {
			log.Close()
		}
	}, nil
}
