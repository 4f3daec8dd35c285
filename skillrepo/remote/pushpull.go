package remote

// Push and pull are thin wrappers over git's transport (docs/git-format.md §9): the
// git binary when it is on PATH (go-git's push costs 4.5 s for one commit
// where git takes 25 ms), go-git's transport otherwise. They move main and
// the proposal branches the way a team shares them through a remote, and
// never force: a remote that moved is a refusal with a hint.
//
// What travels:
//   - push sends the proposal branches and the rejection records first
//     (each on its own), then, atomically, main together with the deletion
//     of remote proposal branches that are settled here (merged into main,
//     or rejected), so a remote never loses a proposal branch before it has
//     the main that contains it. Deletions are leased: a remote branch that
//     gained commits since we looked is left alone.
//   - pull fetches everything into remote-tracking refs, creates or
//     fast-forwards local proposal branches (except settled ones), adds
//     rejection records it does not have, fast-forwards main with the work
//     tree (through the write engine: uncommitted edits are never
//     overwritten), and deletes local proposal branches that main now
//     contains.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo"
)

// Options choose the remote and the transport of [Remote.Push] and
// [Remote.Pull].
type Options struct {
	// Remote is the remote's name ("" = "origin").
	Remote string
	// GoGit uses go-git's transport even when the git binary is on PATH.
	GoGit bool
	// DryRun reports what would change and changes nothing (pull still
	// fetches into remote-tracking refs, which is harmless).
	DryRun bool
}

func (o *Options) fill() {
	if o.Remote == "" {
		o.Remote = "origin"
	}
}

// RefUpdate is one ref a push or pull changed (or would change).
type RefUpdate struct {
	Ref      string
	Old, New skillrepo.Hash // zero Old: created; zero New: deleted
	// Rejected holds the remote's reason when the update was refused.
	Rejected string
}

// PushResult says what a push did.
type PushResult struct {
	Remote    string
	Transport string // "git" or "go-git"
	Updates   []RefUpdate
	DryRun    bool
	// HEAD is set when the push created main on the remote and the
	// remote's HEAD named no existing branch (see [HEAD]).
	HEAD *HEAD
}

// PullResult says what a pull did.
type PullResult struct {
	Remote    string
	Transport string
	// Main is the fast-forward of main (nil when main did not move).
	Main *skillrepo.UpdateResult
	// Refs are the proposal branches and rejection records created,
	// moved or deleted here.
	Refs []RefUpdate
	// Diverged names proposal branches that differ here and on the remote
	// with commits on both sides; they are left as they are.
	Diverged []string
	DryRun   bool
}

// RejectedError is a push the remote refused, or a pull whose main
// cannot fast-forward. Nothing was forced. It matches ErrConflict.
type RejectedError struct {
	Refs []string
	Msg  string
	hint string
}

func (e *RejectedError) Error() string { return e.Msg }

// Is makes errors.Is(err, ErrConflict) true.
func (e *RejectedError) Is(target error) bool { return target == skillrepo.ErrConflict }

// Hint says how to get past it.
func (e *RejectedError) Hint() string { return e.hint }

// transport moves refs and objects between the library and a remote:
// the engine's, handed out by the domain (skillrepo.Transport).
type transport interface {
	Name() string
	// List returns the remote's branches and rejection records.
	List(ctx context.Context, remote string) (map[string]skillrepo.Hash, error)
	// Push sends the updates (Old is the lease for deletions) and returns
	// the remote's reason for each refused one.
	Push(ctx context.Context, remote string, updates []skillrepo.RefPush, atomic, dryRun bool) (map[string]string, error)
	// Fetch updates the remote-tracking refs (pruning deleted ones).
	Fetch(ctx context.Context, remote string, refspecs []string) error
}

// remoteTrackingRefspecs fetch branches to refs/remotes/<remote>/ and
// rejection records to refs/skillrepo/remotes/<remote>/rejected/.
func remoteTrackingRefspecs(remote string) []string {
	return []string{
		"+refs/heads/*:refs/remotes/" + remote + "/*",
		"+" + skillrepo.RejectedRefPrefix + "*:refs/skillrepo/remotes/" + remote + "/rejected/*",
	}
}

