package fakemodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// event is one server-sent event.
type event struct {
	name string
	data map[string]any
}

// post sends body to the server's path and returns the status, the
// content type and the events (or the JSON body when not streamed).
func post(t *testing.T, srv *Server, path, body string, header ...string) (int, string, []event, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	ct := resp.Header.Get("Content-Type")
	if !strings.HasPrefix(ct, "text/event-stream") {
		var v map[string]any
		data, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: not JSON: %s", path, data)
		}
		return resp.StatusCode, ct, nil, v
	}
	var evs []event
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("event %s: data is not JSON: %s", name, line)
			}
			if d["type"] != name {
				t.Errorf("event %s carries type %v", name, d["type"])
			}
			evs = append(evs, event{name, d})
		case line == "":
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	return resp.StatusCode, ct, evs, nil
}

func names(evs []event) string {
	var out []string
	for _, e := range evs {
		out = append(out, e.name)
	}
	return strings.Join(out, " ")
}

func TestAnthropicMessagesStream(t *testing.T) {
	srv := mustStart(t, `[
		{"content": "Let me look at the skills library first, then decide.", "tool_calls": [
			{"name": "mcp__skillrepo__skill_view", "arguments": {"name": "git-workflow"}},
			{"name": "mcp__skillrepo__skills_list"}],
		 "usage": {"prompt_tokens": 1200, "completion_tokens": 30}},
		{"content": "Nothing to save."}
	]`)
	status, _, evs, _ := post(t, srv, "/v1/messages?beta=true", `{"model":"claude-x","stream":true,"max_tokens":100,"messages":[{"role":"user","content":"hi"}]}`, "X-Api-Key", "dummy")
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	// The order every Anthropic client parses.
	var want []string
	want = append(want, "message_start", "content_block_start")
	for range chunks("Let me look at the skills library first, then decide.", 40) {
		want = append(want, "content_block_delta")
	}
	want = append(want, "content_block_stop")
	for _, args := range []string{`{"name":"git-workflow"}`, `{}`} {
		want = append(want, "content_block_start")
		for range chunks(args, 40) {
			want = append(want, "content_block_delta")
		}
		want = append(want, "content_block_stop")
	}
	want = append(want, "message_delta", "message_stop")
	if got := names(evs); got != strings.Join(want, " ") {
		t.Fatalf("events:\n%s\nwant:\n%s", got, strings.Join(want, " "))
	}
	// Put the message back together as a client does.
	var text strings.Builder
	inputs := map[int]*strings.Builder{}
	var tools []string
	for _, e := range evs {
		idx := int(num(e.data["index"]))
		switch e.name {
		case "message_start":
			msg := e.data["message"].(map[string]any)
			if msg["model"] != "claude-x" || msg["role"] != "assistant" || num(msg["usage"].(map[string]any)["input_tokens"]) != 1200 {
				t.Errorf("message_start = %v", msg)
			}
		case "content_block_start":
			cb := e.data["content_block"].(map[string]any)
			if cb["type"] == "tool_use" {
				tools = append(tools, cb["name"].(string)+" "+cb["id"].(string))
				inputs[idx] = &strings.Builder{}
			}
		case "content_block_delta":
			d := e.data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				text.WriteString(d["text"].(string))
			case "input_json_delta":
				inputs[idx].WriteString(d["partial_json"].(string))
			}
		case "message_delta":
			if e.data["delta"].(map[string]any)["stop_reason"] != "tool_use" || num(e.data["usage"].(map[string]any)["output_tokens"]) != 30 {
				t.Errorf("message_delta = %v", e.data)
			}
		}
	}
	if text.String() != "Let me look at the skills library first, then decide." {
		t.Errorf("text = %q", text.String())
	}
	if strings.Join(tools, ",") != "mcp__skillrepo__skill_view toolu_fake1,mcp__skillrepo__skills_list toolu_fake2" {
		t.Errorf("tool uses = %v", tools)
	}
	if inputs[1].String() != `{"name":"git-workflow"}` || inputs[2].String() != `{}` {
		t.Errorf("tool inputs = %q %q", inputs[1], inputs[2])
	}
	reqs := srv.Requests()
	if reqs[0].API != apiMessages || reqs[0].Query != "beta=true" || reqs[0].APIKey != "dummy" || reqs[0].Reply != 0 {
		t.Errorf("recorded request = %+v", reqs[0])
	}

	// The second reply, not streamed: one JSON message, end_turn.
	_, _, _, msg := post(t, srv, "/v1/messages", `{"model":"claude-x","max_tokens":100,"messages":[]}`)
	content := msg["content"].([]any)
	if msg["stop_reason"] != "end_turn" || len(content) != 1 || content[0].(map[string]any)["text"] != "Nothing to save." {
		t.Errorf("message = %v", msg)
	}
	// Used up: Anthropic's error shape.
	status, _, _, e := post(t, srv, "/v1/messages", `{"model":"claude-x","stream":true,"messages":[]}`)
	if status != 400 || e["type"] != "error" || e["error"].(map[string]any)["type"] != "invalid_request_error" {
		t.Errorf("after the script: %d %v", status, e)
	}
}

