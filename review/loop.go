package review

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/internal/modelcall"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// Limits of a review (docs/reference-behaviour.md §2.4).
const (
	DefaultMaxCalls     = 16
	maxInputCeiling     = 600_000
	unknownWindowBudget = 120_000
)

// ChatClient is the one call a review makes to a model; *openai.Client
// implements it.
type ChatClient interface {
	CreateChatCompletion(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error)
}

// Options configure one review.
type Options struct {
	Transcript *Transcript
	// Memory and Skills choose what is reviewed (docs/reference-behaviour.md §2.1); neither means
	// skills.
	Memory bool
	Skills bool
	// Focus, when set, makes this a review the user asked for (/refine):
	// the focus is appended to the prompt, and the review is attended, so
	// memory replace and remove are not held back (docs/reference-behaviour.md §1.7, §7.6).
	Focus     string
	Attended  bool
	SessionID string
	ReviewID  string // empty: generated
	Model     string
	Client    ChatClient
	// MaxCalls caps model calls (0: 16).
	MaxCalls int
	// MaxInputTokens is the input budget across all calls: > 0 that many
	// tokens, < 0 unlimited, 0 the reference's default (see InputBudget).
	MaxInputTokens int
	// ContextWindow is the model's context length in tokens (0: unknown).
	ContextWindow int
	// WriteApproval leaves the proposal unmerged for a person to approve.
	WriteApproval bool
	// GoalID, when set, is the standing goal the session pursued; every
	// commit of the review carries it in a Goal-Id trailer.
	GoalID string
	// Retries is how many times a failed model call is retried (HTTP 408,
	// 409, 429, 5xx, network errors and timeouts); 0 means 2, < 0 none.
	Retries        int
	RetryBackoff   time.Duration // first back-off (0: 1 s), doubled per retry
	RequestTimeout time.Duration // per model call (0: 5 min)
	Now            func() time.Time
	// Progress, when set, hears of every write as it lands.
	Progress func(Change)
	// Backend holds the conversation; nil is the in-process loop against
	// Client (modelcall.Endpoint with Retries, RetryBackoff and
	// RequestTimeout). Either way the tools run here.
	Backend modelcall.Backend
	// Project is the folder of the project the session worked in (its
	// transcript's or its hook's cwd): the review may read it, read-only,
	// with read_file and search_files' scope "project" (agenttools,
	// project.go), and the prompt says so. Empty: the library alone.
	Project string
	// Resume, for a backend that can, is the agent session to fork: it
	// holds the conversation, so only the prompt is sent (a session over
	// the input budget is sent as a digest instead, in a fresh session).
	Resume string
}

// InputBudget is the reference's input-token budget (docs/reference-behaviour.md §2.4): an
// explicit value when positive, unlimited (0) when negative, else
// min(600k, 75% of the context window), or 120k when the window is
// unknown.
func InputBudget(maxInput, contextWindow int) int {
	switch {
	case maxInput > 0:
		return maxInput
	case maxInput < 0:
		return 0
	case contextWindow <= 0:
		return unknownWindowBudget
	}
	return min(maxInputCeiling, contextWindow*3/4)
}

// NewReviewID makes an id like r-20261130-0a1b2c.
func NewReviewID(now time.Time) string {
	var b [3]byte
	rand.Read(b[:])
	return fmt.Sprintf("r-%s-%s", now.UTC().Format("20060102"), hex.EncodeToString(b[:]))
}

