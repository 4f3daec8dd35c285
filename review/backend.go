package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/modelcall"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// Job is what a review's tools need to know, whoever holds the
// conversation: the in-process loop ([Endpoint]) and the review-mode MCP
// server behind an agent's own program (`skillrepo mcp --review FILE`)
// both make the review's toolbox with [Job.Toolbox], so both enforce the
// same guards and write the same commits. It travels as JSON.
type Job struct {
	Version          int    `json:"version"`
	ReviewID         string `json:"review_id"`
	SessionID        string `json:"session_id,omitempty"`
	Model            string `json:"model"`
	TranscriptSHA256 string `json:"transcript_sha256,omitempty"`
	GoalID           string `json:"goal_id,omitempty"`
	// Memory: memory is reviewed, so the memory tool is offered.
	Memory bool `json:"memory"`
	// Attended: a person asked for the review (memory replace and remove
	// are not held back).
	Attended bool `json:"attended,omitempty"`
	// Base is main's commit when the review started: the proposal forks
	// from it.
	Base string `json:"base"`
	// MaxCalls is the review's cap of model calls; a server that sees
	// only tool calls holds them to it (see [Job.CapReached]).
	MaxCalls int `json:"max_calls"`
}

// JobVersion is the job format this code writes and reads.
const JobVersion = 1

var reviewIDRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// Check reports a job that cannot run.
func (j Job) Check() error {
	switch {
	case j.Version > JobVersion:
		return fmt.Errorf("review job version %d: this skillrepo reads up to %d", j.Version, JobVersion)
	case !reviewIDRE.MatchString(j.ReviewID):
		return fmt.Errorf("review: invalid review id %q", j.ReviewID)
	case j.Base == "":
		return fmt.Errorf("review job %s: no base commit", j.ReviewID)
	case j.Model == "":
		return fmt.Errorf("review job %s: no model", j.ReviewID)
	}
	return nil
}

// Tools are the tools the review offers, in the order the model sees
// them (docs/reference-behaviour.md §2.5): memory only when memory is
// reviewed.
func (j Job) Tools() []string {
	tools := []string{agenttools.SkillsList, agenttools.SkillView, agenttools.SkillManage}
	if j.Memory {
		tools = append(tools, agenttools.Memory)
	}
	return append(tools, agenttools.ReadFile, agenttools.SearchFiles)
}

// Branch is the review's proposal branch.
func (j Job) Branch() string { return skillrepo.ProposalBranch(j.ReviewID) }

func (j Job) provenance() Provenance {
	return Provenance{ReviewID: j.ReviewID, SessionID: j.SessionID, Model: j.Model, TranscriptSHA256: j.TranscriptSHA256, GoalID: j.GoalID}
}

// Toolbox is the review's toolbox over lib: the autonomous guards, the
// review's tools, its provenance in every commit, writes on its proposal
// branch forked from Base, an unattended memory replace or remove on the
// -memory proposal.
func (j Job) Toolbox(lib agenttools.Library, progress func(Change)) *agenttools.Toolbox {
	return agenttools.New(lib, agenttools.Options{
		Tools:        j.Tools(),
		Provenance:   provenance(j.provenance()),
		Base:         j.Base,
		Branch:       j.Branch(),
		StagedBranch: skillrepo.ProposalBranch(j.ReviewID + "-memory"),
		Attended:     j.Attended,
		Progress:     progress,
	})
}

// CapReached reports whether a server that counts tool calls has had the
// review's share: one call for each model call the cap allows. A model
// that makes one call per turn (what the prompts ask) is stopped where the
// in-process loop stops it.
func (j Job) CapReached(calls int) bool {
	return j.MaxCalls > 0 && calls >= j.MaxCalls
}

// Conversation is a review's conversation, for a [Backend] to hold.
type Conversation struct {
	Job Job
	// Lib is the library, for a backend that runs the tools itself.
	Lib agenttools.Library
	// Prompt is the review instructions, the last user message.
	Prompt string
	// Request is the whole conversation for an OpenAI-compatible
	// endpoint: the session replayed, the prompt, the tools.
	Request openai.ChatCompletionRequest
	// Messages are the session's messages as the review sees them: all of
	// them, or the digest when Digest is set.
	Messages []Message
	// Digest: the session was too long for the input budget, and the
	// older part of Messages is a digest (docs/reference-behaviour.md
	// §2.6). A backend that would resume the session itself must send
	// Text instead.
	Digest bool
	// InputBudget bounds the input tokens (0: none).
	InputBudget int
	// Progress hears of every write as it lands (in-process only).
	Progress func(Change)
}

