package modelcall

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/internal/fakemodel"
)

func client(srv *fakemodel.Server) *openai.Client {
	cfg := openai.DefaultConfig("test-key")
	cfg.BaseURL = srv.BaseURL()
	return openai.NewClientWithConfig(cfg)
}

func TestCall(t *testing.T) {
	ok := fakemodel.Reply{Content: "done"}
	fail := func(status, times int) fakemodel.Reply {
		return fakemodel.Reply{Status: status, Error: "scripted", Times: times}
	}
	tests := []struct {
		name     string
		replies  []fakemodel.Reply
		caller   Caller
		wantErr  bool
		requests int
	}{
		{"answer at once", []fakemodel.Reply{ok}, Caller{}, false, 1},
		{"busy server retried", []fakemodel.Reply{fail(503, 1), fail(429, 1), ok}, Caller{}, false, 3},
		{"retries run out", []fakemodel.Reply{fail(500, 3), ok}, Caller{Retries: 1}, true, 2},
		{"no retries", []fakemodel.Reply{fail(502, 1), ok}, Caller{Retries: -1}, true, 1},
		{"rejected request not retried", []fakemodel.Reply{fail(400, 1), ok}, Caller{}, true, 1},
		{"bad key not retried", []fakemodel.Reply{fail(401, 1), ok}, Caller{}, true, 1},
		{"slow attempt timed out and retried", []fakemodel.Reply{{Content: "late", DelayMS: 2000}, ok}, Caller{Timeout: 50 * time.Millisecond}, false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakemodel.Start(&fakemodel.Script{Replies: tt.replies}, nil)
			defer srv.Close()
			c := tt.caller
			c.Client = client(srv)
			c.Backoff = time.Millisecond
			resp, err := c.Call(context.Background(), openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err == nil && resp.Choices[0].Message.Content != "done" {
				t.Errorf("answer %q, want the scripted one", resp.Choices[0].Message.Content)
			}
			if got := len(srv.Requests()); got != tt.requests {
				t.Errorf("%d requests, want %d", got, tt.requests)
			}
		})
	}
}

// TestCallStopsWithContext: a cancelled context ends the back-off wait at
// once instead of sleeping it out.
func TestCallStopsWithContext(t *testing.T) {
	srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{{Status: 503, Error: "busy", Times: -1}}}, nil)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	c := Caller{Client: client(srv), Backoff: time.Hour}
	go func() {
		for len(srv.Requests()) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := c.Call(ctx, openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// cancelAfter is a transport that ends a context once the server has
// answered, so the context ends during the attempt, after its failure.
type cancelAfter struct{ cancel context.CancelFunc }

func (c cancelAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	c.cancel()
	return resp, err
}

// TestCallEndedDuringAFailingAttempt: a context that ends while an
// attempt fails is told as the context's end, the attempt's failure kept
// in the words, not as a server error the caller would retry later.
func TestCallEndedDuringAFailingAttempt(t *testing.T) {
	srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{{Status: 503, Error: "busy", Times: -1}}}, nil)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := openai.DefaultConfig("test-key")
	cfg.BaseURL = srv.BaseURL()
	cfg.HTTPClient = &http.Client{Transport: cancelAfter{cancel}}
	c := Caller{Client: openai.NewClientWithConfig(cfg), Backoff: time.Millisecond}
	_, err := c.Call(ctx, openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if Retryable(err) {
		t.Errorf("Retryable(%v) = true: a cancelled call is not retried", err)
	}
	if !strings.Contains(err.Error(), "busy") {
		t.Errorf("err = %v, want the attempt's failure in its words", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestRetryable(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&openai.APIError{HTTPStatusCode: 429}, true},
		{&openai.APIError{HTTPStatusCode: 408}, true},
		{&openai.APIError{HTTPStatusCode: 409}, true},
		{&openai.APIError{HTTPStatusCode: 500}, true},
		{&openai.APIError{HTTPStatusCode: 400}, false},
		{&openai.APIError{HTTPStatusCode: 404}, false},
		{&openai.RequestError{HTTPStatusCode: 503}, true},
		{&openai.RequestError{HTTPStatusCode: 403}, false},
		{context.DeadlineExceeded, true},
		{context.Canceled, false},
		{errors.New("tool loop failed"), false},
	}
	for _, tt := range tests {
		if got := Retryable(tt.err); got != tt.want {
			t.Errorf("Retryable(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
