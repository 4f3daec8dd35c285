package fakemodel

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// geminiPost sends body to path and returns the status and either the
// streamed chunks (data lines, no event names, as Google streams) or the
// one JSON answer.
func geminiPost(t *testing.T, srv *Server, path, body string) (int, []map[string]any, map[string]any) {
	t.Helper()
	resp, err := http.Post(srv.URL()+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var v map[string]any
		data, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: not JSON: %s", path, data)
		}
		return resp.StatusCode, nil, v
	}
	var chunks []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("data is not JSON: %s", line)
			}
			chunks = append(chunks, d)
		case line == "":
		default:
			t.Fatalf("unexpected SSE line %q (Google's stream has data lines only)", line)
		}
	}
	return resp.StatusCode, chunks, nil
}

func candidate(t *testing.T, r map[string]any) map[string]any {
	t.Helper()
	cands, _ := r["candidates"].([]any)
	if len(cands) != 1 {
		t.Fatalf("candidates = %v", r["candidates"])
	}
	return cands[0].(map[string]any)
}

// Gemini CLI streams every turn (…:streamGenerateContent?alt=sse) and
// asks its router with a plain …:generateContent; a reply's text comes
// in chunks and its function calls, with object arguments, in the last
// chunk beside the finish reason and the usage.
func TestGeminiGenerateContent(t *testing.T) {
	srv := mustStart(t, `[
		{"match": "complexity_score", "content": "{\"complexity_reasoning\":\"simple\",\"complexity_score\":1}"},
		{"content": "Let me activate the skill that fits this task best.", "tool_calls": [
			{"name": "activate_skill", "arguments": {"name": "ci-debugging"}},
			{"name": "mcp_skillrepo_skills_list"}],
		 "usage": {"prompt_tokens": 900, "completion_tokens": 12}},
		{"content": "Done."}
	]`)
	status, _, router := geminiPost(t, srv, "/v1beta/models/gemini-3.5-flash-lite:generateContent",
		`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generationConfig":{"responseJsonSchema":{"properties":{"complexity_score":{}}}}}`)
	c := candidate(t, router)
	parts := c["content"].(map[string]any)["parts"].([]any)
	if status != 200 || c["finishReason"] != "STOP" || len(parts) != 1 || !strings.Contains(parts[0].(map[string]any)["text"].(string), `"complexity_score":1`) {
		t.Fatalf("router answer %d %v", status, router)
	}

	status, chunks, _ := geminiPost(t, srv, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		`{"contents":[{"role":"user","parts":[{"text":"fix CI"}]}]}`)
	if status != 200 || len(chunks) < 3 {
		t.Fatalf("stream %d: %v", status, chunks)
	}
	var text strings.Builder
	var calls []string
	for i, ch := range chunks {
		c := candidate(t, ch)
		last := i == len(chunks)-1
		if _, ok := c["finishReason"]; ok != last {
			t.Errorf("chunk %d: finishReason %v (only the last chunk has one)", i, c["finishReason"])
		}
		if _, ok := ch["usageMetadata"]; ok != last {
			t.Errorf("chunk %d: usageMetadata %v", i, ch["usageMetadata"])
		}
		if ch["modelVersion"] != "gemini-2.5-flash" {
			t.Errorf("chunk %d: modelVersion %v", i, ch["modelVersion"])
		}
		for _, p := range c["content"].(map[string]any)["parts"].([]any) {
			p := p.(map[string]any)
			if s, ok := p["text"].(string); ok {
				text.WriteString(s)
			}
			if fc, ok := p["functionCall"].(map[string]any); ok {
				args, _ := json.Marshal(fc["args"])
				calls = append(calls, fc["name"].(string)+string(args))
			}
		}
	}
	if text.String() != "Let me activate the skill that fits this task best." {
		t.Errorf("text = %q", text.String())
	}
	if strings.Join(calls, " ") != `activate_skill{"name":"ci-debugging"} mcp_skillrepo_skills_list{}` {
		t.Errorf("function calls = %v", calls)
	}
	usage := chunks[len(chunks)-1]["usageMetadata"].(map[string]any)
	if num(usage["promptTokenCount"]) != 900 || num(usage["candidatesTokenCount"]) != 12 || num(usage["totalTokenCount"]) != 912 {
		t.Errorf("usage = %v", usage)
	}

	// Counting tokens answers without using a reply.
	_, _, count := geminiPost(t, srv, "/v1beta/models/gemini-2.5-flash:countTokens", `{"contents":[{"role":"user","parts":[{"text":"hello there"}]}]}`)
	if num(count["totalTokens"]) <= 0 {
		t.Errorf("countTokens = %v", count)
	}
	_, _, last := geminiPost(t, srv, "/v1beta/models/gemini-2.5-flash:generateContent", `{"contents":[]}`)
	if p := candidate(t, last)["content"].(map[string]any)["parts"].([]any); p[0].(map[string]any)["text"] != "Done." {
		t.Errorf("last reply = %v", last)
	}
	// Used up: Google's error shape.
	status, _, e := geminiPost(t, srv, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", `{"contents":[]}`)
	ge, _ := e["error"].(map[string]any)
	if status != 400 || ge == nil || num(ge["code"]) != 400 || ge["status"] != "INVALID_ARGUMENT" {
		t.Errorf("after the script: %d %v", status, e)
	}
	var apis []string
	for _, r := range srv.Requests() {
		apis = append(apis, r.API)
	}
	if strings.Join(apis, ",") != "gemini,gemini,gemini,gemini,gemini" {
		t.Errorf("recorded protocols %v", apis)
	}
}

// A script's arguments that are not a JSON object cannot be a Gemini
// function call: the server says so rather than sending something no
// client parses.
func TestGeminiArgumentsMustBeAnObject(t *testing.T) {
	srv := mustStart(t, `[{"tool_calls": [{"name": "activate_skill", "raw_arguments": "{\"name\": "}]}]`)
	status, _, e := geminiPost(t, srv, "/v1beta/models/m:generateContent", `{"contents":[]}`)
	if status != 500 || !strings.Contains(e["error"].(map[string]any)["message"].(string), "must be a JSON object") {
		t.Errorf("%d %v", status, e)
	}
}
