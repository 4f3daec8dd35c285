package skillrepo

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
	"os/exec"
	"slices"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// RemoteOptions choose the remote and the transport of [Remote.Push] and
// [Remote.Pull].
type RemoteOptions struct {
	// Remote is the remote's name ("" = "origin").
	Remote string
	// GoGit uses go-git's transport even when the git binary is on PATH.
	GoGit bool
	// DryRun reports what would change and changes nothing (pull still
	// fetches into remote-tracking refs, which is harmless).
	DryRun bool
}

func (o *RemoteOptions) fill() {
	if o.Remote == "" {
		o.Remote = "origin"
	}
}

// RefUpdate is one ref a push or pull changed (or would change).
type RefUpdate struct {
	Ref      string
	Old, New Hash // zero Old: created; zero New: deleted
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
	// remote's HEAD named no existing branch (see [RemoteHEAD]).
	HEAD *RemoteHEAD
}

// PullResult says what a pull did.
type PullResult struct {
	Remote    string
	Transport string
	// Main is the fast-forward of main (nil when main did not move).
	Main *UpdateResult
	// Refs are the proposal branches and rejection records created,
	// moved or deleted here.
	Refs []RefUpdate
	// Diverged names proposal branches that differ here and on the remote
	// with commits on both sides; they are left as they are.
	Diverged []string
	DryRun   bool
}

// RemoteRejectedError is a push the remote refused, or a pull whose main
// cannot fast-forward. Nothing was forced. It matches ErrConflict.
type RemoteRejectedError struct {
	Refs []string
	Msg  string
	hint string
}

func (e *RemoteRejectedError) Error() string { return e.Msg }

// Is makes errors.Is(err, ErrConflict) true.
func (e *RemoteRejectedError) Is(target error) bool { return target == ErrConflict }

// Hint says how to get past it.
func (e *RemoteRejectedError) Hint() string { return e.hint }

// remoteTransport moves refs and objects between the library and a remote.
type remoteTransport interface {
	name() string
	// list returns the remote's branches and rejection records.
	list(ctx context.Context, remote string) (map[string]Hash, error)
	// push sends the updates (Old is the lease for deletions) and returns
	// them with Rejected filled in for the refused ones.
	push(ctx context.Context, remote string, updates []RefUpdate, atomic, dryRun bool) ([]RefUpdate, error)
	// fetch updates the remote-tracking refs (pruning deleted ones).
	fetch(ctx context.Context, remote string, refspecs []string) error
}

func (l *Library) transport(opts RemoteOptions) remoteTransport {
	if !opts.GoGit {
		if p, err := exec.LookPath("git"); err == nil {
			return &gitCLI{l: l, git: p}
		}
	}
	return &goGitTransport{l: l}
}

// remoteTrackingRefspecs fetch branches to refs/remotes/<remote>/ and
// rejection records to refs/skillrepo/remotes/<remote>/rejected/.
func remoteTrackingRefspecs(remote string) []string {
	return []string{
		"+refs/heads/*:refs/remotes/" + remote + "/*",
		"+" + RejectedRefPrefix + "*:refs/skillrepo/remotes/" + remote + "/rejected/*",
	}
}

