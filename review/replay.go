package review

import (
	"fmt"
	"strings"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// digestTail is how many messages digest mode keeps verbatim (docs/reference-behaviour.md §2.6).
const digestTail = 24

// digestHeader opens the synthetic message that stands for the older part
// of a digested conversation.
const digestHeader = "[Earlier conversation, digested to bound the cost of this review; the most recent messages follow verbatim.]"

// digest shortens a conversation the way the reference's routed review
// does: leading system messages and the last 24 messages stay verbatim
// (the tail grows backwards while it would start with a tool result, which
// needs its call), and everything between becomes one user message with a
// line per user or assistant message. Conversations of 24 messages or
// fewer come back unchanged.
func digest(msgs []Message) []Message {
	head := 0
	for head < len(msgs) && (msgs[head].Role == "system" || msgs[head].Role == "developer") {
		head++
	}
	body := msgs[head:]
	if len(body) <= digestTail {
		return msgs
	}
	start := len(body) - digestTail
	for start > 0 && body[start].Role == "tool" {
		start--
	}
	var b strings.Builder
	b.WriteString(digestHeader)
	for _, m := range body[:start] {
		if m.Context {
			// The agent program's own context (its environment, a goal's
			// continuation) is no word of the user's.
			continue
		}
		switch m.Role {
		case "user":
			fmt.Fprintf(&b, "\nUSER: %s", flatten(clip(m.Text(), 300)))
		case "assistant":
			if len(m.ToolCalls) > 0 {
				names := make([]string, len(m.ToolCalls))
				for i, c := range m.ToolCalls {
					names[i] = c.Name
				}
				fmt.Fprintf(&b, "\nASSISTANT[tools: %s]", strings.Join(names, ", "))
			} else {
				fmt.Fprintf(&b, "\nASSISTANT: %s", flatten(clip(m.Text(), 200)))
			}
		}
	}
	out := append([]Message{}, msgs[:head]...)
	out = append(out, Message{Role: "user", Content: b.String()})
	return append(out, body[start:]...)
}

// clip cuts s to n characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

func flatten(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// noResult stands in for the result of a call the transcript never
// answered (the turn was interrupted): providers reject a tool call
// without a result.
const noResult = "[no result recorded: the call was interrupted]"

// replayMessages converts a conversation into chat-completion messages
// every provider accepts, without changing any text the agent saw: each
// tool call gets exactly one result right after its message, results
// whose call is not there become user messages, and assistant messages
// with neither text nor calls (thinking only) are left out. A system
// message keeps its exact text, so a provider's prefix cache still hits.
func replayMessages(msgs []Message) []openai.ChatCompletionMessage {
	out := make([]openai.ChatCompletionMessage, 0, len(msgs)+1)
	var pending []string // call ids of the last assistant message still unanswered
	answered := map[string]bool{}
	flush := func() {
		for _, id := range pending {
			if !answered[id] {
				out = append(out, openai.ChatCompletionMessage{Role: "tool", ToolCallID: id, Content: noResult})
			}
		}
		pending, answered = nil, map[string]bool{}
	}
	for i, m := range msgs {
		if m.Role == "tool" {
			if m.ToolCallID != "" && contains(pending, m.ToolCallID) && !answered[m.ToolCallID] {
				answered[m.ToolCallID] = true
				out = append(out, openai.ChatCompletionMessage{Role: "tool", ToolCallID: m.ToolCallID, Content: nonEmpty(m.Text())})
				continue
			}
			flush()
			out = append(out, openai.ChatCompletionMessage{Role: "user", Content: "[tool result]\n" + m.Text()})
			continue
		}
		flush()
		switch m.Role {
		case "assistant":
			if len(m.ToolCalls) == 0 && strings.TrimSpace(m.Text()) == "" {
				continue
			}
			cm := openai.ChatCompletionMessage{Role: "assistant", Content: m.Text()}
			for j, c := range m.ToolCalls {
				id := c.ID
				if id == "" || contains(pending, id) {
					id = fmt.Sprintf("call_%d_%d", i, j)
				}
				cm.ToolCalls = append(cm.ToolCalls, openai.ToolCall{ID: id, Type: openai.ToolTypeFunction,
					Function: openai.FunctionCall{Name: c.Name, Arguments: c.Arguments}})
				pending = append(pending, id)
			}
			out = append(out, cm)
		default:
			cm := openai.ChatCompletionMessage{Role: m.Role, Name: m.Name}
			if m.Parts != nil {
				for _, p := range m.Parts {
					cm.MultiContent = append(cm.MultiContent, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: p})
				}
			} else {
				cm.Content = m.Content
			}
			out = append(out, cm)
		}
	}
	flush()
	return out
}

func nonEmpty(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
