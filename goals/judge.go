package goals

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// The judge's verdicts.
const (
	VerdictDone     = "done"
	VerdictContinue = "continue"
	VerdictWait     = "wait"
)

// Verdict is the judge's decision on one turn.
type Verdict struct {
	Verdict string    `json:"verdict"`
	Reason  string    `json:"reason,omitempty"`
	WaitPID int       `json:"wait_on_pid,omitempty"`
	WaitFor float64   `json:"wait_for_seconds,omitempty"`
	At      time.Time `json:"at,omitzero"`
	// Turn is the turn the verdict was given on.
	Turn int `json:"turn,omitempty"`
}

// ErrUnparsable is a judge reply with no verdict in it.
var ErrUnparsable = errors.New("the judge's reply holds no verdict")

// ParseVerdict reads the judge's reply tolerantly: the whole text or the
// first {...} in it, inside code fences or not, in the current form
// {"verdict": ..., "reason": ...} or the legacy {"done": bool}. An unknown
// verdict means continue, and so does a wait with nothing to wait on
// (docs/reference-behaviour.md §9): when in doubt the agent keeps going,
// bounded by the turn budget.
func ParseVerdict(text string) (Verdict, error) {
	text = strings.TrimSpace(stripFences(text))
	if text == "" {
		return Verdict{}, fmt.Errorf("%w: the reply is empty", ErrUnparsable)
	}
	var raw struct {
		Verdict *string         `json:"verdict"`
		Done    *bool           `json:"done"`
		Reason  string          `json:"reason"`
		PID     json.RawMessage `json:"wait_on_pid"`
		Seconds json.RawMessage `json:"wait_for_seconds"`
	}
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		obj, ok := firstObject(text)
		if !ok {
			return Verdict{}, fmt.Errorf("%w: %q", ErrUnparsable, clip(text, 120))
		}
		if err := json.Unmarshal([]byte(obj), &raw); err != nil {
			return Verdict{}, fmt.Errorf("%w: %v", ErrUnparsable, err)
		}
	}
	v := Verdict{Reason: strings.TrimSpace(raw.Reason)}
	switch {
	case raw.Verdict != nil:
		v.Verdict = strings.ToLower(strings.TrimSpace(*raw.Verdict))
	case raw.Done != nil && *raw.Done:
		v.Verdict = VerdictDone
	case raw.Done != nil:
		v.Verdict = VerdictContinue
	default:
		return Verdict{}, fmt.Errorf("%w: no \"verdict\" field", ErrUnparsable)
	}
	switch v.Verdict {
	case VerdictDone, VerdictContinue:
	case VerdictWait:
		v.WaitPID = int(number(raw.PID))
		v.WaitFor = number(raw.Seconds)
		if v.WaitPID <= 0 && v.WaitFor <= 0 {
			v.Verdict = VerdictContinue
		}
	default:
		v.Verdict = VerdictContinue
	}
	return v, nil
}

// number reads a JSON number or a numeric string; anything else is 0.
func number(raw json.RawMessage) float64 {
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return f
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		fmt.Sscanf(strings.TrimSpace(s), "%g", &f)
	}
	return f
}

func stripFences(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	if i := strings.IndexByte(s, '\n'); i >= 0 && !strings.Contains(s[:i], "{") {
		s = s[i+1:] // the fence's language tag
	}
	if i := strings.LastIndex(s, "```"); i >= 0 {
		s = s[:i]
	}
	return s
}

// firstObject finds the first balanced {...} in s, minding strings.
func firstObject(s string) (string, bool) {
	start := strings.IndexByte(s, '{')
	if start < 0 {
		return "", false
	}
	depth, inStr, esc := 0, false, false
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return s[start : i+1], true
			}
		}
	}
	return "", false
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut-- // never split a UTF-8 sequence
	}
	return s[:cut] + "…"
}

// ChatClient is the one call the judge makes; *openai.Client implements
// it.
type ChatClient interface {
	CreateChatCompletion(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error)
}

// Asker puts one question to a model with a system prompt and returns
// the answer's text: the agent's own program as the judge's backend
// (package agentcli's Program).
type Asker interface {
	Ask(ctx context.Context, system, user string) (string, error)
}

// ErrNoJudge is a judge with no model to ask: nothing is configured and
// no agent program can stand in. It is a setting to fix, not a failure
// to ride out.
var ErrNoJudge = errors.New("no judge model: set goals.model (or review.model) and a base URL in .skillrepo/config.yaml, or run the agent where its own program is found")

