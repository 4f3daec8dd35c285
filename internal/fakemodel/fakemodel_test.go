package fakemodel

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	openai "github.com/sashabaranov/go-openai"
)

func client(s *Server, timeout time.Duration) *openai.Client {
	cfg := openai.DefaultConfig("test-key")
	cfg.BaseURL = s.BaseURL()
	cfg.HTTPClient = &http.Client{Timeout: timeout}
	return openai.NewClientWithConfig(cfg)
}

func ask(c *openai.Client, text string) (openai.ChatCompletionResponse, error) {
	return c.CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
		Model:    "m1",
		Messages: []openai.ChatCompletionMessage{{Role: "user", Content: text}},
	})
}

func mustStart(t *testing.T, script string) *Server {
	t.Helper()
	s, err := ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	srv := Start(s, nil)
	t.Cleanup(srv.Close)
	return srv
}

func TestRepliesInOrder(t *testing.T) {
	srv := mustStart(t, `[
		{"tool_calls": [{"name": "skill_view", "arguments": {"name": "git"}}, {"name": "skills_list"}]},
		{"tool_calls": [{"name": "memory", "raw_arguments": "{\"action\": "}]},
		{"content": "Nothing to save.", "usage": {"prompt_tokens": 7, "completion_tokens": 3}}
	]`)
	c := client(srv, 5*time.Second)

	r1, err := ask(c, "one")
	if err != nil {
		t.Fatal(err)
	}
	calls := r1.Choices[0].Message.ToolCalls
	if len(calls) != 2 || calls[0].Function.Name != "skill_view" || calls[0].Function.Arguments != `{"name":"git"}` ||
		calls[1].Function.Arguments != "{}" || calls[0].ID == calls[1].ID || r1.Choices[0].FinishReason != "tool_calls" {
		t.Fatalf("first reply = %+v", r1.Choices[0])
	}
	if r1.Usage.PromptTokens == 0 {
		t.Errorf("default usage has no prompt tokens")
	}

	r2, err := ask(c, "two")
	if err != nil {
		t.Fatal(err)
	}
	if got := r2.Choices[0].Message.ToolCalls[0].Function.Arguments; got != `{"action": ` {
		t.Fatalf("raw arguments = %q", got)
	}

	r3, err := ask(c, "three")
	if err != nil {
		t.Fatal(err)
	}
	if r3.Choices[0].Message.Content != "Nothing to save." || r3.Usage.PromptTokens != 7 || r3.Usage.CompletionTokens != 3 {
		t.Fatalf("third reply = %+v", r3)
	}

	// Used up: a 400 the client sees as an API error.
	_, err = ask(c, "four")
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 400 || !strings.Contains(apiErr.Message, "no scripted reply left for request 4") {
		t.Fatalf("after the script: %v", err)
	}

	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("recorded %d requests", len(reqs))
	}
	var body struct {
		Model    string `json:"model"`
		Messages []struct{ Content string }
	}
	if err := json.Unmarshal(reqs[1].Body, &body); err != nil || body.Model != "m1" || body.Messages[0].Content != "two" {
		t.Fatalf("request 2 = %s (%v)", reqs[1].Body, err)
	}
	if reqs[0].Authorization != "Bearer test-key" {
		t.Errorf("authorization = %q", reqs[0].Authorization)
	}
}

func TestHTTPErrorAndTimes(t *testing.T) {
	srv := mustStart(t, `{"replies": [
		{"status": 500, "error": "overloaded", "times": 2},
		{"content": "ok"},
		{"content": "again", "times": -1}
	]}`)
	c := client(srv, 5*time.Second)
	for i := 0; i < 2; i++ {
		_, err := ask(c, "x")
		var apiErr *openai.APIError
		if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 500 || apiErr.Message != "overloaded" {
			t.Fatalf("request %d: %v", i+1, err)
		}
	}
	if srv.Remaining() != -1 {
		t.Errorf("Remaining = %d, want -1", srv.Remaining())
	}
	r, err := ask(c, "x")
	if err != nil || r.Choices[0].Message.Content != "ok" {
		t.Fatalf("third: %v %+v", err, r)
	}
	for i := 0; i < 5; i++ {
		if r, err := ask(c, "x"); err != nil || r.Choices[0].Message.Content != "again" {
			t.Fatalf("forever reply %d: %v", i, err)
		}
	}
}

func TestSlowReplyTimesOut(t *testing.T) {
	srv := mustStart(t, `[{"delay_ms": 2000, "content": "late"}, {"content": "fast"}]`)
	c := client(srv, 100*time.Millisecond)
	if _, err := ask(c, "x"); err == nil {
		t.Fatal("slow reply did not time out")
	}
	if r, err := ask(c, "x"); err != nil || r.Choices[0].Message.Content != "fast" {
		t.Fatalf("after timeout: %v", err)
	}
}

func TestParseScriptErrors(t *testing.T) {
	for _, bad := range []string{
		`[{"contents": "typo"}]`,
		`[{"tool_calls": [{"arguments": {}}]}]`,
		`[{"times": -2}]`,
		`{"replies": [`,
	} {
		if _, err := ParseScript([]byte(bad)); err == nil {
			t.Errorf("ParseScript(%s) accepted", bad)
		}
	}
}

func TestStartFileLogs(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.json")
	os.WriteFile(script, []byte(`[{"content": "a"}, {"content": "b"}]`), 0o644)
	logPath := filepath.Join(dir, "log.jsonl")
	srv, stop, err := StartFile(script, logPath)
	if err != nil {
		t.Fatal(err)
	}
	c := client(srv, 5*time.Second)
	ask(c, "first question")
	ask(c, "second\nquestion")
	stop()
	data, _ := os.ReadFile(logPath)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "first question") || !strings.Contains(lines[1], `second\nquestion`) {
		t.Fatalf("log = %q", data)
	}
}

// TestCmd runs the testscript command the CLI scripts use.
func TestCmd(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"fakemodel": Cmd,
			// chat sends one request to $OPENAI_BASE_URL and prints the reply.
			"chat": func(ts *testscript.TestScript, neg bool, args []string) {
				cfg := openai.DefaultConfig(ts.Getenv("OPENAI_API_KEY"))
				cfg.BaseURL = ts.Getenv("OPENAI_BASE_URL")
				r, err := ask(openai.NewClientWithConfig(cfg), strings.Join(args, " "))
				ts.Check(err)
				ts.Stdout().Write([]byte(r.Choices[0].Message.Content + "\n"))
			},
		},
	})
}
