package skillrepo

import (
	"errors"
	"sort"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/trailer"
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
func (room CuratorRuns) DropBranch(branch string, tip Hash) error {
	l := room.l
	return l.repo.DeleteRef(branchRef(branch), tip)
}

// FromBranch turns the work on branch (its tip) into proposal id: the
// proposal's branch is created at tip, then branch is deleted. reason is
// the reflog's. Error wraps ErrConflict when the proposal exists already.
func (room Proposals) FromBranch(branch, id string, tip Hash, reason string) error {
	l := room.l
	if err := ValidateProposalID(id); err != nil {
		return err
	}
	if err := l.writable(); err != nil {
		return err
	}
	if err := l.repo.UpdateRef(branchRef(ProposalBranch(id)), tip, ZeroHash, reason); err != nil {
		return err
	}
	return l.CuratorRuns().DropBranch(branch, tip)
}

// IDs lists the ids of the open proposals, sorted; it reads refs
// only (for completion).
func (room Proposals) IDs() ([]string, error) {
	l := room.l
	return l.refNames(proposalRefPrefix)
}

// WalkMain visits the main branch's first-parent history from its tip,
// newest first, down to (not including) stop; zero stop walks to the
// root. fn returns true to stop early.
func (room History) WalkMain(stop Hash, fn func(c *CommitInfo) (done bool, err error)) error {
	l := room.l
	h, err := l.MainTip()
	if errors.Is(err, ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	for !h.IsZero() && h != stop {
		ci, err := l.History().Commit(h)
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

// Merge is the commit on the main branch's first-parent history
// that landed proposal id (its approval carries Proposal-Id: id), zero
// when none did: a proposal whose branch is gone was approved there or
// rejected.
func (room Proposals) Merge(id string) (Hash, error) {
	l := room.l
	var found Hash
	err := l.History().WalkMain(ZeroHash, func(c *CommitInfo) (bool, error) {
		if trailer.Value(c.Trailers(), TrailerProposalID) == id {
			found = c.Hash
			return true, nil
		}
		return false, nil
	})
	return found, err
}

// Ref is the ref that keeps the main branch's tip from before
// curator run id: refs/skillrepo/curator/<id>, under the library's own
// namespace for a folder of a project's repository (see RefNamespace), so
// two libraries' runs never collide.
func (room CuratorRuns) Ref(id string) string {
	l := room.l
	return l.refNamespace() + "curator/" + id
}

// KeepBase records pre as the main branch's tip from before
// curator run id, the point its rollback and its report refer to. Error
// wraps ErrConflict when the run kept one already.
func (room CuratorRuns) KeepBase(id string, pre Hash) error {
	l := room.l
	if err := l.writable(); err != nil {
		return err
	}
	return l.repo.UpdateRef(l.CuratorRuns().Ref(id), pre, ZeroHash, "curator: before run "+id)
}

// Base is what KeepCuratorRunBase recorded for run id. Error
// wraps ErrNotFound when the run kept none.
func (room CuratorRuns) Base(id string) (Hash, error) {
	l := room.l
	return l.repo.ReadRef(l.CuratorRuns().Ref(id))
}

// IDs lists the curator runs that kept a base, sorted.
func (room CuratorRuns) IDs() ([]string, error) {
	l := room.l
	return l.refNames(l.CuratorRuns().Ref(""))
}

// Branches lists the run ids of the branches curator/<run-id>
// (a run's work before it lands), sorted.
func (room CuratorRuns) Branches() ([]string, error) {
	l := room.l
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
