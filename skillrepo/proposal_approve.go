package skillrepo

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/graph"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/merge"
	"github.com/skillrepo/skillrepo/skillrepo/proposals"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/trailer"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// ProposalConflictError is a proposal that does not merge into main:
// nothing was written. It matches ErrConflict.
type ProposalConflictError struct {
	ID        string
	Conflicts []merge.PathConflict
}

func (e *ProposalConflictError) Error() string {
	parts := make([]string, len(e.Conflicts))
	for i, c := range e.Conflicts {
		parts[i] = fmt.Sprintf("%s (%s)", c.Path, c.Reason)
	}
	return fmt.Sprintf("proposal %s does not merge into main: %s", e.ID, strings.Join(parts, ", "))
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ProposalConflictError) Is(target error) bool { return target == ErrConflict }

// Hint says how to resolve it.
func (e *ProposalConflictError) Hint() string {
	return fmt.Sprintf("merge main into the proposal in a separate work tree (git worktree add ../%s %s; then git merge main there and commit), then approve again; or reject it with 'skillrepo proposal reject %s'",
		e.ID, ProposalBranch(e.ID), e.ID)
}

// ApproveOptions tune [Policy.ApproveProposal].
type ApproveOptions struct {
	// By is the Approved-By trailer ("" = the committer, "Name <email>").
	By string
	// DryRun computes the merge and checks it, writes nothing.
	DryRun bool
}

// ApproveResult says what an approval did.
type ApproveResult struct {
	ID string
	// Tip is the proposal commit that was merged.
	Tip Hash
	// Commit is the merge commit on main (zero when AlreadyMerged).
	Commit Hash
	// Update is the write of main (nil when AlreadyMerged).
	Update *UpdateResult
	// AlreadyMerged: the tip was already reachable from main (merged by
	// git or on GitHub); only the branch was deleted.
	AlreadyMerged bool
	// BranchKept: the proposal received new commits while it was being
	// approved; the merged tip is in main and the branch stays open with
	// the newer commits.
	BranchKept bool
	// BranchKeptReason says why the branch was kept when it is not the
	// newer commits (its worktree could not be removed).
	BranchKeptReason string
	// WorktreeRemoved is the linked worktree that had the proposal branch
	// checked out (the one the conflict hint suggests), removed with the
	// branch.
	WorktreeRemoved string
	DryRun          bool
}

// errAlreadyMerged stops the write of an approval that has nothing to do.
var errAlreadyMerged = errors.New("already merged")

