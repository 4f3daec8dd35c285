package modelcall

import (
	"context"
	"encoding/json"
	"fmt"

	openai "github.com/sashabaranov/go-openai"
)

// How a loop ended. The words are the ones the review's summary and the
// curator's run record print.
const (
	StatusCompleted = "completed" // the model gave its final answer
	StatusCapped    = "capped"    // stopped at the call cap; what was written stands
	StatusFailed    = "failed"    // a model error, the budget, or an interruption
)

// Dispatch runs one tool call of the model and returns the text the model
// reads as its result. It never fails: a refusal or an error is a result
// the model can read.
type Dispatch func(ctx context.Context, call openai.ToolCall) string

// Loop is the agent loop every model-facing pass here shares (the
// background review, the curator's consolidation): call the model, account
// its tokens, append its answer, run the tool calls it asked for, append
// their results, and again, until the model answers without a tool call,
// the call cap or the input budget is reached, a call fails, or ctx ends.
//
// It runs against an OpenAI-compatible endpoint in this process. An
// agent's own command-line program (Claude Code, Codex, Gemini CLI, OpenCode, Copilot CLI) runs the same
// loop itself, calling our tools over MCP, and reports the same
// [Outcome] (see docs/agents.md, "The model backend").
type Loop struct {
	Caller Caller
	// MaxCalls caps the model calls; it must be positive.
	MaxCalls int
	// InputBudget bounds the input tokens of all calls together, checked
	// before each call (so the call that crosses it completes); 0 means
	// no bound.
	InputBudget int
}

// Outcome is how a loop went.
type Outcome struct {
	Status string
	// Reason says why a loop did not complete.
	Reason string
	// Final is the model's last answer (Status completed).
	Final string
	// Calls counts the model calls that answered; TokensIn and TokensOut
	// add up what they reported (a call that reports no input tokens is
	// estimated from its request's size).
	Calls     int
	TokensIn  int
	TokensOut int
	// Err is the failed model call's error when one ended the loop, for a
	// caller that tells a transient failure from a permanent one.
	Err error
	// Messages are the conversation as it ended: the request's, then
	// each answer and tool result.
	Messages []openai.ChatCompletionMessage
}

// Run holds the conversation req starts (its model, tools and messages)
// and runs each tool call through dispatch, one at a time, in order.
func (l Loop) Run(ctx context.Context, req openai.ChatCompletionRequest, dispatch Dispatch) (out Outcome) {
	defer func() { out.Messages = req.Messages }()
	for {
		if out.Calls >= l.MaxCalls {
			out.Status, out.Reason = StatusCapped, fmt.Sprintf("stopped at the cap of %d model calls", l.MaxCalls)
			return out
		}
		if l.InputBudget > 0 && out.TokensIn >= l.InputBudget {
			out.Status, out.Reason = StatusFailed, fmt.Sprintf("input budget exhausted: %d of %d tokens used after %d model calls", out.TokensIn, l.InputBudget, out.Calls)
			return out
		}
		resp, err := l.Caller.Call(ctx, req)
		if err != nil {
			out.Status, out.Reason, out.Err = StatusFailed, "model call failed: "+err.Error(), err
			return out
		}
		out.Calls++
		in := resp.Usage.PromptTokens
		if in == 0 {
			in = EstimateTokens(req)
		}
		out.TokensIn += in
		out.TokensOut += resp.Usage.CompletionTokens
		if len(resp.Choices) == 0 {
			out.Status, out.Reason = StatusFailed, "the model returned no choices"
			return out
		}
		msg := resp.Choices[0].Message
		req.Messages = append(req.Messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: msg.Content, ToolCalls: msg.ToolCalls})
		if len(msg.ToolCalls) == 0 {
			out.Status, out.Final = StatusCompleted, msg.Content
			return out
		}
		for _, call := range msg.ToolCalls {
			if err := ctx.Err(); err != nil {
				out.Status, out.Reason = StatusFailed, "interrupted: "+err.Error()
				return out
			}
			req.Messages = append(req.Messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: call.ID, Content: dispatch(ctx, call)})
		}
	}
}

// EstimateTokens guesses a request's input tokens from its JSON size
// (about four bytes a token for English and code): for a server that
// reports no usage, and to decide before a call whether a conversation
// fits a budget.
func EstimateTokens(req openai.ChatCompletionRequest) int {
	data, err := json.Marshal(req)
	if err != nil {
		return 0
	}
	return len(data) / 4
}

// Task is one agent pass for a [Backend] to hold: the conversation and
// the tools, in the forms the backends need, and the bounds.
type Task struct {
	// Request is the whole conversation with the tools offered, for a
	// backend that runs the loop itself (an OpenAI-compatible endpoint).
	Request openai.ChatCompletionRequest
	// Prompt is the last message alone (the instructions), for a
	// backend that resumes the session Resume names, which already holds
	// the conversation before it.
	Prompt string
	// Resume names the agent session the conversation continues ("" for
	// none).
	Resume string
	// Text is the whole conversation as one message, for a backend that
	// starts a fresh session (the system message, if any, is not in it:
	// see System).
	Text string
	// System is the system prompt of a fresh session.
	System string
	// MaxCalls caps the model calls; InputBudget bounds the input tokens
	// (0: none).
	MaxCalls    int
	InputBudget int
	// Dispatch runs the tool calls, in this process, whichever backend
	// holds the conversation.
	Dispatch Dispatch
}

// Backend holds a [Task]'s conversation with a model: [Endpoint] runs the
// [Loop] here against an OpenAI-compatible endpoint; an agent's own
// program (package agentcli) runs its loop itself and calls Dispatch
// through an MCP server.
type Backend interface {
	Run(ctx context.Context, t Task) Outcome
}

// Endpoint is the in-process backend.
type Endpoint struct{ Caller Caller }

// Run runs the loop over t.Request.
func (e Endpoint) Run(ctx context.Context, t Task) Outcome {
	return Loop{Caller: e.Caller, MaxCalls: t.MaxCalls, InputBudget: t.InputBudget}.Run(ctx, t.Request, t.Dispatch)
}
