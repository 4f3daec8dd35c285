package review

import (
	"context"

	"github.com/skillrepo/skillrepo/agenttools"
)

// The review reaches the skills library through the interfaces of package
// agenttools (the tools and their guards) plus a Merger; [Open] wires them
// to package skillrepo.

// Provenance is what every commit of a review records in its trailers.
type Provenance struct {
	ReviewID         string
	SessionID        string
	Model            string
	TranscriptSHA256 string
	GoalID           string
}

// Merger lands a finished review's proposal branch on the main branch.
type Merger interface {
	// Merge merges branch, forked from main at base, into the main branch
	// and returns the new main tip. It fails, changing nothing, when the
	// merge conflicts.
	Merge(ctx context.Context, branch, base string, prov Provenance) (string, error)
}

// Library is everything a review needs.
type Library interface {
	agenttools.Library
	Merger
}

// Change is one write a review made: a commit on a proposal branch.
type Change = agenttools.Change

// Refusal is a tool call that did not do what it asked, and why.
type Refusal = agenttools.Refusal
