package skillrepo

import (
	"errors"
	"sort"
	"strings"
)

// Branches are how the library keeps work apart: the main branch agents
// read, proposals waiting for approval (docs/architecture.md §3), a
// curator run's working branch and the refs that keep what a run started
// from (§4). These are the verbs the packages above the domain use on
// them; the refs behind them are the engine's business.

// MainTip is the main branch's tip. Error wraps ErrNotFound when the
// library has no commit yet.
func (l *Library) MainTip() (Hash, error) { return l.repo.ResolveBranch(l.MainBranch()) }

// BranchTip is the tip of branch (a short name: "main",
// "proposals/p-1", "curator/<run>"). Error wraps ErrNotFound when the
// branch does not exist.
func (l *Library) BranchTip(branch string) (Hash, error) { return l.repo.ResolveBranch(branch) }

// CurrentBranch is the branch checked out in the work tree ("" when the
// work tree is on a detached commit).
func (l *Library) CurrentBranch() (string, error) { return l.repo.HeadBranch() }

// DropBranch deletes branch if it still points at tip: a working branch
// that has done its job (its commits stay reachable through the merge or
// the proposal that took them).
func (l *Library) DropBranch(branch string, tip Hash) error {
	return l.repo.DeleteRef(branchRef(branch), tip)
}

// ProposeBranch turns the work on branch (its tip) into proposal id: the
// proposal's branch is created at tip, then branch is deleted. reason is
// the reflog's. Error wraps ErrConflict when the proposal exists already.
func (l *Library) ProposeBranch(branch, id string, tip Hash, reason string) error {
	if err := ValidateProposalID(id); err != nil {
		return err
	}
	if err := l.writable(); err != nil {
		return err
	}
	if err := l.repo.UpdateRef(branchRef(ProposalBranch(id)), tip, ZeroHash, reason); err != nil {
		return err
	}
	return l.DropBranch(branch, tip)
}

// ProposalIDs lists the ids of the open proposals, sorted; it reads refs
// only (for completion).
func (l *Library) ProposalIDs() ([]string, error) {
	return l.refNames(proposalRefPrefix)
}

// WalkMain visits the main branch's first-parent history from its tip,
// newest first, down to (not including) stop; zero stop walks to the
// root. fn returns true to stop early.
func (l *Library) WalkMain(stop Hash, fn func(c *CommitInfo) (done bool, err error)) error {
	h, err := l.MainTip()
	if errors.Is(err, ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	for !h.IsZero() && h != stop {
		ci, err := l.ReadCommit(h)
		if err != nil {
			return err
		}
		if done, err := fn(ci); done || err != nil {
			return err
		}
		if len(ci.Parents) == 0 {
			return nil
		}
		h = ci.Parents[0]
	}
	return nil
}

// ProposalMerge is the commit on the main branch's first-parent history
// that landed proposal id (its approval carries Proposal-Id: id), zero
// when none did: a proposal whose branch is gone was approved there or
// rejected.
func (l *Library) ProposalMerge(id string) (Hash, error) {
	var found Hash
	err := l.WalkMain(ZeroHash, func(c *CommitInfo) (bool, error) {
		if TrailerValue(c.Trailers(), TrailerProposalID) == id {
			found = c.Hash
			return true, nil
		}
		return false, nil
	})
	return found, err
}

// CuratorRunRef is the ref that keeps the main branch's tip from before
// curator run id: refs/skillrepo/curator/<id>, under the library's own
// namespace for a folder of a project's repository (see RefNamespace), so
// two libraries' runs never collide.
func (l *Library) CuratorRunRef(id string) string { return l.RefNamespace() + "curator/" + id }

// KeepCuratorRunBase records pre as the main branch's tip from before
// curator run id, the point its rollback and its report refer to. Error
// wraps ErrConflict when the run kept one already.
func (l *Library) KeepCuratorRunBase(id string, pre Hash) error {
	if err := l.writable(); err != nil {
		return err
	}
	return l.repo.UpdateRef(l.CuratorRunRef(id), pre, ZeroHash, "curator: before run "+id)
}

// CuratorRunBase is what KeepCuratorRunBase recorded for run id. Error
// wraps ErrNotFound when the run kept none.
func (l *Library) CuratorRunBase(id string) (Hash, error) {
	return l.repo.ReadRef(l.CuratorRunRef(id))
}

// CuratorRunIDs lists the curator runs that kept a base, sorted.
func (l *Library) CuratorRunIDs() ([]string, error) {
	return l.refNames(l.CuratorRunRef(""))
}

// CuratorBranches lists the run ids of the branches curator/<run-id>
// (a run's work before it lands), sorted.
func (l *Library) CuratorBranches() ([]string, error) {
	return l.refNames(branchRef("curator/"))
}

// refNames lists the names under a ref prefix, prefix removed, sorted.
func (l *Library) refNames(prefix string) ([]string, error) {
	refs, err := l.repo.ListRefs(prefix)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(refs))
	for name := range refs {
		out = append(out, strings.TrimPrefix(name, prefix))
	}
	sort.Strings(out)
	return out, nil
}
