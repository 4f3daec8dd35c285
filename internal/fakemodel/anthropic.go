package fakemodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Anthropic's Messages API (POST /v1/messages, which Claude Code calls as
// /v1/messages?beta=true, always streaming): a reply is a message of a
// text block (when it has content) and one tool_use block per tool call.
// Streamed, it is the event sequence message_start, per block
// content_block_start / content_block_delta (text_delta or
// input_json_delta) / content_block_stop, then message_delta with the stop
// reason and message_stop.

func anthropicErrorType(status int) string {
	switch {
	case status == http.StatusBadRequest:
		return "invalid_request_error"
	case status == http.StatusUnauthorized:
		return "authentication_error"
	case status == http.StatusNotFound:
		return "not_found_error"
	case status == http.StatusTooManyRequests:
		return "rate_limit_error"
	case status == 529:
		return "overloaded_error"
	}
	return "api_error"
}

// block is one content block of a message.
type block struct {
	Type  string          `json:"type"`
	Text  *string         `json:"text,omitempty"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// args is a tool_use block's input as the stream sends it.
	args string
}

func (a answer) blocks() ([]block, string, error) {
	var blocks []block
	if a.Content != "" || len(a.ToolCalls) == 0 {
		text := a.Content
		blocks = append(blocks, block{Type: "text", Text: &text})
	}
	for i, c := range a.ToolCalls {
		args, err := c.arguments()
		if err != nil {
			return nil, "", err
		}
		b := block{Type: "tool_use", ID: a.ids[i], Name: c.Name, args: args, Input: json.RawMessage(args)}
		if !json.Valid([]byte(args)) {
			// A whole message must be JSON; the stream sends the text as
			// it is, as a model's broken output would come.
			b.Input = json.RawMessage(`{}`)
		}
		blocks = append(blocks, b)
	}
	stop := a.FinishReason
	if stop == "" {
		stop = "end_turn"
		if len(a.ToolCalls) > 0 {
			stop = "tool_use"
		}
	}
	return blocks, stop, nil
}

func writeMessage(w http.ResponseWriter, a answer, stream bool) error {
	blocks, stop, err := a.blocks()
	if err != nil {
		return err
	}
	u := a.usage()
	id := fmt.Sprintf("msg_fake%d", a.n)
	usage := map[string]int{"input_tokens": u.PromptTokens, "output_tokens": u.CompletionTokens, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": a.model, "content": blocks,
			"stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
	}
	ev := newEvents(w)
	start := map[string]int{"input_tokens": u.PromptTokens, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	ev.send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": a.model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": start,
	}})
	for i, b := range blocks {
		switch b.Type {
		case "text":
			ev.send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, part := range chunks(*b.Text, 40) {
				ev.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": part}})
			}
		case "tool_use":
			ev.send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
			for _, part := range chunks(b.args, 40) {
				ev.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
		}
		ev.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	ev.send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": u.CompletionTokens}})
	ev.send("message_stop", map[string]any{"type": "message_stop"})
	return ev.err
}

// chunks cuts s into pieces of at most n bytes on rune boundaries, so a
// client is seen to join deltas; the empty string is one empty piece.
func chunks(s string, n int) []string {
	if s == "" {
		return []string{""}
	}
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

// events writes server-sent events, flushing each.
type events struct {
	w   http.ResponseWriter
	err error
}

func newEvents(w http.ResponseWriter) *events {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &events{w: w}
}

func (e *events) send(name string, v any) { e.write("event: "+name+"\n", v) }

// data sends an event with no name (a data line only), as Google's API
// streams.
func (e *events) data(v any) { e.write("", v) }

// done ends an OpenAI chat stream: a data line that is not JSON.
func (e *events) done() {
	if e.err != nil {
		return
	}
	if _, err := io.WriteString(e.w, "data: [DONE]\n\n"); err != nil {
		e.err = err
		return
	}
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (e *events) write(head string, v any) {
	if e.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		e.err = err
		return
	}
	if _, err := fmt.Fprintf(e.w, "%sdata: %s\n\n", head, data); err != nil {
		e.err = err
		return
	}
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}