// Judge asks a model whether a goal is met: through Asker when set (the
// agent's own program), else a chat completion of Model on Client (an
// OpenAI-compatible endpoint, sent with temperature 0: see
// [ZeroTemperature]).
type Judge struct {
	Client ChatClient
	Model  string
	Asker  Asker
	// Timeout bounds one judge call (0: 30 s).
	Timeout time.Duration
	// MaxTokens caps the reply (0: 4096), in the field Client's server
	// reads (see replyCap).
	MaxTokens int
	// BaseURL is the address of the server Client speaks to ("" for
	// OpenAI's own): it decides how the reply cap is named.
	BaseURL string
}

// Task is one of the agent's background jobs, as its Stop event lists
// them.
type Task struct {
	ID          string `json:"id,omitempty"`
	Type        string `json:"type,omitempty"`
	Status      string `json:"status,omitempty"`
	Description string `json:"description,omitempty"`
	Command     string `json:"command,omitempty"`
}

// Ask sends one judge request and returns the raw reply text. An error is
// a failure of the call (network, HTTP status, timeout, an empty reply),
// never of the verdict's form.
func (j *Judge) Ask(ctx context.Context, st State, last string, tasks []Task, now time.Time) (string, error) {
	if j == nil || (j.Asker == nil && (j.Client == nil || j.Model == "")) {
		return "", ErrNoJudge
	}
	timeout := j.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	if j.Asker != nil {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		text, err := j.Asker.Ask(ctx, judgeSystemPrompt, judgeUserPrompt(st, last, tasks, now))
		switch {
		case err != nil && ctx.Err() != nil:
			return "", fmt.Errorf("the judge did not answer within %s", timeout)
		case err != nil:
			return "", fmt.Errorf("judge call: %w", err)
		case strings.TrimSpace(text) == "":
			return "", errors.New("the judge's reply was empty")
		}
		return text, nil
	}
	maxTokens := j.MaxTokens
	if maxTokens <= 0 {
		maxTokens = 4096
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req := openai.ChatCompletionRequest{
		Model: j.Model,
		// Temperature 0, which go-openai's omitempty drops from the
		// body: the client's HTTP doer puts it back (ZeroTemperature).
		Temperature: 0,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: judgeSystemPrompt},
			{Role: openai.ChatMessageRoleUser, Content: judgeUserPrompt(st, last, tasks, now)},
		},
	}
	replyCap(&req, j.BaseURL, maxTokens)
	resp, err := j.Client.CreateChatCompletion(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("the judge did not answer within %s", timeout)
		}
		return "", fmt.Errorf("judge call: %w", err)
	}
	if len(resp.Choices) == 0 || strings.TrimSpace(resp.Choices[0].Message.Content) == "" {
		return "", errors.New("the judge's reply was empty")
	}
	return resp.Choices[0].Message.Content, nil
}

// judgeSystemPrompt is our own wording of the judge's contract
// (docs/reference-behaviour.md §9).
const judgeSystemPrompt = `You judge whether an AI agent has reached a standing goal. You see the goal, any
criteria attached to it, the agent's latest reply, the agent's background jobs
and the time. Be strict and literal.

Answer "done" when the latest reply shows the goal is reached (the deliverable
is shown, or completion is stated with evidence), or when the goal cannot be
reached: it is blocked, impossible, or needs something only the user can give.
When criteria, a contract or subgoals are given, "done" needs concrete evidence
for every one of them (for a contract: its Verification); a broken constraint
or boundary means "continue".

Answer "wait" only when progress truly depends on a listed background job
finishing (give "wait_on_pid") or on a fixed delay (give "wait_for_seconds").

Answer "continue" in every other case, and whenever you are unsure.

Reply with one line of JSON and nothing else:
{"verdict": "done" | "continue" | "wait", "reason": "<one sentence>"}
with "wait_on_pid": <pid> or "wait_for_seconds": <n> added for "wait".`

