package review

import (
	"context"
	"os"
	"strings"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// OptionsFor is the options of a review of t on l, built in one place for
// the CLI and the worker: what the library's config sets (the input
// budget, the model's context window, write approval), and what is
// reviewed. Memory is reviewed only when the library versions it; skills
// when asked, or when memory is not (a review always reviews something).
// The project the review may read is the folder the transcript says the
// session ran in (SessionProject). The caller adds the model, its backend
// and the review's ids.
func OptionsFor(l *skillrepo.Library, t *Transcript, memory, skills bool) Options {
	_, memErr := l.Memory().Path("memory")
	memory = memory && memErr == nil
	cfg := l.Config.Review
	return Options{Transcript: t, Memory: memory, Skills: skills || !memory, Project: SessionProject(t),
		MaxInputTokens: cfg.MaxInputTokens, ContextWindow: cfg.ContextWindow, WriteApproval: cfg.WriteApproval}
}

// SessionProject is the project a review of t may read, read-only: the
// folder the transcript says the session ran in, "" when it names none or
// the folder is gone.
func SessionProject(t *Transcript) string {
	if t == nil || t.Cwd == "" {
		return ""
	}
	if fi, err := os.Stat(t.Cwd); err == nil && fi.IsDir() {
		return t.Cwd
	}
	return ""
}

// Open wires a review to a library: the tools' adapter of package
// agenttools, and the merge that lands a finished review. It is not safe
// for concurrent use (nor is the library).
func Open(l *skillrepo.Library) Library {
	return &adapter{Library: agenttools.Open(l), l: l}
}

type adapter struct {
	agenttools.Library
	l *skillrepo.Library
}

// provenance is the trailers of a review's commits.
func provenance(p Provenance) skillrepo.Provenance {
	return skillrepo.Provenance{
		Origin:           skillrepo.OriginBackgroundReview,
		ReviewID:         p.ReviewID,
		SessionID:        p.SessionID,
		Model:            p.Model,
		TranscriptSHA256: p.TranscriptSHA256,
		GoalID:           p.GoalID,
	}
}

func (a *adapter) Merge(ctx context.Context, branch string, base string, prov Provenance) (string, error) {
	// A finished review lands the way a person's approval does: a
	// three-way merge commit, through the write policy's lint gate, with
	// an Approved-By naming the automatic approval (review.write_approval
	// is off).
	id := strings.TrimPrefix(branch, "proposals/")
	pol, err := a.l.Policy(skillrepo.Writer{Provenance: provenance(prov)})
	if err != nil {
		return "", err
	}
	res, err := pol.ApproveProposal(ctx, id, skillrepo.ApproveOptions{
		By: "auto (review " + prov.ReviewID + ", review.write_approval: false)",
	})
	if err != nil {
		return "", err
	}
	return res.Commit.String(), nil
}