// Run reviews a transcript: it hands the conversation (the session, then
// the review instructions) to the backend, whose model runs its tool
// calls through the guards, each successful write a commit on
// proposals/<review-id>. At the end the proposal is merged into the main
// branch unless WriteApproval is set or the review failed. Run returns a
// summary in every case where it got as far as asking the model; the
// error is for what stopped it before that (bad options, an unreadable
// library).
func Run(ctx context.Context, lib Library, opts Options) (*Summary, error) {
	if opts.Transcript == nil {
		return nil, errors.New("review: no transcript")
	}
	if opts.Backend == nil && opts.Client == nil {
		return nil, errors.New("review: no model client")
	}
	if opts.Model == "" {
		return nil, errors.New("review: no model: pass --model, set review.model in the config, or SKILLREPO_MODEL")
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	if opts.ReviewID == "" {
		opts.ReviewID = NewReviewID(now())
	}
	if !validReviewID(opts.ReviewID) {
		return nil, fmt.Errorf("review: invalid review id %q", opts.ReviewID)
	}
	if !opts.Memory && !opts.Skills {
		opts.Skills = true
	}
	if opts.Focus != "" {
		opts.Attended = true
	}
	maxCalls := opts.MaxCalls
	if maxCalls <= 0 {
		maxCalls = DefaultMaxCalls
	}
	mainBranch := lib.MainBranch()
	baseView, err := lib.View(ctx, mainBranch)
	if err != nil {
		return nil, fmt.Errorf("review: read %s: %w", mainBranch, err)
	}
	t := opts.Transcript
	sessionID := cmp.Or(opts.SessionID, t.SessionID)
	job := Job{
		ReviewID: opts.ReviewID, SessionID: sessionID, Model: opts.Model, TranscriptSHA256: t.SHA256,
		GoalID: opts.GoalID, Memory: opts.Memory, Attended: opts.Attended, Base: baseView.Commit(), Project: opts.Project,
	}
	allowed := job.Tools()
	tools, err := toolDefs(allowed)
	if err != nil {
		return nil, err
	}

	sum := &Summary{
		ReviewID: opts.ReviewID, SessionID: sessionID, Model: opts.Model, TranscriptSHA256: t.SHA256,
		Memory: opts.Memory, Skills: opts.Skills, Base: job.Base, MainBranch: mainBranch,
	}
	prompt := buildPrompt(opts.Memory, opts.Skills, allowed, job.Project, opts.Focus)
	task := modelcall.Task{Prompt: prompt, Resume: opts.Resume, MaxCalls: maxCalls, InputBudget: InputBudget(opts.MaxInputTokens, opts.ContextWindow)}
	msgs := t.Messages
	task.Request = openai.ChatCompletionRequest{Model: opts.Model, Tools: tools}
	task.Request.Messages = append(replayMessages(msgs), openai.ChatCompletionMessage{Role: "user", Content: prompt})
	budget := task.InputBudget
	if routed := otherModel(t.Model, opts.Model); routed || (budget > 0 && modelcall.EstimateTokens(task.Request) > budget) {
		// The conversation does not fit, or goes to another model than
		// the session's (whose cached prefix it would not reuse): send
		// the older part as a digest and the recent messages verbatim
		// (docs/reference-behaviour.md §2.6), in a fresh session for a
		// backend that would resume it.
		msgs, task.Resume = digest(t.Messages), ""
		task.Request.Messages = append(replayMessages(msgs), openai.ChatCompletionMessage{Role: "user", Content: prompt})
		sum.Digest = len(msgs) < len(t.Messages)
		if est := modelcall.EstimateTokens(task.Request); budget > 0 && est > budget {
			sum.Status, sum.Reason = StatusFailed, fmt.Sprintf("the transcript does not fit the input budget of %d tokens even as a digest (about %d tokens)", budget, est)
			return finish(ctx, lib, sum, agenttools.Record{}, opts), nil
		}
	}
	task.Text = conversationText(msgs, prompt)
	tb := job.Toolbox(lib, opts.Progress)
	task.Dispatch = func(ctx context.Context, call openai.ToolCall) string {
		return tb.Call(ctx, call.Function.Name, call.Function.Arguments).Text
	}
	backend := opts.Backend
	if backend == nil {
		timeout := opts.RequestTimeout
		if timeout <= 0 {
			timeout = 5 * time.Minute
		}
		backend = modelcall.Endpoint{Caller: modelcall.Caller{Client: opts.Client, Retries: opts.Retries, Backoff: opts.RetryBackoff, Timeout: timeout}}
	}
	sum.record(backend.Run(ctx, task))
	return finish(ctx, lib, sum, tb.EndSession(), opts), nil
}

// otherModel reports whether a review on model review runs on another
// model than the session's (session "" : not known, taken as the same).
// A provider prefix ("anthropic/claude-x") and case do not count.
func otherModel(session, review string) bool {
	norm := func(m string) string {
		m = strings.ToLower(strings.TrimSpace(m))
		return m[strings.LastIndex(m, "/")+1:]
	}
	return session != "" && review != "" && norm(session) != norm(review)
}

// finish lands or leaves the proposal and fills in the summary from what
// the tools did.
func finish(ctx context.Context, lib Library, sum *Summary, rec agenttools.Record, opts Options) *Summary {
	sum.Refused = rec.Refusals
	branch := skillrepo.ProposalBranch(opts.ReviewID)
	if rec.Wrote {
		sum.Proposal, sum.Branch = opts.ReviewID, branch
	}
	for _, c := range rec.Changes {
		if c.Staged && c.Commit != "" {
			sum.StagedProposals = appendUnique(sum.StagedProposals, strings.TrimPrefix(c.Branch, skillrepo.ProposalBranchPrefix))
		}
	}
	merge := rec.Wrote && sum.Status != StatusFailed && !opts.WriteApproval
	if merge {
		// The review's own context may be cancelled by now; landing what
		// it wrote must not be cut short half way, so it gets its own.
		prov := Provenance{ReviewID: opts.ReviewID, SessionID: sum.SessionID, Model: opts.Model, TranscriptSHA256: sum.TranscriptSHA256, GoalID: opts.GoalID}
		tip, err := lib.Merge(context.WithoutCancel(ctx), branch, sum.Base, prov)
		if err != nil {
			sum.MergeError = err.Error()
			merge = false
		} else {
			sum.Merged, sum.MergeCommit = true, tip
		}
	}
	for _, c := range rec.Changes {
		sum.Commits = appendUnique(sum.Commits, c.Commit)
		if merge && !c.Staged {
			sum.Applied = append(sum.Applied, c)
		} else {
			sum.Staged = append(sum.Staged, c)
		}
	}
	sum.normalize()
	return sum
}

func appendUnique(list []string, s string) []string {
	if s == "" || contains(list, s) {
		return list
	}
	return append(list, s)
}
