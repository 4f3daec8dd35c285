package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Google's Generative Language API (what Gemini CLI speaks, pointed at us
// by GOOGLE_GEMINI_BASE_URL): POST /v1beta/models/{model}:generateContent
// answers one GenerateContentResponse; …:streamGenerateContent?alt=sse
// answers a stream of them as server-sent events without event names
// (data lines only), the text cut into chunks, the function calls in the
// last chunk with the finish reason and the usage. …:countTokens answers
// the body's size divided by four. A reply is a candidate whose content
// has a text part (when it has content) and one functionCall part per
// tool call, its arguments an object (functionCall.args).

// geminiMethod is the model and method of a Gemini path
// (/v1beta/models/MODEL:METHOD), or "" when path is not one.
func geminiMethod(path string) (model, method string) {
	i := strings.Index(path, "/models/")
	if i < 0 {
		return "", ""
	}
	rest := path[i+len("/models/"):]
	j := strings.LastIndex(rest, ":")
	if j <= 0 {
		return "", ""
	}
	switch m := rest[j+1:]; m {
	case "generateContent", "streamGenerateContent", "countTokens":
		return rest[:j], m
	}
	return "", ""
}

// geminiStatus is the status word Google's errors carry for an HTTP code.
func geminiStatus(code int) string {
	switch code {
	case http.StatusBadRequest:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	}
	return "INTERNAL"
}

func writeGemini(w http.ResponseWriter, a answer, method string) error {
	if method == "countTokens" {
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(map[string]int{"totalTokens": a.size / 4})
	}
	type part = map[string]any
	var calls []part
	for _, c := range a.ToolCalls {
		args, err := c.arguments()
		if err != nil {
			return err
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(args), &obj); err != nil {
			// Gemini sends arguments as an object; a script's broken
			// arguments cannot be sent as such.
			return fmt.Errorf("tool call %s: Gemini arguments must be a JSON object: %v", c.Name, err)
		}
		fc := map[string]any{"name": c.Name, "args": obj}
		if c.ID != "" {
			fc["id"] = c.ID
		}
		calls = append(calls, part{"functionCall": fc})
	}
	finish := a.FinishReason
	if finish == "" {
		finish = "STOP"
	}
	u := a.usage()
	usage := map[string]int{"promptTokenCount": u.PromptTokens, "candidatesTokenCount": u.CompletionTokens,
		"totalTokenCount": u.PromptTokens + u.CompletionTokens}
	response := func(parts []part, last bool) map[string]any {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		r := map[string]any{"candidates": []any{cand}, "modelVersion": a.model, "responseId": fmt.Sprintf("fake%d", a.n)}
		if last {
			cand["finishReason"] = finish
			r["usageMetadata"] = usage
		}
		return r
	}
	if method == "generateContent" {
		parts := []part{}
		if a.Content != "" || len(calls) == 0 {
			parts = append(parts, part{"text": a.Content})
		}
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(response(append(parts, calls...), true))
	}
	ev := newEvents(w)
	var texts []string
	if a.Content != "" || len(calls) == 0 {
		texts = chunks(a.Content, 40)
	}
	for i, t := range texts {
		last := i == len(texts)-1 && len(calls) == 0
		ev.data(response([]part{{"text": t}}, last))
	}
	if len(calls) > 0 {
		ev.data(response(calls, true))
	}
	return ev.err
}