func TestResponsesStream(t *testing.T) {
	srv := mustStart(t, `[
		{"tool_calls": [{"name": "skills_list", "namespace": "mcp__skillrepo", "arguments": {"category": "devops"}}]},
		{"content": "All done, nothing to save.", "usage": {"prompt_tokens": 500, "completion_tokens": 7}}
	]`)
	_, _, evs, _ := post(t, srv, "/v1/responses", `{"model":"gpt-x","stream":true,"input":[]}`, "Authorization", "Bearer k")
	want := "response.created response.output_item.added response.function_call_arguments.delta response.function_call_arguments.done response.output_item.done response.completed"
	if got := names(evs); got != want {
		t.Fatalf("events:\n%s\nwant:\n%s", got, want)
	}
	call := evs[4].data["item"].(map[string]any)
	if call["type"] != "function_call" || call["name"] != "skills_list" || call["namespace"] != "mcp__skillrepo" ||
		call["arguments"] != `{"category":"devops"}` || call["call_id"] != "call_fake1" {
		t.Errorf("function call = %v", call)
	}
	for i, e := range evs {
		if int(num(e.data["sequence_number"])) != i {
			t.Errorf("event %d has sequence number %v", i, e.data["sequence_number"])
		}
	}

	_, _, evs, _ = post(t, srv, "/v1/responses", `{"model":"gpt-x","stream":true,"input":[]}`)
	var text strings.Builder
	for _, e := range evs {
		if e.name == "response.output_text.delta" {
			text.WriteString(e.data["delta"].(string))
		}
	}
	last := evs[len(evs)-1].data["response"].(map[string]any)
	usage := last["usage"].(map[string]any)
	if text.String() != "All done, nothing to save." || last["status"] != "completed" || num(usage["input_tokens"]) != 500 || num(usage["output_tokens"]) != 7 {
		t.Errorf("text %q, completed %v", text.String(), last)
	}
	if n := names(evs); !strings.HasPrefix(n, "response.created response.output_item.added response.content_part.added response.output_text.delta") ||
		!strings.HasSuffix(n, "response.output_text.done response.content_part.done response.output_item.done response.completed") {
		t.Errorf("message events: %s", n)
	}
}

// TestMatch: replies with a condition answer only matching requests; the
// ones skipped stay for later.
func TestMatch(t *testing.T) {
	srv := mustStart(t, `[
		{"content": "a title", "match": "\"max_tokens\":50", "times": -1},
		{"content": "first", "api": "messages"},
		{"content": "second", "unless": "skip me"},
		{"content": "third"}
	]`)
	text := func(body string) string {
		_, _, _, m := post(t, srv, "/v1/messages", body)
		if c, ok := m["content"].([]any); ok {
			return c[0].(map[string]any)["text"].(string)
		}
		return "error: " + m["error"].(map[string]any)["message"].(string)
	}
	steps := []struct{ body, want string }{
		{`{"max_tokens":50,"messages":[]}`, "a title"},
		{`{"max_tokens":9,"messages":[]}`, "first"},
		{`{"max_tokens":9,"messages":["skip me"]}`, "third"},
		{`{"max_tokens":50,"messages":[]}`, "a title"},
		{`{"max_tokens":9,"messages":[]}`, "second"},
		{`{"max_tokens":9,"messages":[]}`, "error: fakemodel: no scripted reply left for request 6"},
	}
	for i, s := range steps {
		if got := text(s.body); got != s.want {
			t.Errorf("request %d: %q, want %q", i+1, got, s.want)
		}
	}
	// api: a chat request does not take a messages-only reply.
	srv = mustStart(t, `[{"content": "for claude", "api": "messages"}, {"content": "for chat"}]`)
	r, err := ask(client(srv, 0), "x")
	if err != nil || r.Choices[0].Message.Content != "for chat" {
		t.Errorf("chat got %v %v", r, err)
	}
	if _, err := ParseScript([]byte(`[{"api": "grpc"}]`)); err == nil {
		t.Error("an unknown api was accepted")
	}
}

// TestLogOtherProtocols: the request log names the protocol of requests
// other than chat completions, with their body.
func TestLogOtherProtocols(t *testing.T) {
	var log bytes.Buffer
	srv := Start(&Script{Replies: []Reply{{Content: "x", Times: -1}}}, &log)
	defer srv.Close()
	post(t, srv, "/v1/messages?beta=true", `{"model":"m","messages":[]}`)
	post(t, srv, "/v1/nothing", `{}`)
	srv.Close()
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("log = %q", log.String())
	}
	var first struct {
		API, Path, Query string
		Body             map[string]any
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first.API != "messages" || first.Query != "beta=true" || first.Body["model"] != "m" {
		t.Errorf("log line %q (%v)", lines[0], err)
	}
	if !strings.Contains(lines[1], `"path":"/v1/nothing"`) {
		t.Errorf("an unserved path is not logged: %q", lines[1])
	}
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

// TestSink: a client told to use the sink as its proxy reaches nothing,
// and the sink records the attempt.
func TestSink(t *testing.T) {
	sink := StartSink(nil)
	defer sink.Close()
	proxy, _ := url.Parse(sink.URL())
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	if _, err := c.Get("https://api.anthropic.example/v1/messages"); err == nil {
		t.Fatal("a request through the sink succeeded")
	}
	if resp, err := c.Get("http://example.invalid/x"); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("plain proxied request: %v %v", resp, err)
	}
	hits := sink.Hits()
	if len(hits) != 2 || hits[0] != "CONNECT api.anthropic.example:443" || hits[1] != "GET http://example.invalid/x" {
		t.Errorf("hits = %q", hits)
	}
}
