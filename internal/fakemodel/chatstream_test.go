package fakemodel

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// A streamed chat completion, read by go-openai's stream client as any
// OpenAI client reads it: the content joined from its deltas, each tool
// call's id and name from its first delta and its arguments from the next
// ones, the finish reason, and the usage chunk only when the request asks
// for it; the stream ends with data: [DONE].
func TestChatCompletionStream(t *testing.T) {
	srv := mustStart(t, `[
		{"content": "Let me look at the skills library first, then decide.", "tool_calls": [
			{"name": "skill", "arguments": {"name": "ci-debugging"}},
			{"name": "read", "arguments": {"filePath": "/a/very/long/path/to/a/skill/folder/SKILL.md"}}],
		 "usage": {"prompt_tokens": 1200, "completion_tokens": 30}},
		{"content": "Nothing to save."}
	]`)
	c := client(srv, 5*time.Second)
	read := func(usage bool) (string, map[int]*openai.ToolCall, string, *openai.Usage) {
		t.Helper()
		req := openai.ChatCompletionRequest{Model: "m1", Stream: true, Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}
		if usage {
			req.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
		}
		st, err := c.CreateChatCompletionStream(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var text strings.Builder
		calls := map[int]*openai.ToolCall{}
		var finish string
		var u *openai.Usage
		for {
			r, err := st.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Usage != nil {
				if len(r.Choices) != 0 {
					t.Errorf("the usage chunk has choices: %+v", r.Choices)
				}
				u = r.Usage
			}
			for _, ch := range r.Choices {
				text.WriteString(ch.Delta.Content)
				for _, d := range ch.Delta.ToolCalls {
					i := *d.Index
					if calls[i] == nil {
						if d.ID == "" || d.Function.Name == "" {
							t.Fatalf("tool call %d's first delta has no id or name: %+v", i, d)
						}
						calls[i] = &openai.ToolCall{ID: d.ID, Function: openai.FunctionCall{Name: d.Function.Name}}
					} else if d.ID != "" || d.Function.Name != "" {
						t.Errorf("tool call %d's later delta repeats its id or name: %+v", i, d)
					}
					calls[i].Function.Arguments += d.Function.Arguments
				}
				if ch.FinishReason != "" {
					finish = string(ch.FinishReason)
				}
			}
		}
		return text.String(), calls, finish, u
	}
	text, calls, finish, u := read(true)
	if text != "Let me look at the skills library first, then decide." || finish != "tool_calls" {
		t.Fatalf("text %q, finish %q", text, finish)
	}
	if len(calls) != 2 || calls[0].Function.Name != "skill" || calls[0].Function.Arguments != `{"name":"ci-debugging"}` ||
		calls[1].Function.Arguments != `{"filePath":"/a/very/long/path/to/a/skill/folder/SKILL.md"}` || calls[0].ID == calls[1].ID {
		t.Fatalf("tool calls %+v %+v", calls[0], calls[1])
	}
	if u == nil || u.PromptTokens != 1200 || u.CompletionTokens != 30 || u.TotalTokens != 1230 {
		t.Fatalf("usage %+v", u)
	}
	text, calls, finish, u = read(false)
	if text != "Nothing to save." || len(calls) != 0 || finish != "stop" || u != nil {
		t.Fatalf("second reply: %q %v %q %+v", text, calls, finish, u)
	}
}

// The stream's wire: data-only lines (no event names), each JSON, the
// last one data: [DONE]; an error before the stream starts is the JSON
// error a client reads.
func TestChatCompletionStreamWire(t *testing.T) {
	srv := mustStart(t, `[{"content": "hi"}]`)
	post := func() (*http.Response, []string) {
		resp, err := http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[]}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var lines []string
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		return resp, lines
	}
	resp, lines := post()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var data []string
	for _, l := range lines {
		switch {
		case l == "":
		case strings.HasPrefix(l, "data: "):
			data = append(data, strings.TrimPrefix(l, "data: "))
		default:
			t.Fatalf("unexpected line %q", l)
		}
	}
	if len(data) < 2 || data[len(data)-1] != "[DONE]" || !strings.Contains(data[0], `"object":"chat.completion.chunk"`) {
		t.Fatalf("stream %q", data)
	}
	resp, lines = post()
	if resp.StatusCode != http.StatusBadRequest || len(lines) != 1 || !strings.Contains(lines[0], "no scripted reply left") {
		t.Fatalf("used up: %d %q", resp.StatusCode, lines)
	}
}
