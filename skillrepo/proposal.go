package skillrepo

// Proposals are ordinary branches, refs/heads/proposals/<id>, forked from
// main (docs/architecture.md §3): every proposed write is a commit there, made by the
// same write engine and the same validation as a direct write, so an
// invalid write is refused when it is proposed, never at approval. Because
// they are plain branches, `git push origin 'proposals/*'` turns them into
// pull requests, and a proposal merged by git or on GitHub (its tip
// reachable from main) counts as approved. A rejected proposal's tip is
// kept under refs/skillrepo/rejected/<id> by a record commit carrying
// Rejected-By and Reason, so the audit trail survives the branch.
//
// Reading them (listing, their commits and files, whether they merge,
// diffs) is the room below the domain skillrepo/proposals; the domain
// opens it with its main branch, trailer keys and memo, and keeps the
// writes (proposal_approve.go).

import (
	"errors"
	"fmt"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/proposals"
)

// Where proposals live.
const (
	// ProposalBranchPrefix starts every proposal branch name.
	ProposalBranchPrefix = proposals.BranchPrefix
	proposalRefPrefix    = proposals.RefPrefix
	// RejectedRefPrefix keeps the record of each rejected proposal.
	RejectedRefPrefix = proposals.RejectedRefPrefix
	// TrailerProposalID names the proposal an approval or rejection is
	// about.
	TrailerProposalID = "Proposal-Id"
)

// ProposalBranch is the branch of proposal id ("proposals/<id>").
func ProposalBranch(id string) string { return proposals.Branch(id) }

// ValidateProposalID checks that id makes a safe branch name component
// ([proposals.ValidateID]).
func ValidateProposalID(id string) error { return proposals.ValidateID(id) }

// NewProposalID returns a fresh id such as "p-20261130-0a1b2c".
func NewProposalID(now time.Time) string { return proposals.NewID(now) }

// The proposal room's types, named as the domain's.
type (
	// ProposalState is where a proposal stands.
	ProposalState = proposals.State
	// Proposal describes one proposal.
	Proposal = proposals.Proposal
	// ProposalCommit is one commit of a proposal.
	ProposalCommit = proposals.Commit
	// FileStat is one changed file of a proposal.
	FileStat = proposals.FileStat
	// FileDiff is one changed file of a proposal with its unified diff.
	FileDiff = proposals.FileDiff
	// Rejection is the record of a rejected proposal.
	Rejection = proposals.Rejection
	// ProposalQuery chooses what [Proposals.List] returns.
	ProposalQuery = proposals.Query
)

// Proposal states.
const (
	ProposalOpen     = proposals.Open
	ProposalApproved = proposals.Approved
	ProposalRejected = proposals.Rejected
)

// List lists the proposal branches (open, and approved ones whose
// branch was merged by git and not deleted), or the rejected proposals,
// oldest first.
func (room Proposals) List(q ProposalQuery) ([]*Proposal, error) {
	r, err := room.l.proposalReader()
	if err != nil {
		return nil, err
	}
	return r.List(q)
}

// Get returns one proposal (an open or merged branch first, else a
// rejected one), with its merge into main checked. Error: ErrNotFound.
func (room Proposals) Get(id string) (*Proposal, error) {
	r, err := room.l.proposalReader()
	if err != nil {
		return nil, err
	}
	return room.get(r, id)
}

// GetAll is [Proposals.Get] of each id with one reader, which shares the
// commits and trees it reads between them: the proposals found, in the
// order of ids, and the errors of the others (an id that names no
// proposal is skipped).
func (room Proposals) GetAll(ids []string) ([]*Proposal, error) {
	r, err := room.l.proposalReader()
	if err != nil {
		return nil, err
	}
	var out []*Proposal
	var errs []error
	for _, id := range ids {
		p, err := room.get(r, id)
		switch {
		case err == nil:
			out = append(out, p)
		case !errors.Is(err, ErrNotFound):
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}

func (room Proposals) get(r *proposals.Reader, id string) (*Proposal, error) {
	if err := ValidateProposalID(id); err != nil {
		return nil, err
	}
	for _, prefix := range []string{proposalRefPrefix, RejectedRefPrefix} {
		tip, err := room.l.repo.ReadRef(prefix + id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return r.Read(id, prefix+id, tip, true)
	}
	return nil, WithHint(fmt.Errorf("proposal %s: %w", id, ErrNotFound), "run 'skillrepo proposal list' to see the proposals")
}

// Diff returns the proposal and its changes against the merge base
// with main, as unified diffs with context lines of context. Errors:
// ErrNotFound.
func (room Proposals) Diff(id string, context int) (*Proposal, []FileDiff, error) {
	r, err := room.l.proposalReader()
	if err != nil {
		return nil, nil, err
	}
	p, err := room.get(r, id)
	if err != nil {
		return nil, nil, err
	}
	diffs, err := r.Diff(p, context)
	if err != nil {
		return nil, nil, err
	}
	return p, diffs, nil
}

// proposalReader opens the proposal room with the library's main branch,
// trailer keys and memo.
func (l *Library) proposalReader() (*proposals.Reader, error) {
	keys := proposals.Keys{Origin: TrailerOrigin, ReviewID: TrailerReviewID, RejectedBy: TrailerRejectedBy, Reason: TrailerReason}
	var cache proposals.Cache
	if l.opts.Memo != nil {
		cache = l.opts.Memo
	}
	return proposals.NewReader(l.repo, l.MainBranch(), keys, cache)
}
