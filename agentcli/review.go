package agentcli

import (
	"context"
	"os"
	"path/filepath"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/internal/modelcall"
	"github.com/skillrepo/skillrepo/review"
)

// Review is the agent's own program as a review's [review.Backend]: it
// forks the finished session (SessionID) headless, so the review sees the
// real conversation under the session's model and credentials, and gives
// it the review prompt and our review tools only, served by `skillrepo
// mcp --review`, which makes the review's toolbox from the same
// [review.Job] as the in-process loop. A session too long for the input
// budget is not forked: a fresh run gets the digest as text.
type Review struct {
	Program
	SessionID string
}

// Converse runs the program and reads back what it and the tools did.
func (r Review) Converse(ctx context.Context, c review.Conversation) (modelcall.Outcome, agenttools.Record) {
	if err := r.Check(); err != nil {
		return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: err.Error()}, agenttools.Record{}
	}
	if r.TempDir != "" {
		if err := os.MkdirAll(r.TempDir, 0o700); err != nil {
			return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "review files: " + err.Error()}, agenttools.Record{}
		}
	}
	tmp, err := os.MkdirTemp(r.TempDir, "skillrepo-review-")
	if err != nil {
		return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "review files: " + err.Error()}, agenttools.Record{}
	}
	defer os.RemoveAll(tmp)
	jobPath, recPath := filepath.Join(tmp, "job.json"), filepath.Join(tmp, "record.json")
	if err := review.WriteJSON(jobPath, c.Job); err != nil {
		return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "review files: " + err.Error()}, agenttools.Record{}
	}
	mcpArgs := []string{"mcp", "--library", r.Library, "--review", jobPath, "--review-record", recPath}
	session, prompt := r.SessionID, c.Prompt
	if c.Digest || session == "" {
		session, prompt = "", c.Text()
	}
	var args []string
	switch r.Agent {
	case ClaudeCode:
		cfg, err := claudeMCPConfig(r.Self, mcpArgs)
		if err == nil {
			err = os.WriteFile(filepath.Join(tmp, "mcp.json"), cfg, 0o600)
		}
		if err != nil {
			return modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "review files: " + err.Error()}, agenttools.Record{}
		}
		args = claudeReviewArgs(session, r.Model, filepath.Join(tmp, "mcp.json"), c.Job.Tools(), c.Job.MaxCalls)
	case Codex:
		args = codexReviewArgs(session, r.Model, r.Provider, r.Self, mcpArgs)
	}
	out, err := r.run(ctx, args, prompt)
	var o modelcall.Outcome
	switch {
	case err != nil && ctx.Err() != nil:
		o = modelcall.Outcome{Status: modelcall.StatusFailed, Reason: "interrupted: " + err.Error()}
	case err != nil:
		o = failed(err.Error(), out)
		o.Err = err
	case r.Agent == ClaudeCode:
		o = parseClaude(out)
	default:
		o = parseCodex(out)
	}
	jr, rerr := review.ReadJobRecord(recPath)
	if rerr != nil && o.Status != modelcall.StatusFailed {
		o.Status, o.Reason = modelcall.StatusFailed, rerr.Error()
	}
	if jr.Capped && o.Status == modelcall.StatusCompleted {
		o.Status, o.Reason = modelcall.StatusCapped, "stopped at the cap of tool calls"
	}
	return o, jr.Record
}