// Text is the conversation as one plain-text message followed by the
// prompt, for a backend that starts a fresh session instead of resuming
// the agent's (the digest of a long session).
func (c Conversation) Text() string {
	var b strings.Builder
	b.WriteString("[The conversation to review follows, as text: the session's messages in order.]\n")
	for _, m := range c.Messages {
		switch m.Role {
		case "user":
			fmt.Fprintf(&b, "\nUSER: %s\n", m.Text())
		case "assistant":
			if t := strings.TrimSpace(m.Text()); t != "" {
				fmt.Fprintf(&b, "\nASSISTANT: %s\n", t)
			}
			for _, tc := range m.ToolCalls {
				fmt.Fprintf(&b, "\nASSISTANT called %s %s\n", tc.Name, clip(tc.Arguments, 2000))
			}
		case "tool":
			fmt.Fprintf(&b, "\nTOOL RESULT: %s\n", clip(m.Text(), 2000))
		case "system", "developer":
			fmt.Fprintf(&b, "\nSYSTEM: %s\n", clip(m.Text(), 4000))
		}
	}
	b.WriteString("\n[End of the conversation.]\n\n")
	b.WriteString(c.Prompt)
	return b.String()
}

// Backend holds a review's conversation with the model: the session, then
// the review instructions, and the model calling the review's tools until
// it answers, the cap or the budget stops it, or ctx ends. It returns how
// the loop went and what the tools did (the record's writes are commits on
// the job's branch, which Run then lands). Two backends exist: [Endpoint],
// the loop in this process against an OpenAI-compatible endpoint, and the
// agent's own program (package agentcli), which resumes the session and
// calls our tools over MCP.
type Backend interface {
	Converse(ctx context.Context, c Conversation) (modelcall.Outcome, agenttools.Record)
}

// Endpoint is the in-process backend: the agent loop of package modelcall
// against an OpenAI-compatible endpoint, the tools run here.
type Endpoint struct {
	Client ChatClient
	// Retries of a failed call (0: 2, < 0: none); Backoff the first wait
	// (0: 1 s); Timeout bounds one call (0: 5 min).
	Retries int
	Backoff time.Duration
	Timeout time.Duration
}

// Converse runs the loop.
func (e Endpoint) Converse(ctx context.Context, c Conversation) (modelcall.Outcome, agenttools.Record) {
	tb := c.Job.Toolbox(c.Lib, c.Progress)
	timeout := e.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	loop := modelcall.Loop{
		Caller:      modelcall.Caller{Client: e.Client, Retries: e.Retries, Backoff: e.Backoff, Timeout: timeout},
		MaxCalls:    c.Job.MaxCalls,
		InputBudget: c.InputBudget,
	}
	out := loop.Run(ctx, c.Request, func(ctx context.Context, call openai.ToolCall) string {
		return tb.Call(ctx, call.Function.Name, call.Function.Arguments).Text
	})
	return out, tb.Record()
}

// JobRecord is what the tools of a job did, as the review-mode MCP server
// leaves it for the review that started the agent's program.
type JobRecord struct {
	Version int               `json:"version"`
	Record  agenttools.Record `json:"record"`
	// Capped: a call was refused because the cap was reached.
	Capped bool `json:"capped,omitempty"`
}

// ReadJob reads a job file (at most 1 MiB) and checks it.
func ReadJob(path string) (Job, error) {
	var j Job
	if err := readJSON(path, &j); err != nil {
		return Job{}, fmt.Errorf("read review job: %w", err)
	}
	return j, j.Check()
}

// WriteJSON replaces path with v as JSON, atomically (a reader sees the
// old file or the new one), readable by its owner only.
func WriteJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o600, false)
}

// ReadJobRecord reads the record a review-mode server left; a missing
// file is an empty record (no tool was called).
func ReadJobRecord(path string) (JobRecord, error) {
	var r JobRecord
	err := readJSON(path, &r)
	if errors.Is(err, fs.ErrNotExist) {
		return JobRecord{Version: JobVersion}, nil
	}
	if err != nil {
		return JobRecord{}, fmt.Errorf("read the review's tool record: %w", err)
	}
	return r, nil
}

func readJSON(path string, v any) error {
	data, err := boundedread.ReadFile(path, 1<<20)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