func judgeUserPrompt(st State, last string, tasks []Task, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Goal:\n%s\n\n", clip(st.Goal, MaxGoalLen))
	switch {
	case !st.Contract.empty():
		fmt.Fprintf(&b, "Contract:\n%s\n\n", clip(contractText(st.Contract), MaxContractLen))
	case len(st.Subgoals) > 0:
		fmt.Fprintf(&b, "Every one of these must also hold:\n%s\n\n", clip(bullets(st.Subgoals), MaxSubgoalsLen))
	}
	fmt.Fprintf(&b, "The agent's latest reply:\n%s\n\n", clip(strings.TrimSpace(last), 4000))
	if len(tasks) == 0 {
		b.WriteString("Background jobs: none.\n\n")
	} else {
		b.WriteString("Background jobs:\n")
		for _, t := range tasks {
			fmt.Fprintf(&b, "- %s %s (%s): %s %s\n", t.ID, t.Type, t.Status, t.Description, t.Command)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Turns used: %d of %d. Time now: %s.", st.TurnsUsed, st.MaxTurns, now.UTC().Format(time.RFC3339))
	return b.String()
}

func contractText(c *Contract) string {
	var b strings.Builder
	for _, f := range []struct{ k, v string }{
		{"Outcome", c.Outcome}, {"Verification", c.Verification}, {"Constraints", c.Constraints},
		{"Boundaries", c.Boundaries}, {"Stop when", c.StopWhen},
	} {
		if f.v != "" {
			fmt.Fprintf(&b, "%s: %s\n", f.k, strings.TrimSpace(f.v))
		}
	}
	return strings.TrimSpace(b.String())
}

func bullets(list []string) string {
	var b strings.Builder
	for _, s := range list {
		fmt.Fprintf(&b, "- %s\n", strings.TrimSpace(s))
	}
	return strings.TrimSpace(b.String())
}

// ContinuationPrompt is what the agent is told when the judge says
// continue: the goal, the next step, and when to stop.
func ContinuationPrompt(st State, reason string) string {
	var b strings.Builder
	b.WriteString("[Continuing toward your standing goal]\n\n")
	fmt.Fprintf(&b, "Goal: %s\n\n", strings.TrimSpace(st.Goal))
	switch {
	case !st.Contract.empty():
		fmt.Fprintf(&b, "Contract:\n%s\n\n", contractText(st.Contract))
		b.WriteString("Work within the boundaries and constraints. The goal counts as met only when the " +
			"Verification is satisfied and you show concrete evidence of it (commands run and their output).\n\n")
	case len(st.Subgoals) > 0:
		fmt.Fprintf(&b, "It is met only when all of these hold:\n%s\n\n", bullets(st.Subgoals))
	}
	if reason = strings.TrimSpace(reason); reason != "" {
		fmt.Fprintf(&b, "Judge's note on your last turn: %s\n\n", reason)
	}
	fmt.Fprintf(&b, "Take the next concrete step toward the goal (turn %d of %d). "+
		"If the goal is complete, say so plainly, show the evidence, and stop. "+
		"If you are blocked or need the user, say what blocks you and stop.", st.TurnsUsed+1, st.MaxTurns)
	return b.String()
}

// replyCap caps req's reply at n tokens in the field its server reads, as
// the reference's judge does (docs/reference-behaviour.md §9): OpenAI's
// own endpoint, and OpenAI's newer model families wherever they are served
// (a gateway or OpenRouter in front of them), refuse max_tokens with HTTP
// 400 and take max_completion_tokens; the other OpenAI-compatible servers
// (llama.cpp, Ollama, vLLM, LM Studio) read max_tokens, and some of them
// ignore max_completion_tokens, which would leave the reply uncapped.
func replyCap(req *openai.ChatCompletionRequest, baseURL string, n int) {
	if openAIHost(baseURL) || completionTokensModel(req.Model) {
		req.MaxCompletionTokens = n
		return
	}
	//lint:ignore SA1019 max_tokens is the field these servers read (see above); go-openai deprecates it for OpenAI's own models only
	req.MaxTokens = n
}

// openAIHost reports whether baseURL is OpenAI's own API ("" is: the
// client's default). The host is compared exactly, so a proxy at
// api.openai.com.example, or one with api.openai.com in its path, is not.
func openAIHost(baseURL string) bool {
	if baseURL == "" {
		return true
	}
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".") == "api.openai.com"
}

// completionTokensModel reports whether model belongs to one of OpenAI's
// families that refuse max_tokens (gpt-4o, gpt-4.1, gpt-5, o1, o3, o4), a
// vendor prefix ("openai/gpt-5") aside.
func completionTokensModel(model string) bool {
	m := strings.ToLower(strings.TrimSpace(model))
	m = m[strings.LastIndex(m, "/")+1:]
	for _, family := range []string{"gpt-4o", "gpt-4.1", "gpt-5", "o1", "o3", "o4"} {
		if strings.HasPrefix(m, family) {
			return true
		}
	}
	return false
}