// Push sends the proposal branches, the rejection records and main to the
// remote, and deletes the remote proposal branches settled here. It never
// forces. Errors: *RemoteRejectedError (ErrConflict) when the remote
// refused an update (main moved there: pull first), with the updates that
// did go through in the result.
func (room Remote) Push(ctx context.Context, opts RemoteOptions) (*PushResult, error) {
	l := room.l
	if err := l.refuseRemoteInFolder("push"); err != nil {
		return nil, err
	}
	opts.fill()
	tr := l.transport(opts)
	res := &PushResult{Remote: opts.Remote, Transport: tr.name(), DryRun: opts.DryRun, Updates: []RefUpdate{}}
	remote, err := tr.list(ctx, opts.Remote)
	if err != nil {
		return nil, err
	}
	local, err := l.repo.ListRefs("refs/")
	if err != nil {
		return nil, err
	}
	mainRef := branchRef(l.MainBranch())
	store := l.repo.NewStore(true)
	hist := newHistory(store)

	// Phase 1: proposals and rejection records, each on its own.
	var independent []RefUpdate
	for _, name := range slices.Sorted(maps.Keys(local)) {
		if !strings.HasPrefix(name, proposalRefPrefix) && !strings.HasPrefix(name, RejectedRefPrefix) {
			continue
		}
		if send, err := l.hasNews(hist, local[name], remote[name]); err != nil {
			return nil, err
		} else if send {
			independent = append(independent, RefUpdate{Ref: name, Old: remote[name], New: local[name]})
		}
	}
	// Phase 2: main, and the deletion of settled proposals, atomically.
	var settled []RefUpdate
	if h, ok := local[mainRef]; ok {
		if send, err := l.hasNews(hist, h, remote[mainRef]); err != nil {
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
		if ok, err := l.settledHere(hist, local, id, remote[name]); err != nil {
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
		done, err := tr.push(ctx, opts.Remote, batch.updates, batch.atomic, opts.DryRun)
		if err != nil {
			return nil, err
		}
		for _, u := range done {
			res.Updates = append(res.Updates, u)
			if u.Rejected != "" {
				rejected = append(rejected, u.Ref)
			}
		}
	}
	if !opts.DryRun && !slices.Contains(rejected, mainRef) && slices.ContainsFunc(res.Updates, func(u RefUpdate) bool {
		return u.Ref == mainRef && u.Old.IsZero() && !u.New.IsZero()
	}) {
		res.HEAD = l.settleRemoteHEAD(ctx, opts.Remote, tr)
	}
	if len(rejected) > 0 {
		return res, &RemoteRejectedError{
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
func (l *Library) hasNews(hist *commitGraph, ours, theirs Hash) (bool, error) {
	switch {
	case ours == theirs:
		return false, nil
	case theirs.IsZero() || !l.repo.ObjectExists(theirs):
		return true, nil
	}
	base, _, err := hist.mergeBase(ours, theirs)
	return base != ours, err
}

// settledHere reports whether a remote proposal branch that this library
// does not have was approved here (its tip is in main) or rejected here
// (its tip is kept by a rejection record).
func (l *Library) settledHere(hist *commitGraph, local map[string]Hash, id string, tip Hash) (bool, error) {
	if !l.repo.ObjectExists(tip) {
		return false, nil // never seen here: someone else's new work
	}
	if main, ok := local[branchRef(l.MainBranch())]; ok {
		base, _, err := hist.mergeBase(main, tip)
		if err != nil {
			return false, err
		}
		if base == tip {
			return true, nil
		}
	}
	if record, ok := local[RejectedRefPrefix+id]; ok {
		base, _, err := hist.mergeBase(record, tip)
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
// forces. Errors: *RemoteRejectedError (ErrConflict) when main has
// diverged (the proposals were still brought in); *DirtyError when the
// fast-forward would overwrite an uncommitted edit; those of
// Library.update.
//
// A library in a folder of a project's repository is refused (see
// refuseRemoteInFolder).
func (room Remote) Pull(ctx context.Context, opts RemoteOptions) (*PullResult, error) {
	l := room.l
	if err := l.refuseRemoteInFolder("pull"); err != nil {
		return nil, err
	}
	opts.fill()
	tr := l.transport(opts)
	res := &PullResult{Remote: opts.Remote, Transport: tr.name(), DryRun: opts.DryRun, Refs: []RefUpdate{}, Diverged: []string{}}
	if err := tr.fetch(ctx, opts.Remote, remoteTrackingRefspecs(opts.Remote)); err != nil {
		return nil, err
	}
	store := l.repo.NewStore(true)
	hist := newHistory(store)

	// Main first, so that proposals merged on the remote are recognised.
	var mainErr error
	mainRef := branchRef(l.MainBranch())
	if theirs, err := l.repo.ReadRef("refs/remotes/" + opts.Remote + "/" + l.MainBranch()); err == nil {
		res.Main, mainErr = l.fastForwardMain(ctx, hist, theirs, opts)
		if mainErr != nil && !errors.Is(mainErr, ErrConflict) {
			return nil, mainErr
		}
	} else if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	local, err := l.repo.ListRefs("refs/")
	if err != nil {
		return nil, err
	}
	if res.Main != nil && !opts.DryRun {
		local[mainRef] = res.Main.New
	}
	if err := l.pullRecords(hist, local, opts, res); err != nil {
		return nil, err
	}
	if err := l.pullProposals(hist, local, opts, res); err != nil {
		return nil, err
	}
	return res, mainErr
}

// fastForwardMain moves main to theirs when that is a fast-forward.
func (l *Library) fastForwardMain(ctx context.Context, hist *commitGraph, theirs Hash, opts RemoteOptions) (*UpdateResult, error) {
	ours, err := l.repo.ResolveBranch(l.MainBranch())
	if errors.Is(err, ErrNotFound) {
		ours = ZeroHash
	} else if err != nil {
		return nil, err
	}
	if !ours.IsZero() {
		base, _, err := hist.mergeBase(ours, theirs)
		if err != nil {
			return nil, err
		}
		switch base {
		case theirs:
			return nil, nil // up to date, or ahead: push sends it
		case ours:
		default:
			return nil, &RemoteRejectedError{
				Refs: []string{branchRef(l.MainBranch())},
				Msg:  fmt.Sprintf("%s and %s/%s have diverged; main was not updated", l.MainBranch(), opts.Remote, l.MainBranch()),
				hint: fmt.Sprintf("merge them with 'git merge %s/%s' in the library (or approve again on top of the remote's main), then 'skillrepo push'", opts.Remote, l.MainBranch()),
			}
		}
	}
	return l.updateAnyway(ctx, updateOptions{DryRun: opts.DryRun, Reflog: "skillrepo: pull: fast-forward from " + opts.Remote}, func(tx *writeTx) error {
		return fastForward(tx, theirs, opts.Remote+"/"+l.MainBranch())
	})
}

// fastForward moves the branch to a descendant commit without making a
// commit: the touched paths are the files that differ between the two
// trees, so the engine updates exactly those in the work tree. The
// commits it brings in (from, e.g. "origin/main") are checked first, as
// git's fsck checks them (treecheck.go).
func fastForward(tx *writeTx, to Hash, from string) error {
	store := tx.gtx.Store()
	news, err := incoming(newHistory(store), store, tx.gtx.Base(), to)
	if err != nil {
		return err
	}
	if err := checkIncoming(store, from, news); err != nil {
		return err
	}
	if len(news) > 0 {
		if err := tx.holdIncoming(to, from); err != nil {
			return err
		}
	}
	tree, _, err := store.CommitInfo(to)
	if err != nil {
		return err
	}
	files, err := differingFiles(tx.gtx.Store(), tx.gtx.Tree(), tree)
	if err != nil {
		return err
	}
	var paths []string
	for _, t := range files {
		for p := range t {
			paths = append(paths, p)
		}
	}
	return tx.gtx.FastForward(to, tree, paths)
}

// pullRecords adds the remote's rejection records this library lacks (or
// that fast-forward ours).
func (l *Library) pullRecords(hist *commitGraph, local map[string]Hash, opts RemoteOptions, res *PullResult) error {
	prefix := "refs/skillrepo/remotes/" + opts.Remote + "/rejected/"
	for _, name := range slices.Sorted(maps.Keys(local)) {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		ref := RejectedRefPrefix + strings.TrimPrefix(name, prefix)
		theirs, ours := local[name], local[ref]
		if ours == theirs {
			continue
		}
		if !ours.IsZero() {
			if base, _, err := hist.mergeBase(ours, theirs); err != nil {
				return err
			} else if base != ours {
				continue // ours is ahead or different: push settles it
			}
		}
		if err := l.moveRef(ref, theirs, ours, opts, res); err != nil {
			return err
		}
		local[ref] = theirs
	}
	return nil
}

// pullProposals creates or fast-forwards local proposal branches from the
// remote's, skipping settled ones, and deletes local ones main contains.
func (l *Library) pullProposals(hist *commitGraph, local map[string]Hash, opts RemoteOptions, res *PullResult) error {
	prefix := "refs/remotes/" + opts.Remote + "/" + ProposalBranchPrefix
	for _, name := range slices.Sorted(maps.Keys(local)) {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		id := strings.TrimPrefix(name, prefix)
		if ValidateProposalID(id) != nil {
			continue
		}
		ref, theirs := proposalRefPrefix+id, local[name]
		ours, have := local[ref]
		switch {
		case ours == theirs:
			continue
		case !have:
			settled, err := l.settledHere(hist, local, id, theirs)
			if err != nil {
				return err
			}
			if settled {
				continue
			}
		default:
			base, _, err := hist.mergeBase(ours, theirs)
			if err != nil {
				return err
			}
			if base == theirs {
				continue // ours is ahead: push sends it
			}
			if base != ours {
				res.Diverged = append(res.Diverged, ProposalBranch(id))
				continue
			}
		}
		if err := l.moveRef(ref, theirs, ours, opts, res); err != nil {
			return err
		}
		local[ref] = theirs
	}
	// Proposals that main now contains were approved (here, elsewhere, or
	// on GitHub): their branches have done their job.
	main, ok := local[branchRef(l.MainBranch())]
	if !ok {
		return nil
	}
	for _, ref := range slices.Sorted(maps.Keys(local)) {
		if !strings.HasPrefix(ref, proposalRefPrefix) {
			continue
		}
		base, _, err := hist.mergeBase(main, local[ref])
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
		if err := l.repo.DeleteRef(ref, local[ref]); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	return nil
}

func (l *Library) moveRef(ref string, new, old Hash, opts RemoteOptions, res *PullResult) error {
	res.Refs = append(res.Refs, RefUpdate{Ref: ref, Old: old, New: new})
	if opts.DryRun {
		return nil
	}
	return l.repo.UpdateRef(ref, new, old, "skillrepo: pull from "+opts.Remote)
}

// gitCLI is the git binary's transport, through the engine (see
// gitstore's transport_git.go).
type gitCLI struct {
	l   *Library
	git string
}

func (g *gitCLI) name() string { return "git" }

func (g *gitCLI) list(ctx context.Context, remote string) (map[string]Hash, error) {
	return g.l.repo.GitRemoteRefs(ctx, g.git, remote, "refs/heads/*", RejectedRefPrefix+"*")
}

func (g *gitCLI) push(ctx context.Context, remote string, updates []RefUpdate, atomic, dryRun bool) ([]RefUpdate, error) {
	var pu []gitstore.PushUpdate
	for _, u := range updates {
		pu = append(pu, gitstore.PushUpdate{Ref: u.Ref, Old: u.Old, New: u.New})
	}
	rejected, err := g.l.repo.GitPush(ctx, g.git, remote, pu, atomic, dryRun)
	if err != nil {
		return nil, err
	}
	done := make([]RefUpdate, len(updates))
	for i, u := range updates {
		u.Rejected = rejected[u.Ref]
		done[i] = u
	}
	return done, nil
}

func (g *gitCLI) fetch(ctx context.Context, remote string, refspecs []string) error {
	return g.l.repo.GitFetch(ctx, g.git, remote, refspecs)
}

// goGitTransport is go-git's transport through the engine, for machines
// without git (see gitstore's transport.go).
type goGitTransport struct{ l *Library }

func (g *goGitTransport) name() string { return "go-git" }

func (g *goGitTransport) list(ctx context.Context, remote string) (map[string]Hash, error) {
	refs, err := g.l.repo.RemoteRefs(ctx, remote)
	if err != nil {
		return nil, err
	}
	out := map[string]Hash{}
	for name, h := range refs {
		if strings.HasPrefix(name, "refs/heads/") || strings.HasPrefix(name, RejectedRefPrefix) {
			out[name] = h
		}
	}
	return out, nil
}

func (g *goGitTransport) push(ctx context.Context, remote string, updates []RefUpdate, atomic, dryRun bool) ([]RefUpdate, error) {
	done := append([]RefUpdate(nil), updates...)
	if dryRun {
		return done, nil
	}
	var pu []gitstore.PushUpdate
	for _, u := range updates {
		pu = append(pu, gitstore.PushUpdate{Ref: u.Ref, Old: u.Old, New: u.New})
	}
	err := g.l.repo.RemotePush(ctx, remote, pu, atomic)
	switch {
	case err == nil:
		return done, nil
	case errors.Is(err, gitstore.ErrPushRejected):
		// go-git refuses the whole push; say so for every ref in it.
		for i := range done {
			done[i].Rejected = strings.TrimPrefix(err.Error(), gitstore.ErrPushRejected.Error()+": ")
		}
		return done, nil
	}
	return nil, err
}

func (g *goGitTransport) fetch(ctx context.Context, remote string, refspecs []string) error {
	return g.l.repo.RemoteFetch(ctx, remote, refspecs)
}

// refuseRemoteInFolder refuses push and pull for a library in a folder of
// a project's repository: they move whole branches (the project's main
// with everything else in it), and merging a remote main by the library's
// folder alone would record the project's other changes as reverted. The
// project's own git push and pull do the job, proposals included.
func (l *Library) refuseRemoteInFolder(cmd string) error {
	if l.repo.Prefix == "" {
		return nil
	}
	return WithHint(fmt.Errorf("%s: the library is the folder %s of a project's repository, whose branches are the project's: %w", cmd, l.repo.Prefix, ErrRefused),
		"use git "+cmd+" in the project (proposals are its proposals/<id> branches: git push origin 'refs/heads/proposals/*' opens them for review)")
}
