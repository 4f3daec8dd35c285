package modelcall

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/internal/fakemodel"
)

func call(name, args string) fakemodel.ToolCall {
	return fakemodel.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

// echo is a dispatcher that answers every call with its name and
// arguments, and records the calls.
type echo struct{ calls []string }

func (e *echo) dispatch(_ context.Context, c openai.ToolCall) string {
	e.calls = append(e.calls, c.Function.Name+" "+c.Function.Arguments)
	return `{"success":true,"tool":"` + c.Function.Name + `"}`
}

func TestLoop(t *testing.T) {
	usage := func(in, out int) *fakemodel.Usage { return &fakemodel.Usage{PromptTokens: in, CompletionTokens: out} }
	tests := []struct {
		name       string
		replies    []fakemodel.Reply
		loop       Loop
		status     string
		reason     string // a substring of the reason
		final      string
		calls      int
		dispatched []string
		tokensIn   int // 0: not checked
		tokensOut  int
	}{
		{
			name:    "answer without tools",
			replies: []fakemodel.Reply{{Content: "Nothing to save.", Usage: usage(100, 4)}},
			loop:    Loop{MaxCalls: 16},
			status:  StatusCompleted, final: "Nothing to save.", calls: 1, tokensIn: 100, tokensOut: 4,
		},
		{
			name: "tool calls run in order, then the answer",
			replies: []fakemodel.Reply{
				{ToolCalls: []fakemodel.ToolCall{call("a", `{"x":1}`), call("b", `{}`)}, Usage: usage(10, 1)},
				{ToolCalls: []fakemodel.ToolCall{call("c", `{"y":"z"}`)}, Usage: usage(20, 2)},
				{Content: "done", Usage: usage(30, 3)},
			},
			loop:   Loop{MaxCalls: 16},
			status: StatusCompleted, final: "done", calls: 3,
			dispatched: []string{`a {"x":1}`, `b {}`, `c {"y":"z"}`},
			tokensIn:   60, tokensOut: 6,
		},
		{
			name:    "the cap stops a model that never answers",
			replies: []fakemodel.Reply{{ToolCalls: []fakemodel.ToolCall{call("a", `{}`)}, Times: -1}},
			loop:    Loop{MaxCalls: 3},
			status:  StatusCapped, reason: "cap of 3 model calls", calls: 3,
			dispatched: []string{"a {}", "a {}", "a {}"},
		},
		{
			name:    "the budget is checked before each call",
			replies: []fakemodel.Reply{{ToolCalls: []fakemodel.ToolCall{call("a", `{}`)}, Usage: usage(600, 1), Times: -1}},
			loop:    Loop{MaxCalls: 16, InputBudget: 1000},
			status:  StatusFailed, reason: "input budget exhausted: 1200 of 1000 tokens used after 2 model calls", calls: 2,
			dispatched: []string{"a {}", "a {}"},
		},
		{
			name:    "a rejected call ends the loop",
			replies: []fakemodel.Reply{{ToolCalls: []fakemodel.ToolCall{call("a", `{}`)}}, {Status: 400, Error: "bad request"}},
			loop:    Loop{MaxCalls: 16},
			status:  StatusFailed, reason: "model call failed", calls: 1,
			dispatched: []string{"a {}"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakemodel.Start(&fakemodel.Script{Replies: tt.replies}, nil)
			defer srv.Close()
			l := tt.loop
			l.Caller = Caller{Client: client(srv), Retries: -1}
			e := &echo{}
			req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "review"}}}
			out := l.Run(context.Background(), req, e.dispatch)
			if out.Status != tt.status || !strings.Contains(out.Reason, tt.reason) || out.Final != tt.final {
				t.Errorf("outcome %q %q final %q, want %q %q final %q", out.Status, out.Reason, out.Final, tt.status, tt.reason, tt.final)
			}
			if out.Calls != tt.calls || len(srv.Requests()) != tt.calls+boolInt(tt.status == StatusFailed && strings.HasPrefix(tt.reason, "model call failed")) {
				t.Errorf("%d calls counted, %d requests served; want %d calls", out.Calls, len(srv.Requests()), tt.calls)
			}
			if strings.Join(e.calls, "|") != strings.Join(tt.dispatched, "|") {
				t.Errorf("dispatched %q, want %q", e.calls, tt.dispatched)
			}
			if tt.tokensIn != 0 && (out.TokensIn != tt.tokensIn || out.TokensOut != tt.tokensOut) {
				t.Errorf("tokens %d in %d out, want %d and %d", out.TokensIn, out.TokensOut, tt.tokensIn, tt.tokensOut)
			}
			if (out.Err != nil) != strings.HasPrefix(tt.reason, "model call failed") {
				t.Errorf("Err = %v", out.Err)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestLoopConversation checks what the server is sent: each answer with
// its tool calls, then one tool result per call with the call's id, in
// the order the calls were made.
func TestLoopConversation(t *testing.T) {
	srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{
		{Content: "looking", ToolCalls: []fakemodel.ToolCall{call("a", `{"n":1}`), call("b", `{"n":2}`)}},
		{Content: "done"},
	}}, nil)
	defer srv.Close()
	e := &echo{}
	out := Loop{Caller: Caller{Client: client(srv)}, MaxCalls: 4}.Run(context.Background(),
		openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "go"}}}, e.dispatch)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	var second struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    string `json:"content"`
			ToolCallID string `json:"tool_call_id"`
			ToolCalls  []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(reqs[1].Body, &second); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range second.Messages {
		s := m.Role + ":" + m.Content
		for _, c := range m.ToolCalls {
			s += " call " + c.ID
		}
		if m.ToolCallID != "" {
			s = m.Role + " for " + m.ToolCallID + ": " + m.Content
		}
		got = append(got, s)
	}
	want := []string{"user:go", "assistant:looking call call_1 call call_2",
		`tool for call_1: {"success":true,"tool":"a"}`, `tool for call_2: {"success":true,"tool":"b"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("second request's messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(out.Messages) != 5 || out.Messages[4].Content != "done" {
		t.Errorf("outcome's conversation has %d messages, want the 4 sent and the answer", len(out.Messages))
	}
}

// TestLoopInterrupted: a context cancelled while the tools run stops the
// loop before the next tool call, and the outcome says so.
func TestLoopInterrupted(t *testing.T) {
	srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{
		{ToolCalls: []fakemodel.ToolCall{call("a", `{}`), call("b", `{}`)}},
		{Content: "never asked"},
	}}, nil)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ran []string
	out := Loop{Caller: Caller{Client: client(srv)}, MaxCalls: 4}.Run(ctx,
		openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "go"}}},
		func(_ context.Context, c openai.ToolCall) string {
			ran = append(ran, c.Function.Name)
			cancel() // the user came back while the first tool ran
			return "{}"
		})
	if out.Status != StatusFailed || !strings.HasPrefix(out.Reason, "interrupted: ") {
		t.Errorf("outcome %q %q, want failed, interrupted", out.Status, out.Reason)
	}
	if strings.Join(ran, ",") != "a" || len(srv.Requests()) != 1 {
		t.Errorf("ran %v with %d requests; want only a, one request", ran, len(srv.Requests()))
	}
}

// TestLoopRetryableError: the loop hands back the model error that
// ended it, so a caller retrying whole passes can tell a busy server from
// a request it rejected.
func TestLoopRetryableError(t *testing.T) {
	for _, tt := range []struct {
		status    int
		retryable bool
	}{{503, true}, {429, true}, {401, false}} {
		srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{{Status: tt.status, Times: -1}}}, nil)
		out := Loop{Caller: Caller{Client: client(srv), Retries: 1, Backoff: time.Millisecond}, MaxCalls: 4}.Run(context.Background(),
			openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "go"}}}, (&echo{}).dispatch)
		srv.Close()
		var apiErr *openai.APIError
		if out.Err == nil || !errors.As(out.Err, &apiErr) || apiErr.HTTPStatusCode != tt.status || Retryable(out.Err) != tt.retryable {
			t.Errorf("HTTP %d: Err = %v, retryable %v; want the API error, retryable %v", tt.status, out.Err, Retryable(out.Err), tt.retryable)
		}
	}
}