// approveProposal merges proposal id into main with a merge commit (first
// parent main, second parent the proposal tip) carrying Approved-By and
// Proposal-Id trailers, then deletes the branch. When main moved since the
// proposal forked, the merge is three-way per path and line by line within
// files both sides changed; any conflict stops it with a
// *ProposalConflictError and nothing written. The work tree is updated for
// the touched paths only, as for every write.
//
// The merged tree passes the write policy's lint gate (policy_gate.go)
// on the skills the merge changes: lint errors main's skills did not
// already have refuse the approval.
//
// Errors: ErrNotFound; *ProposalConflictError (ErrConflict); the lint
// gate's *GateError (ErrRefused); those of Library.update.
func (l *Library) approveProposal(ctx context.Context, id string, opts ApproveOptions) (*ApproveResult, error) {
	if err := ValidateProposalID(id); err != nil {
		return nil, err
	}
	ref := proposalRefPrefix + id
	if head, err := l.repo.HeadBranch(); err != nil {
		return nil, err
	} else if head == ProposalBranch(id) {
		return nil, refusedf("proposal %s is checked out; switch the library back to %s first", id, l.MainBranch())
	}
	by := opts.By
	if by == "" {
		_, committer, err := l.repo.Signatures()
		if err != nil {
			return nil, err
		}
		by = committer.Name + " <" + committer.Email + ">"
	}
	out := &ApproveResult{ID: id, DryRun: opts.DryRun}
	res, err := l.update(ctx, updateOptions{DryRun: opts.DryRun, Reflog: "skillrepo: approve proposal " + id}, func(tx *writeTx) error {
		tip, err := l.repo.ReadRef(ref)
		if errors.Is(err, ErrNotFound) {
			return WithHint(fmt.Errorf("proposal %s: %w", id, ErrNotFound), "run 'skillrepo proposal list' to see the proposals")
		}
		if err != nil {
			return err
		}
		out.Tip = tip
		hist := graph.New(tx.gtx.Store())
		base, own, err := hist.MergeBase(tx.gtx.Base(), tip)
		if err != nil {
			return err
		}
		if base == tip {
			return errAlreadyMerged
		}
		// A proposal branch may have come from a remote (or any git
		// fetch): its commits are checked before one is merged.
		if err := checkIncoming(tx.gtx.Store(), "proposal "+id, own); err != nil {
			return err
		}
		var baseTree Hash
		if !base.IsZero() {
			if baseTree, _, err = tx.gtx.Store().CommitInfo(base); err != nil {
				return err
			}
		}
		tipTree, _, err := tx.gtx.Store().CommitInfo(tip)
		if err != nil {
			return err
		}
		if l.repo.Prefix != "" {
			// Only the library's folder is merged: a proposal that also
			// changes the project's other files is not ours to merge.
			if same, err := tx.gtx.Store().SameOutsidePrefix(base, tip); err != nil {
				return err
			} else if !same {
				return WithHint(fmt.Errorf("proposal %s changes files outside the library folder %s: %w", id, l.repo.Prefix, ErrRefused),
					"merge it with git in the project (git merge "+ProposalBranch(id)+"), or drop those changes from the branch")
			}
		}
		commit, gateErr, err := commitMerge(tx, baseTree, tip, tipTree, proposals.Labels(l.MainBranch(), id), l.approvalMessage(id, by, own),
			func(c []merge.PathConflict) error { return &ProposalConflictError{ID: id, Conflicts: c} })
		if err != nil {
			return err
		}
		out.Commit = commit
		if gateErr != nil {
			var ge *GateError
			if errors.As(gateErr, &ge) {
				ge.hint = fmt.Sprintf("fix the proposal on its branch (skillrepo skill patch NAME --proposal %s …), or reject it", id)
			}
			return fmt.Errorf("approval of %s refused: %w", id, gateErr)
		}
		return nil
	})
	if errors.Is(err, errAlreadyMerged) {
		out.AlreadyMerged = true
		if !opts.DryRun {
			l.settlePendingUsage(id, true)
			if out.WorktreeRemoved, err = l.repo.RemoveLinkedWorktree(ctx, ref, isUsageFile); err != nil {
				return nil, fmt.Errorf("proposal %s is merged, but its branch is checked out elsewhere: %w", id, err)
			}
			if err := l.repo.DeleteRef(ref, out.Tip); err != nil && !errors.Is(err, ErrNotFound) {
				return nil, fmt.Errorf("delete merged proposal branch %s: %w", ProposalBranch(id), err)
			}
		}
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	out.Update = res
	if opts.DryRun {
		return out, nil
	}
	if res.CheckedOut {
		// The proposal's writes reached the branch agents read: their
		// usage records land now (recordUsage kept them pending).
		l.settlePendingUsage(id, true)
	}
	// The worktree the conflict hint suggested goes with the branch (git
	// refuses to remove one holding changes: then the branch stays too).
	// The merge has landed: a worktree that cannot go keeps the branch,
	// and the approval is still a success (never a conflict to retry).
	if out.WorktreeRemoved, err = l.repo.RemoveLinkedWorktree(ctx, ref, isUsageFile); err != nil {
		out.WorktreeRemoved = ""
		out.BranchKept = true
		out.BranchKeptReason = err.Error()
		return out, nil
	}
	if err := l.repo.DeleteRef(ref, out.Tip); err != nil {
		var moved *RefMovedError
		if !errors.As(err, &moved) {
			return out, fmt.Errorf("proposal %s is merged, but deleting its branch failed: %w", id, err)
		}
		out.BranchKept = true
	}
	return out, nil
}

// ReasonInvalidSkill is a merge whose result is not a valid SKILL.md
// (each side was valid, their combination is not).
const ReasonInvalidSkill merge.Reason = "invalid"

// invalidSkills validates every SKILL.md the merge changes, as every direct
// write is validated: a merge must not produce what a write could not.
func invalidSkills(snap *Snapshot, changed []string) []merge.PathConflict {
	var out []merge.PathConflict
	for _, p := range changed {
		if path.Base(p) != skill.FileName {
			continue
		}
		content, err := snap.ReadFile(p)
		if err != nil {
			continue // deleted by the merge
		}
		if _, err := skill.Validate(content, skill.ValidateOptions{}); err != nil {
			out = append(out, merge.PathConflict{Path: p, Reason: ReasonInvalidSkill, Detail: "the merged file is not a valid SKILL.md: " + err.Error()})
		}
	}
	return out
}

// approvalMessage is the merge commit's message: git's shape ("Merge
// proposal <id>"), the proposal's commit subjects, and the trailers.
func (l *Library) approvalMessage(id, by string, own []Hash) Message {
	m := Message{Subject: "Merge proposal " + id}
	var body []string
	reviewID := ""
	for i := len(own) - 1; i >= 0; i-- { // oldest first
		c, err := l.repo.CommitObject(own[i])
		if err != nil {
			continue // a pending dry-run object: the subject list is cosmetic
		}
		body = append(body, "- "+strings.SplitN(c.Message, "\n", 2)[0])
		if reviewID == "" {
			reviewID = trailer.Value(trailer.Parse(c.Message), TrailerReviewID)
		}
	}
	m.Body = strings.Join(body, "\n")
	m.Add(TrailerProposalID, id)
	m.Add(TrailerReviewID, reviewID)
	m.Add(TrailerApprovedBy, by)
	return m
}

// ApproveOutcome is one proposal's result in [Policy.ApproveAll].
type ApproveOutcome struct {
	ID     string
	Result *ApproveResult
	Err    error
}

// RejectOptions tune [Policy.RejectProposal].
type RejectOptions struct {
	// By is the Rejected-By trailer ("" = the committer).
	By     string
	Reason string
	DryRun bool
}

// RejectResult says what a rejection did.
type RejectResult struct {
	ID string
	// Tip is the rejected proposal commit; Record the commit under
	// refs/skillrepo/rejected/<id> that keeps it (parent: Tip).
	Tip, Record Hash
	Ref         string
	DryRun      bool
}

// rejectProposal deletes proposal id's branch and keeps its tip under
// refs/skillrepo/rejected/<id>: a record commit with the tip's tree, the
// tip as parent (and an earlier rejection of the same id as second
// parent) and the trailers Proposal-Id, Rejected-By and Reason. A proposal
// already merged into main cannot be rejected (ErrRefused). Errors:
// ErrNotFound, ErrRefused, ErrLocked, ErrConflict (a ref moved).
func (l *Library) rejectProposal(ctx context.Context, id string, opts RejectOptions) (*RejectResult, error) {
	if err := ValidateProposalID(id); err != nil {
		return nil, err
	}
	if !opts.DryRun {
		unlock, err := l.Lock(ctx)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	branchRef, recordRef := proposalRefPrefix+id, RejectedRefPrefix+id
	tip, err := l.repo.ReadRef(branchRef)
	if errors.Is(err, ErrNotFound) {
		return nil, WithHint(fmt.Errorf("proposal %s: %w", id, ErrNotFound), "run 'skillrepo proposal list' to see the open proposals")
	}
	if err != nil {
		return nil, err
	}
	// The branch is deleted last: refuse before the rejection record is
	// written, not after (it would be both rejected and still open).
	if err := l.repo.CheckBranchFree(branchRef); err != nil {
		return nil, err
	}
	store := l.repo.NewStore(opts.DryRun)
	if main, err := l.repo.ResolveBranch(l.MainBranch()); err == nil {
		if base, _, err := graph.New(store).MergeBase(main, tip); err != nil {
			return nil, err
		} else if base == tip {
			return nil, refusedf("proposal %s is already merged into %s; revert it there instead of rejecting it", id, l.MainBranch())
		}
	}
	prev, err := l.repo.ReadRef(recordRef)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	by := opts.By
	author, committer, err := l.repo.Signatures()
	if err != nil {
		return nil, err
	}
	if by == "" {
		by = committer.Name + " <" + committer.Email + ">"
	}
	tree, _, err := store.RootCommitInfo(tip) // the record keeps the whole tree
	if err != nil {
		return nil, err
	}
	m := Message{Subject: "Reject proposal " + id, Body: opts.Reason}
	m.Add(TrailerProposalID, id)
	m.Add(TrailerRejectedBy, by)
	m.Add(TrailerReason, opts.Reason)
	parents := []Hash{tip}
	if !prev.IsZero() {
		parents = append(parents, prev)
	}
	record, err := store.Put(gitstore.CommitObject, gitstore.EncodeCommit(tree, parents, author, committer, m.String()))
	if err != nil {
		return nil, err
	}
	out := &RejectResult{ID: id, Tip: tip, Record: record, Ref: recordRef, DryRun: opts.DryRun}
	if opts.DryRun {
		return out, nil
	}
	store.Sync()
	// Record first, branch second: a crash in between leaves the proposal
	// both open and recorded, never lost.
	if err := l.repo.UpdateRef(recordRef, record, prev, "skillrepo: reject proposal "+id); err != nil {
		return nil, err
	}
	if err := l.repo.DeleteRef(branchRef, tip); err != nil {
		return nil, fmt.Errorf("proposal %s is recorded as rejected, but deleting its branch failed: %w", id, err)
	}
	l.settlePendingUsage(id, false)
	return out, nil
}

// isUsageFile says whether a path git ignores in a worktree is the usage
// sidecar or its lock (ours, rebuilt from the history): a worktree holding
// only those is removed with its approved branch; any other ignored file
// is the person's and keeps it.
func isUsageFile(p string) bool {
	base := path.Base(p)
	return base == usage.File || strings.HasPrefix(base, usage.File+".")
}

// stageMerge stages a clean merge's changes on top of the transaction's
// tree (which must be "ours").
func stageMerge(tx *writeTx, changes []merge.Change) error {
	for _, c := range changes {
		switch {
		case c.Deleted:
			tx.gtx.Stage(c.Path, gitstore.Change{Delete: true})
		case c.Entry.ID == "":
			h, err := tx.gtx.Store().Put(gitstore.BlobObject, c.Content)
			if err != nil {
				return err
			}
			tx.gtx.Stage(c.Path, gitstore.Change{Hash: h, Mode: gitstore.FileMode(c.Entry.Mode)})
		default:
			tx.gtx.Stage(c.Path, gitstore.Change{Hash: NewHash(c.Entry.ID), Mode: gitstore.FileMode(c.Entry.Mode)})
		}
	}
	return nil
}

// commitMerge commits, on the branch under tx, the three-way merge of
// theirs (its tree theirTree) from their merge base's tree baseTree, as
// an approval makes it: a conflict, or a merged skill that is no longer
// valid, is conflict's error; the active skills the merge changes are
// gated as a write's are, against the branch's tree before it (an
// archived one is no agent's to load: a curator run moves files out of
// what it archives), and the gate's refusal is gateErr. An approval and
// a remote sync bringing in the remote's main merge this way.
func commitMerge(tx *writeTx, baseTree, theirs, theirTree Hash, labels merge.Labels, msg Message, conflict func([]merge.PathConflict) error) (commit Hash, gateErr, err error) {
	l, store, mainTree := tx.l, tx.gtx.Store(), tx.gtx.Tree()
	merged, err := graph.MergeTrees(store, baseTree, mainTree, theirTree, labels)
	if err != nil {
		return ZeroHash, nil, err
	}
	if !merged.Clean() {
		return ZeroHash, nil, conflict(merged.Conflicts)
	}
	if err := stageMerge(tx, merged.Changes); err != nil {
		return ZeroHash, nil, err
	}
	tx.gtx.AddParent(theirs)
	commit, err = tx.Commit(msg)
	if err != nil {
		return ZeroHash, nil, err
	}
	changed := make([]string, len(merged.Changes))
	for i, c := range merged.Changes {
		changed[i] = c.Path
	}
	snap := &Snapshot{l: l, store: store, commit: commit, tree: tx.gtx.Tree()}
	if invalid := invalidSkills(snap, changed); len(invalid) > 0 {
		return commit, nil, conflict(invalid)
	}
	var dirs []string
	for _, p := range changed {
		if d := proposals.SkillDir(store, p, tx.gtx.Tree(), mainTree); d != "" && !strings.HasPrefix(d, ArchiveDir+"/") && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	before := &Snapshot{l: l, store: store, commit: tx.Base(), tree: mainTree}
	return commit, l.gateAgainst(snap.FS(), before.FS, dirs), nil
}
