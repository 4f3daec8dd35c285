// Package modelcall is the model side of every agent pass here — the
// background review, the curator's consolidation: [Caller] makes one
// chat-completion call with a timeout and bounded retries (a doubling
// back-off for the failures worth another try: the server or the network
// was busy or broken, not a request it rejected), and [Loop] is the agent
// loop built on it (call, account tokens, append, dispatch tool calls,
// stop at a cap, a budget or an interruption). It imports nothing of
// ours, so review and curator share it without importing each other.
package modelcall

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Client is the one method of an OpenAI-compatible client a call needs.
type Client interface {
	CreateChatCompletion(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error)
}

// Defaults for a zero [Caller] field.
const (
	DefaultRetries = 2
	DefaultBackoff = time.Second
)

// Caller makes calls through Client. The zero values of Retries and
// Backoff take the defaults; Timeout has none, because how long a call
// may take is the caller's policy (a review is shorter than a
// consolidation).
type Caller struct {
	Client Client
	// Retries is how many times a retryable failure is tried again:
	// 0 means DefaultRetries, a negative value none.
	Retries int
	// Backoff is the wait before the first retry, doubled before each
	// next; 0 or less means DefaultBackoff.
	Backoff time.Duration
	// Timeout bounds each attempt; 0 or less: only ctx bounds it.
	Timeout time.Duration
}

// Call sends req and returns the first answer. It gives up at the first
// failure that is not [Retryable] or after the retries, returning the
// last error, or when ctx ends, returning an error that wraps ctx's
// (errors.Is(err, context.Canceled)) whether ctx ended during a back-off
// wait or during an attempt that then failed for another reason.
func (c Caller) Call(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	retries := c.Retries
	switch {
	case retries == 0:
		retries = DefaultRetries
	case retries < 0:
		retries = 0
	}
	backoff := c.Backoff
	if backoff <= 0 {
		backoff = DefaultBackoff
	}
	var lastErr error
	for attempt := 0; attempt <= retries; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(backoff)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return openai.ChatCompletionResponse{}, ctx.Err()
			}
			backoff *= 2
		}
		resp, err := c.once(ctx, req)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		if ctxErr := ctx.Err(); ctxErr != nil {
			if errors.Is(err, ctxErr) {
				return openai.ChatCompletionResponse{}, err
			}
			return openai.ChatCompletionResponse{}, fmt.Errorf("%w (the attempt under way failed: %v)", ctxErr, err)
		}
		if !Retryable(err) {
			break
		}
	}
	return openai.ChatCompletionResponse{}, lastErr
}

func (c Caller) once(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	return c.Client.CreateChatCompletion(ctx, req)
}

// StatusError is a failed model call a program reported (an agent's own
// program says which HTTP status its provider answered).
type StatusError struct {
	Status int
	Msg    string
}

func (e *StatusError) Error() string {
	if e.Msg == "" {
		return fmt.Sprintf("the model provider answered HTTP %d", e.Status)
	}
	return e.Msg
}

// Retryable reports whether a failed call is worth another try: HTTP 408,
// 409, 429 and 5xx, a network error, or an attempt that timed out — not a
// request the server rejected (400, 401, 404 …).
func Retryable(err error) bool {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	var stErr *StatusError
	status := 0
	switch {
	case errors.As(err, &stErr):
		status = stErr.Status
	case errors.As(err, &apiErr):
		status = apiErr.HTTPStatusCode
	case errors.As(err, &reqErr):
		status = reqErr.HTTPStatusCode
	}
	if status != 0 {
		return status == 408 || status == 409 || status == 429 || status >= 500
	}
	var netErr net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr)
}