// Push sends the proposal branches, the rejection records and main to the
// remote, and deletes the remote proposal branches settled here. It never
// forces. Errors: *RejectedError (ErrConflict) when the remote
// refused an update (main moved there: pull first), with the updates that
// did go through in the result.
func (r *Remote) Push(ctx context.Context, opts Options) (*PushResult, error) {
	if err := r.refuseRemoteInFolder("push"); err != nil {
		return nil, err
	}
	opts.fill()
	var tr transport = r.d.Transport(opts.GoGit)
	res := &PushResult{Remote: opts.Remote, Transport: tr.Name(), DryRun: opts.DryRun, Updates: []RefUpdate{}}
	remote, err := tr.List(ctx, opts.Remote)
	if err != nil {
		return nil, err
	}
	local, err := r.d.Refs("refs/")
	if err != nil {
		return nil, err
	}
	mainRef := branchRef(r.lib.MainBranch())
	hist := r.d.Graph()

	// Phase 1: proposals and rejection records, each on its own.
	var independent []RefUpdate
	for _, name := range slices.Sorted(maps.Keys(local)) {
		if !strings.HasPrefix(name, proposalRefPrefix) && !strings.HasPrefix(name, skillrepo.RejectedRefPrefix) {
			continue
		}
		if send, err := r.hasNews(hist, local[name], remote[name]); err != nil {
			return nil, err
		} else if send {
			independent = append(independent, RefUpdate{Ref: name, Old: remote[name], New: local[name]})
		}
	}
	// Phase 2: main, and the deletion of settled proposals, atomically.
	var settled []RefUpdate
	if h, ok := local[mainRef]; ok {
		if send, err := r.hasNews(hist, h, remote[mainRef]); err != nil {
			return nil, err
		} else if send {
			settled = append(settled, RefUpdate{Ref: mainRef, Old: remote[mainRef], New: h})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(remote)) {
		if !strings.HasPrefix(name, proposalRefPrefix) {
			continue
		}
		if _, ok := local[name]; ok {
			continue
		}
		id := strings.TrimPrefix(name, proposalRefPrefix)
		if ok, err := r.settledHere(hist, local, id, remote[name]); err != nil {
			return nil, err
		} else if ok {
			settled = append(settled, RefUpdate{Ref: name, Old: remote[name]})
		}
	}
	var rejected []string
	for _, batch := range []struct {
		updates []RefUpdate
		atomic  bool
	}{{independent, false}, {settled, true}} {
		if len(batch.updates) == 0 {
			continue
		}
		pushes := make([]skillrepo.RefPush, len(batch.updates))
		for i, u := range batch.updates {
			pushes[i] = skillrepo.RefPush{Ref: u.Ref, Old: u.Old, New: u.New}
		}
		refused, err := tr.Push(ctx, opts.Remote, pushes, batch.atomic, opts.DryRun)
		if err != nil {
			return nil, err
		}
		for _, u := range batch.updates {
			u.Rejected = refused[u.Ref]
			res.Updates = append(res.Updates, u)
			if u.Rejected != "" {
				rejected = append(rejected, u.Ref)
			}
		}
	}
	if !opts.DryRun && !slices.Contains(rejected, mainRef) && slices.ContainsFunc(res.Updates, func(u RefUpdate) bool {
		return u.Ref == mainRef && u.Old.IsZero() && !u.New.IsZero()
	}) {
		res.HEAD = r.settleRemoteHEAD(ctx, opts.Remote, tr)
	}
	if len(rejected) > 0 {
		return res, &RejectedError{
			Refs: rejected,
			Msg:  fmt.Sprintf("%s refused %s (it has commits this library does not have)", opts.Remote, strings.Join(rejected, ", ")),
			hint: "run 'skillrepo pull' to bring them in, then push again (skillrepo never force-pushes)",
		}
	}
	return res, nil
}

// hasNews reports whether pushing ours over the remote's theirs sends
// anything: not when they are equal, nor when ours is behind (an ancestor
// of theirs; pull brings the rest). A diverged ref is sent, and the remote
// refuses it with a reason.
func (r *Remote) hasNews(hist skillrepo.Graph, ours, theirs skillrepo.Hash) (bool, error) {
	switch {
	case ours == theirs:
		return false, nil
	case theirs.IsZero() || !r.d.Has(theirs):
		return true, nil
	}
	base, _, err := hist.MergeBase(ours, theirs)
	return base != ours, err
}

// settledHere reports whether a remote proposal branch that this library
// does not have was approved here (its tip is in main) or rejected here
// (its tip is kept by a rejection record).
func (r *Remote) settledHere(hist skillrepo.Graph, local map[string]skillrepo.Hash, id string, tip skillrepo.Hash) (bool, error) {
	if !r.d.Has(tip) {
		return false, nil // never seen here: someone else's new work
	}
	if main, ok := local[branchRef(r.lib.MainBranch())]; ok {
		base, _, err := hist.MergeBase(main, tip)
		if err != nil {
			return false, err
		}
		if base == tip {
			return true, nil
		}
	}
	if record, ok := local[skillrepo.RejectedRefPrefix+id]; ok {
		base, _, err := hist.MergeBase(record, tip)
		if err != nil {
			return false, err
		}
		return base == tip, nil
	}
	return false, nil
}

// Pull fetches from the remote, brings in its proposal branches and
// rejection records, fast-forwards main and the work tree, and deletes
// the local proposal branches main now contains. It never merges or
// forces. Errors: *RejectedError (ErrConflict) when main has
// diverged (the proposals were still brought in); *DirtyError when the
// fast-forward would overwrite an uncommitted edit; those of
// Library.update.
//
// A library in a folder of a project's repository is refused (see
// refuseRemoteInFolder).
func (r *Remote) Pull(ctx context.Context, opts Options) (*PullResult, error) {
	if err := r.refuseRemoteInFolder("pull"); err != nil {
		return nil, err
	}
	opts.fill()
	var tr transport = r.d.Transport(opts.GoGit)
	res := &PullResult{Remote: opts.Remote, Transport: tr.Name(), DryRun: opts.DryRun, Refs: []RefUpdate{}, Diverged: []string{}}
	if err := tr.Fetch(ctx, opts.Remote, remoteTrackingRefspecs(opts.Remote)); err != nil {
		return nil, err
	}
	hist := r.d.Graph()

	// Main first, so that proposals merged on the remote are recognised.
	var mainErr error
	mainRef := branchRef(r.lib.MainBranch())
	if theirs, err := r.d.Ref("refs/remotes/" + opts.Remote + "/" + r.lib.MainBranch()); err == nil {
		res.Main, mainErr = r.fastForwardMain(ctx, hist, theirs, opts)
		if mainErr != nil && !errors.Is(mainErr, skillrepo.ErrConflict) {
			return nil, mainErr
		}
	} else if !errors.Is(err, skillrepo.ErrNotFound) {
		return nil, err
	}
	local, err := r.d.Refs("refs/")
	if err != nil {
		return nil, err
	}
	if res.Main != nil && !opts.DryRun {
		local[mainRef] = res.Main.New
	}
	if err := r.pullRecords(hist, local, opts, res); err != nil {
		return nil, err
	}
	if err := r.pullProposals(hist, local, opts, res); err != nil {
		return nil, err
	}
	return res, mainErr
}

// fastForwardMain moves main to theirs when that is a fast-forward.
func (r *Remote) fastForwardMain(ctx context.Context, hist skillrepo.Graph, theirs skillrepo.Hash, opts Options) (*skillrepo.UpdateResult, error) {
	ours, err := r.lib.MainTip()
	if errors.Is(err, skillrepo.ErrNotFound) {
		ours = skillrepo.ZeroHash
	} else if err != nil {
		return nil, err
	}
	if !ours.IsZero() {
		base, _, err := hist.MergeBase(ours, theirs)
		if err != nil {
			return nil, err
		}
		switch base {
		case theirs:
			return nil, nil // up to date, or ahead: push sends it
		case ours:
		default:
			return nil, &RejectedError{
				Refs: []string{branchRef(r.lib.MainBranch())},
				Msg:  fmt.Sprintf("%s and %s/%s have diverged; main was not updated", r.lib.MainBranch(), opts.Remote, r.lib.MainBranch()),
				hint: fmt.Sprintf("merge them with 'git merge %s/%s' in the library (or approve again on top of the remote's main), then 'skillrepo push'", opts.Remote, r.lib.MainBranch()),
			}
		}
	}
	res, _, err := r.d.FastForwardMain(ctx, theirs, opts.Remote+"/"+r.lib.MainBranch(), "skillrepo: pull: fast-forward from "+opts.Remote, opts.DryRun)
	return res, err
}

// pullRecords adds the remote's rejection records this library lacks (or
// that fast-forward ours).
func (r *Remote) pullRecords(hist skillrepo.Graph, local map[string]skillrepo.Hash, opts Options, res *PullResult) error {
	prefix := "refs/skillrepo/remotes/" + opts.Remote + "/rejected/"
	for _, name := range slices.Sorted(maps.Keys(local)) {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		ref := skillrepo.RejectedRefPrefix + strings.TrimPrefix(name, prefix)
		theirs, ours := local[name], local[ref]
		if ours == theirs {
			continue
		}
		if !ours.IsZero() {
			if base, _, err := hist.MergeBase(ours, theirs); err != nil {
				return err
			} else if base != ours {
				continue // ours is ahead or different: push settles it
			}
		}
		if err := r.moveRef(ref, theirs, ours, opts, res); err != nil {
			return err
		}
		local[ref] = theirs
	}
	return nil
}

// pullProposals creates or fast-forwards local proposal branches from the
// remote's, skipping settled ones, and deletes local ones main contains.
func (r *Remote) pullProposals(hist skillrepo.Graph, local map[string]skillrepo.Hash, opts Options, res *PullResult) error {
	prefix := "refs/remotes/" + opts.Remote + "/" + skillrepo.ProposalBranchPrefix
	for _, name := range slices.Sorted(maps.Keys(local)) {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		id := strings.TrimPrefix(name, prefix)
		if skillrepo.ValidateProposalID(id) != nil {
			continue
		}
		ref, theirs := proposalRefPrefix+id, local[name]
		ours, have := local[ref]
		switch {
		case ours == theirs:
			continue
		case !have:
			settled, err := r.settledHere(hist, local, id, theirs)
			if err != nil {
				return err
			}
			if settled {
				continue
			}
		default:
			base, _, err := hist.MergeBase(ours, theirs)
			if err != nil {
				return err
			}
			if base == theirs {
				continue // ours is ahead: push sends it
			}
			if base != ours {
				res.Diverged = append(res.Diverged, skillrepo.ProposalBranch(id))
				continue
			}
		}
		if err := r.moveRef(ref, theirs, ours, opts, res); err != nil {
			return err
		}
		local[ref] = theirs
	}
	// Proposals that main now contains were approved (here, elsewhere, or
	// on GitHub): their branches have done their job.
	main, ok := local[branchRef(r.lib.MainBranch())]
	if !ok {
		return nil
	}
	for _, ref := range slices.Sorted(maps.Keys(local)) {
		if !strings.HasPrefix(ref, proposalRefPrefix) {
			continue
		}
		base, _, err := hist.MergeBase(main, local[ref])
		if err != nil {
			return err
		}
		if base != local[ref] {
			continue
		}
		res.Refs = append(res.Refs, RefUpdate{Ref: ref, Old: local[ref]})
		if opts.DryRun {
			continue
		}
		if err := r.d.MoveRef(ref, skillrepo.ZeroHash, local[ref], ""); err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
			return err
		}
	}
	return nil
}

func (r *Remote) moveRef(ref string, new, old skillrepo.Hash, opts Options, res *PullResult) error {
	res.Refs = append(res.Refs, RefUpdate{Ref: ref, Old: old, New: new})
	if opts.DryRun {
		return nil
	}
	return r.d.MoveRef(ref, new, old, "skillrepo: pull from "+opts.Remote)
}

// refuseRemoteInFolder refuses push and pull for a library in a folder of
// a project's repository: they move whole branches (the project's main
// with everything else in it), and merging a remote main by the library's
// folder alone would record the project's other changes as reverted. The
// project's own git push and pull do the job, proposals included.
func (r *Remote) refuseRemoteInFolder(cmd string) error {
	if r.d.Folder() == "" {
		return nil
	}
	return skillrepo.WithHint(fmt.Errorf("%s: the library is the folder %s of a project's repository, whose branches are the project's: %w", cmd, r.d.Folder(), skillrepo.ErrRefused),
		"use git "+cmd+" in the project (proposals are its proposals/<id> branches: git push origin 'refs/heads/proposals/*' opens them for review)")
}
