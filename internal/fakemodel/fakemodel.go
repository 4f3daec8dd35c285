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
}

// ToolCall is a scripted tool call.
type ToolCall struct {
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name"`
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
	Path          string
	Query         string // the raw query string, as received
	Authorization string
	Body          []byte
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

// take returns the next reply, or false when the script is used up.
func (s *Server) take() (Reply, bool) {
	for s.next < len(s.replies) {
		r := s.replies[s.next]
		limit := max(r.Times, 1)
		if r.Times == -1 || s.served[s.next] < limit {
			s.served[s.next]++
			return r, true
		}
		s.next++
	}
	return Reply{}, false
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		writeError(w, http.StatusNotFound, fmt.Sprintf("fakemodel serves POST …/chat/completions, not %s %s", r.Method, r.URL.Path))
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "read body: "+err.Error())
		return
	}
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "request body is not JSON: "+err.Error())
		return
	}

	s.mu.Lock()
	s.requests = append(s.requests, Request{Path: r.URL.Path, Query: r.URL.RawQuery, Authorization: r.Header.Get("Authorization"), Body: body})
	n := len(s.requests)
	if s.log != nil {
		// One line per request; the body is JSON and so holds no raw newline.
		fmt.Fprintf(s.log, "%s\n", bytes.TrimSpace(body))
	}
	reply, ok := s.take()
	ids := make([]string, len(reply.ToolCalls))
	for i, c := range reply.ToolCalls {
		if c.ID != "" {
			ids[i] = c.ID
			continue
		}
		s.calls++
		ids[i] = fmt.Sprintf("call_%d", s.calls)
	}
	s.mu.Unlock()

	if req.Stream {
		writeError(w, http.StatusBadRequest, "fakemodel does not stream")
		return
	}
	if !ok {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("fakemodel: no scripted reply left for request %d", n))
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
		writeError(w, reply.Status, msg)
		return
	}
	resp, err := completion(reply, ids, req.Model, n, len(body))
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(resp)
}

func completion(r Reply, ids []string, model string, n, bodyLen int) ([]byte, error) {
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
	msg := message{Role: "assistant", Content: r.Content}
	for i, c := range r.ToolCalls {
		args := "{}"
		switch {
		case c.RawArguments != nil:
			args = *c.RawArguments
		case len(c.Arguments) > 0:
			var buf bytes.Buffer
			if err := json.Compact(&buf, c.Arguments); err != nil {
				return nil, fmt.Errorf("tool call %s: arguments: %w", c.Name, err)
			}
			args = buf.String()
		}
		msg.ToolCalls = append(msg.ToolCalls, toolCall{ID: ids[i], Type: "function", Function: function{Name: c.Name, Arguments: args}})
	}
	finish := r.FinishReason
	if finish == "" {
		finish = "stop"
		if len(msg.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	usage := Usage{PromptTokens: bodyLen / 4, CompletionTokens: len(r.Content) / 4}
	if r.Usage != nil {
		usage = *r.Usage
	}
	return json.Marshal(map[string]any{
		"id":      fmt.Sprintf("chatcmpl-fake-%d", n),
		"object":  "chat.completion",
		"created": 0,
		"model":   model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage": map[string]int{
			"prompt_tokens":     usage.PromptTokens,
			"completion_tokens": usage.CompletionTokens,
			"total_tokens":      usage.PromptTokens + usage.CompletionTokens,
		},
	})
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
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
