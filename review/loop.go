package review

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/internal/modelcall"
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

var reviewIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`) })

// NewReviewID makes an id like r-20261130-0a1b2c.
func NewReviewID(now time.Time) string {
	var b [3]byte
	rand.Read(b[:])
	return fmt.Sprintf("r-%s-%s", now.UTC().Format("20060102"), hex.EncodeToString(b[:]))
}

// Run reviews a transcript: it replays the conversation to the model with
// the review instructions last, runs the model's tool calls through the
// guards, and commits each successful write on proposals/<review-id>. At
// the end the proposal is merged into the main branch unless WriteApproval
// is set or the review failed. Run returns a summary in every case where
// it got as far as calling the model; the error is for what stopped it
// before that (bad options, an unreadable library).
func Run(ctx context.Context, lib Library, opts Options) (*Summary, error) {
	if opts.Transcript == nil {
		return nil, errors.New("review: no transcript")
	}
	if opts.Client == nil {
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
	if !reviewIDRE().MatchString(opts.ReviewID) {
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
	sessionID := opts.SessionID
	if sessionID == "" {
		sessionID = t.SessionID
	}
	prov := Provenance{ReviewID: opts.ReviewID, SessionID: sessionID, Model: opts.Model, TranscriptSHA256: t.SHA256, GoalID: opts.GoalID}
	allowed := []string{agenttools.SkillsList, agenttools.SkillView, agenttools.SkillManage}
	if opts.Memory {
		allowed = append(allowed, agenttools.Memory)
	}
	allowed = append(allowed, agenttools.ReadFile, agenttools.SearchFiles)
	rv := &run{
		ctx:  ctx,
		lib:  lib,
		prov: prov,
		base: baseView.Commit(),
		tb: agenttools.New(lib, agenttools.Options{
			Tools:        allowed,
			Provenance:   provenance(prov),
			Base:         baseView.Commit(),
			Branch:       "proposals/" + opts.ReviewID,
			StagedBranch: "proposals/" + opts.ReviewID + "-memory",
			Attended:     opts.Attended,
			Progress:     opts.Progress,
		}),
	}
	tools, err := toolDefs(allowed)
	if err != nil {
		return nil, err
	}

	sum := &Summary{
		ReviewID: opts.ReviewID, SessionID: sessionID, Model: opts.Model, TranscriptSHA256: t.SHA256,
		Memory: opts.Memory, Skills: opts.Skills, Base: rv.base, MainBranch: mainBranch,
	}
	prompt := openai.ChatCompletionMessage{Role: "user", Content: buildPrompt(opts.Memory, opts.Skills, allowed, opts.Focus)}
	req := openai.ChatCompletionRequest{Model: opts.Model, Tools: tools}
	req.Messages = append(replayMessages(t.Messages), prompt)
	budget := InputBudget(opts.MaxInputTokens, opts.ContextWindow)
	if budget > 0 && modelcall.EstimateTokens(req) > budget {
		// The conversation does not fit: send the older part as a digest
		// and the recent messages verbatim (docs/reference-behaviour.md §2.6).
		req.Messages = append(replayMessages(digest(t.Messages)), prompt)
		sum.Digest = true
		if est := modelcall.EstimateTokens(req); est > budget {
			sum.Status, sum.Reason = StatusFailed, fmt.Sprintf("the transcript does not fit the input budget of %d tokens even as a digest (about %d tokens)", budget, est)
			return rv.finish(sum, opts), nil
		}
	}

	timeout := opts.RequestTimeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	loop := modelcall.Loop{
		Caller:      modelcall.Caller{Client: opts.Client, Retries: opts.Retries, Backoff: opts.RetryBackoff, Timeout: timeout},
		MaxCalls:    maxCalls,
		InputBudget: budget,
	}
	out := loop.Run(ctx, req, func(ctx context.Context, call openai.ToolCall) string {
		return rv.tb.Call(ctx, call.Function.Name, call.Function.Arguments).Text
	})
	sum.record(out)
	return rv.finish(sum, opts), nil
}

// run is one review's state beside its toolbox.
type run struct {
	ctx  context.Context
	lib  Library
	prov Provenance
	base string // main's commit when the review started
	tb   *agenttools.Toolbox
}

// finish lands or leaves the proposal and fills in the summary.
func (rv *run) finish(sum *Summary, opts Options) *Summary {
	sum.Refused = rv.tb.Refusals()
	branch := "proposals/" + opts.ReviewID
	if rv.tb.Wrote() {
		sum.Proposal, sum.Branch = opts.ReviewID, branch
	}
	if rv.tb.Staged() {
		sum.StagedProposals = append(sum.StagedProposals, opts.ReviewID+"-memory")
	}
	merge := rv.tb.Wrote() && sum.Status != StatusFailed && !opts.WriteApproval
	if merge {
		// The review's own context may be cancelled by now; landing what
		// it wrote must not be cut short half way, so it gets its own.
		tip, err := rv.lib.Merge(context.WithoutCancel(rv.ctx), branch, rv.base, rv.prov)
		if err != nil {
			sum.MergeError = err.Error()
			merge = false
		} else {
			sum.Merged, sum.MergeCommit = true, tip
		}
	}
	for _, c := range rv.tb.Changes() {
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
