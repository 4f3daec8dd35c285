package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// OpenAI's Responses API (POST /v1/responses, the only wire API of Codex):
// a reply is a response whose output is a message item (when it has
// content) and one function_call item per tool call. Streamed, it is the
// event sequence response.created, then per item
// response.output_item.added, for a message response.content_part.added /
// response.output_text.delta / response.output_text.done /
// response.content_part.done, response.output_item.done, and at last
// response.completed carrying the whole response and its usage.

func writeResponse(w http.ResponseWriter, a answer, stream bool) error {
	type item = map[string]any
	var items []item
	if a.Content != "" || len(a.ToolCalls) == 0 {
		items = append(items, item{"id": fmt.Sprintf("msg_fake%d", a.n), "type": "message", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": a.Content, "annotations": []any{}}}})
	}
	for i, c := range a.ToolCalls {
		args, err := c.arguments()
		if err != nil {
			return err
		}
		it := item{"id": fmt.Sprintf("fc_fake%d_%d", a.n, i), "type": "function_call", "status": "completed",
			"call_id": a.ids[i], "name": c.Name, "arguments": args}
		if c.Namespace != "" {
			it["namespace"] = c.Namespace
		}
		items = append(items, it)
	}
	u := a.usage()
	id := fmt.Sprintf("resp_fake%d", a.n)
	response := func(status string, output []item, usage bool) map[string]any {
		r := map[string]any{"id": id, "object": "response", "created_at": 0, "status": status, "model": a.model, "output": output}
		if usage {
			r["usage"] = map[string]any{"input_tokens": u.PromptTokens, "output_tokens": u.CompletionTokens,
				"total_tokens":         u.PromptTokens + u.CompletionTokens,
				"input_tokens_details": map[string]int{"cached_tokens": 0}, "output_tokens_details": map[string]int{"reasoning_tokens": 0}}
		}
		return r
	}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(response("completed", items, true))
	}
	ev := newEvents(w)
	seq := 0
	send := func(typ string, v map[string]any) {
		v["type"], v["sequence_number"] = typ, seq
		seq++
		ev.send(typ, v)
	}
	send("response.created", map[string]any{"response": response("in_progress", []item{}, false)})
	for i, it := range items {
		switch it["type"] {
		case "message":
			text := it["content"].([]any)[0].(map[string]any)["text"].(string)
			send("response.output_item.added", map[string]any{"output_index": i,
				"item": item{"id": it["id"], "type": "message", "status": "in_progress", "role": "assistant", "content": []any{}}})
			send("response.content_part.added", map[string]any{"item_id": it["id"], "output_index": i, "content_index": 0,
				"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
			for _, part := range chunks(text, 40) {
				send("response.output_text.delta", map[string]any{"item_id": it["id"], "output_index": i, "content_index": 0, "delta": part})
			}
			send("response.output_text.done", map[string]any{"item_id": it["id"], "output_index": i, "content_index": 0, "text": text})
			send("response.content_part.done", map[string]any{"item_id": it["id"], "output_index": i, "content_index": 0,
				"part": map[string]any{"type": "output_text", "text": text, "annotations": []any{}}})
		case "function_call":
			args := it["arguments"].(string)
			added := item{"id": it["id"], "type": "function_call", "status": "in_progress", "call_id": it["call_id"], "name": it["name"], "arguments": ""}
			if ns, ok := it["namespace"]; ok {
				added["namespace"] = ns
			}
			send("response.output_item.added", map[string]any{"output_index": i, "item": added})
			for _, part := range chunks(args, 40) {
				send("response.function_call_arguments.delta", map[string]any{"item_id": it["id"], "output_index": i, "delta": part})
			}
			send("response.function_call_arguments.done", map[string]any{"item_id": it["id"], "output_index": i, "arguments": args})
		}
		send("response.output_item.done", map[string]any{"output_index": i, "item": it})
	}
	send("response.completed", map[string]any{"response": response("completed", items, true)})
	return ev.err
}
