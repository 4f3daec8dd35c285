package skillrepo

// Sharing main through the remote (docs/remote.md §5): fetch, bring the
// remote's main in (a fast-forward, or the engine's three-way merge as an
// approval makes it), and send this clone's main out with a lease. A push
// that loses the race to another clone fetches, merges and tries again,
// a bounded number of times; then, as after a merge that conflicts, this
// clone's own work becomes a proposal (published) and main follows the
// remote's. Nothing is ever forced and no commit is dropped: every commit
// is on the remote's main, in a proposal, or both.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/merge"
)

// DefaultShareAttempts bounds the fetch-merge-push rounds of one sync.
const DefaultShareAttempts = 5

// RemoteSyncOptions tune [Remote.Sync].
type RemoteSyncOptions struct {
	// Attempts bounds the rounds when pushes of main lose races
	// (0: DefaultShareAttempts).
	Attempts int
	// Publish are proposals to publish in the same sync (a review's,
	// the curator's), besides the ones a failed earlier publication left;
	// published only when remote.proposals is push.
	Publish []string
	// Summary is the summary of the proposals in Publish (a review's),
	// for their pull requests.
	Summary string
	// LockWait bounds the wait for another remote operation of this
	// clone (0: until ctx ends).
	LockWait time.Duration
	// Locked, when set, is called once the clone's remote lock is held,
	// before anything is read (a waiting background sync hands its place
	// in line to the next one then).
	Locked func()
}

// Main outcomes of a sync.
const (
	MainUpToDate    = "up to date"
	MainFastForward = "fast-forward"
	MainMerged      = "merged"
	MainPushed      = "pushed"
	MainAhead       = "ahead"  // remote.main is pull: this clone's commits stay here
	MainBehind      = "behind" // remote.main is push: the remote's commits are not brought in
	MainProposed    = "proposed"
	MainSkipped     = "skipped"
)

// RemoteSyncResult says what a sync did.
type RemoteSyncResult struct {
	Remote string
	// Fetched: the fetch succeeded.
	Fetched bool
	// Main is what happened to main (the Main* constants); Before and
	// After its tip around the sync.
	Main          string
	Before, After Hash
	// Pushes counts the pushes of main tried; Rounds the fetch-merge-push
	// rounds.
	Pushes, Rounds int
	// Proposal is the proposal this clone's work became (a conflict, or
	// the pushes exhausted), with Reason.
	Proposal, Reason string
	// Settled are local proposal branches approved on the host (their
	// commits or their changes are in main), settled here.
	Settled []string
	// Published are the proposals published by this sync.
	Published []*PublishResult
	// Notes are things a person may want to know (a skipped step, a
	// proposal left for them).
	Notes []string
}

func (r *RemoteSyncResult) notef(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// Sync fetches the shared remote and, as remote.main says, brings
// its main in and sends this clone's main out; it settles the proposals
// approved on the host and publishes the ones waiting (remote.proposals:
// push). A library in a folder of a project's repository never touches
// main: it is the project's, and git pull is the person's to run.
//
// Errors: *RemoteError (ErrRemote) when the remote cannot be reached or
// refuses (the failure is also kept for status); ErrLocked when another
// remote operation of this clone did not finish within LockWait;
// *DirtyError when bringing main in would overwrite an uncommitted edit
// (main is left as it was).
func (room Remote) Sync(ctx context.Context, opts RemoteSyncOptions) (*RemoteSyncResult, error) {
	l := room.l
	cfg := l.Config.Remote
	res := &RemoteSyncResult{Remote: cfg.Name, Main: MainSkipped}
	// While the config has problems nothing of this clone's is shared
	// under a setting the person did not mean; but the fix may be on the
	// remote (a broken file that came from it), so main still
	// fast-forwards as a pull does (remote.main as this clone had it:
	// config_hold.go keeps the remote: keys a broken file changed).
	problem := l.ConfigProblem()
	if problem != nil && (l.repo.Prefix != "" || !cfg.Main.Pulls()) {
		return res, problem
	}
	if problem == nil && !cfg.Enabled() && len(opts.Publish) == 0 {
		res.notef("the remote: section is off (remote.main: off, remote.proposals: off)")
		return res, nil
	}
	g, err := l.remoteGit(cfg.Name)
	if err != nil {
		l.noteRemote("fetch", err)
		return res, err
	}
	lockCtx := ctx
	if opts.LockWait > 0 {
		var cancel context.CancelFunc
		lockCtx, cancel = context.WithTimeout(ctx, opts.LockWait)
		defer cancel()
	}
	unlock, err := l.remoteStore().runLock(lockCtx)
	if err != nil {
		return res, err
	}
	defer unlock()
	if opts.Locked != nil {
		opts.Locked()
	}

	err = g.fetch(ctx)
	l.noteRemote("fetch", err)
	if err != nil {
		return res, err
	}
	res.Fetched = true
	now := l.now().UTC()
	_ = l.remoteStore().record(func(r *remoteRecord) { r.Remote, r.LastFetch = cfg.Name, &now })

	if main, err := l.repo.ResolveBranch(l.MainBranch()); err == nil {
		res.Before, res.After = main, main
	}
	if problem != nil {
		return res, l.fastForwardOnly(ctx, g, res, problem)
	}
	switch {
	case l.repo.Prefix != "":
		if cfg.Main != config.MainOff {
			res.notef("remote.main is ignored: the library is the folder %s of a project, whose main is the project's (git pull is yours to run)", l.repo.Prefix)
		}
	case cfg.Main != config.MainOff:
		if err := l.shareMain(ctx, g, opts, res); err != nil {
			return res, err
		}
	}
	if err := l.settleRemoteProposals(ctx, g, res); err != nil {
		return res, err
	}
	if cfg.Publishes() || res.Proposal != "" {
		l.publishWaiting(ctx, g, opts, res)
	}
	return res, nil
}

// fastForwardOnly is a sync's share of main while the config has a
// problem: main moves to the remote's when it is behind, and nothing
// else happens (no merge, no push, no proposal). It returns nil when the
// config main now has is sound (the fix arrived), else the problem.
func (l *Library) fastForwardOnly(ctx context.Context, g *remoteGit, res *RemoteSyncResult, problem error) error {
	theirs, err := l.repo.ReadRef(g.trackingRef(l.MainBranch()))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	res.Main = MainUpToDate
	if theirs.IsZero() {
		return problem
	}
	from := g.remote + "/" + l.MainBranch()
	_, err = l.updateAnyway(ctx, updateOptions{Reflog: "skillrepo: remote sync: fast-forward to " + from}, func(tx *writeTx) error {
		ours := tx.gtx.Base()
		if ours == theirs || l.contains(ours, theirs) {
			return nil
		}
		if !l.contains(theirs, ours) {
			res.Main = MainAhead
			return nil
		}
		res.Main = MainFastForward
		return fastForward(tx, theirs, from)
	})
	l.noteRemote("main", err)
	if err != nil {
		return err
	}
	if res.After, err = l.repo.ResolveBranch(l.MainBranch()); err != nil {
		return err
	}
	if _, err := config.Read(l.Root); err != nil {
		res.notef("the library's config has problems: main only fast-forwards, nothing is merged, pushed or published until they are fixed")
		return err
	}
	res.notef("the config main brought in has no problem: the next sync shares main and proposals again")
	return nil
}

// shareMain is the fetch-merge-push loop of main.
func (l *Library) shareMain(ctx context.Context, g *remoteGit, opts RemoteSyncOptions, res *RemoteSyncResult) error {
	mode := l.Config.Remote.Main
	attempts := opts.Attempts
	if attempts <= 0 {
		attempts = DefaultShareAttempts
	}
	mainRef := branchRef(l.MainBranch())
	tracking := g.trackingRef(l.MainBranch())
	res.Main = MainUpToDate
	for round := 1; ; round++ {
		res.Rounds = round
		theirs, err := l.repo.ReadRef(tracking)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		ours, err := l.repo.ResolveBranch(l.MainBranch())
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		ahead := !l.contains(theirs, ours) // ours has commits theirs lacks
		behind := !l.contains(ours, theirs)
		if !theirs.IsZero() && behind && (mode.Pulls() || ahead) {
			// Bring the remote's main in: always when pulling; when only
			// pushing, as far as a push needs it (a merge of both).
			out, err := l.integrateMain(ctx, g, theirs)
			if errors.Is(err, errMainDiverged) {
				return l.proposeOwnWork(ctx, theirs, err.Error(), res)
			}
			l.noteRemote("main", err)
			if err != nil {
				return err
			}
			if out != "" && res.Main != MainMerged {
				res.Main = out
			}
			if ours, err = l.repo.ResolveBranch(l.MainBranch()); err != nil {
				return err
			}
			ahead, behind = !l.contains(theirs, ours), !l.contains(ours, theirs)
		}
		res.After = ours
		switch {
		case ours.IsZero() || ours == theirs || !ahead:
			if behind {
				res.Main = MainBehind // only pushing: the remote's commits are not brought in
			}
			return nil
		case !mode.Pushes():
			if res.Main == MainUpToDate {
				res.Main = MainAhead
			}
			return nil
		}
		res.Pushes++
		out, err := g.push(ctx, mainRef, ours, theirs)
		l.noteRemote("push main", err)
		if err != nil {
			return err
		}
		if out.OK {
			res.Main = MainPushed
			now := l.now().UTC()
			_ = l.remoteStore().record(func(r *remoteRecord) { r.LastPush = &now })
			if err := l.setTracking(tracking, ours); err != nil {
				return err
			}
			return l.dropSettledRemote(ctx, g, res)
		}
		// Lost the race: another clone pushed first.
		if round >= attempts {
			theirs, _ := l.repo.ReadRef(tracking)
			if err := g.fetch(ctx); err == nil {
				theirs, _ = l.repo.ReadRef(tracking)
			}
			return l.proposeOwnWork(ctx, theirs, fmt.Sprintf("gave up after %d pushes lost to other clones", res.Pushes), res)
		}
		if err := g.fetch(ctx); err != nil {
			return err
		}
	}
}

// contains reports whether commit a contains commit b (b is a or an
// ancestor of it).
func (l *Library) contains(a, b Hash) bool {
	if a == b || b.IsZero() {
		return true
	}
	if a.IsZero() || !l.repo.ObjectExists(b) {
		return false
	}
	base, _, err := newHistory(l.repo.NewStore(true)).mergeBase(a, b)
	return err == nil && base == b
}

// errMainDiverged: the remote's main and this clone's do not merge
// cleanly (or the merge would not be a valid library).
var errMainDiverged = errors.New("main and the remote's main do not merge")

// integrateMain brings theirs into main through the write engine: a
// fast-forward when main is behind, the three-way merge (files merged
// line by line, checked and lint-gated as an approval is) when both
// moved. It decides under the library lock on main's tip then, so a
// local write racing it is merged, not lost.
func (l *Library) integrateMain(ctx context.Context, g *remoteGit, theirs Hash) (string, error) {
	outcome := ""
	_, err := l.update(ctx, updateOptions{Reflog: "skillrepo: remote sync: bring in " + g.remote + "/" + l.MainBranch()}, func(tx *writeTx) error {
		outcome = ""
		ours := tx.gtx.Base()
		hist := newHistory(tx.gtx.Store())
		from := g.remote + "/" + l.MainBranch()
		base, _, err := hist.mergeBase(ours, theirs)
		if err != nil {
			return err
		}
		switch {
		case base == theirs:
			return nil // nothing new there
		case base == ours || ours.IsZero():
			outcome = MainFastForward
			return fastForward(tx, theirs, from)
		}
		news, err := incoming(hist, tx.gtx.Store(), ours, theirs)
		if err != nil {
			return err
		}
		if err := checkIncoming(tx.gtx.Store(), from, news); err != nil {
			return err
		}
		if err := tx.holdIncoming(theirs, from); err != nil {
			return err
		}
		var baseTree Hash
		if !base.IsZero() {
			if baseTree, _, err = tx.gtx.Store().CommitInfo(base); err != nil {
				return err
			}
		}
		theirTree, _, err := tx.gtx.Store().CommitInfo(theirs)
		if err != nil {
			return err
		}
		mainTree := tx.gtx.Tree()
		merged, err := mergeTrees(tx.gtx.Store(), baseTree, mainTree, theirTree,
			merge.Labels{Ours: l.MainBranch(), Base: "merge base", Theirs: g.remote + "/" + l.MainBranch()})
		if err != nil {
			return err
		}
		if !merged.Clean() {
			return fmt.Errorf("%w: %s", errMainDiverged, conflictPaths(merged.Conflicts))
		}
		if err := stageMerge(tx, merged.Changes); err != nil {
			return err
		}
		tx.gtx.AddParent(theirs)
		m := Message{Subject: fmt.Sprintf("Merge %s/%s into %s", g.remote, l.MainBranch(), l.MainBranch())}
		m.Add(TrailerRemote, g.remote)
		commit, err := tx.Commit(m)
		if err != nil {
			return err
		}
		changed := make([]string, len(merged.Changes))
		for i, c := range merged.Changes {
			changed[i] = c.Path
		}
		snap := &Snapshot{l: l, store: tx.gtx.Store(), commit: commit, tree: tx.gtx.Tree()}
		if invalid := invalidSkills(snap, changed); len(invalid) > 0 {
			return fmt.Errorf("%w: %s", errMainDiverged, conflictPaths(invalid))
		}
		var dirs []string
		for _, p := range changed {
			if d := skillDirOf(l, tx.gtx.Store(), p, tx.gtx.Tree(), mainTree); d != "" && !strings.HasPrefix(d, ArchiveDir+"/") && !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
		before := &Snapshot{l: l, store: tx.gtx.Store(), commit: ours, tree: mainTree}
		if err := l.gateAgainst(snap.FS(), before.FS, dirs); err != nil {
			var ge *GateError
			if errors.As(err, &ge) {
				return fmt.Errorf("%w: the merge adds lint errors: %v", errMainDiverged, err)
			}
			return err
		}
		outcome = MainMerged
		return nil
	})
	return outcome, err
}

func conflictPaths(cs []merge.PathConflict) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s (%s)", c.Path, c.Reason)
	}
	return strings.Join(parts, ", ")
}

// TrailerRemote marks the merge commit that brought a remote's main in.
const TrailerRemote = "Remote"

// proposeOwnWork turns this clone's commits that the remote's main lacks
// into a proposal — the branch at main's tip, so nothing is dropped —
// and moves main to the remote's (theirs), the work tree with it. A
// person merges the proposal (on the host, once published, or with
// 'proposal approve'), resolving what the machines could not.
func (l *Library) proposeOwnWork(ctx context.Context, theirs Hash, reason string, res *RemoteSyncResult) error {
	id := "diverged-" + strings.TrimPrefix(NewProposalID(l.now()), "p-")
	if refs, err := l.repo.ListRefs(proposalRefPrefix + "diverged-"); err == nil {
		main, _ := l.repo.ResolveBranch(l.MainBranch())
		for ref, h := range refs {
			if h == main {
				id = strings.TrimPrefix(ref, proposalRefPrefix) // an earlier sync's, whose move of main failed
			}
		}
	}
	var tip Hash
	made := false
	_, err := l.update(ctx, updateOptions{Reflog: "skillrepo: remote sync: main's own work moved to proposal " + id}, func(tx *writeTx) error {
		tip = tx.gtx.Base()
		if tip.IsZero() || theirs.IsZero() || tip == theirs {
			return errNothingToPropose
		}
		// The proposal is made before main moves, so no instant loses
		// the work (a crash leaves it in both).
		if have, err := l.repo.ReadRef(proposalRefPrefix + id); err != nil || have != tip {
			if err := l.repo.UpdateRef(proposalRefPrefix+id, tip, ZeroHash, "skillrepo: remote sync: "+reason); err != nil {
				return err
			}
			made = true
		}
		return fastForward(tx, theirs, l.Config.Remote.Name+"/"+l.MainBranch())
	})
	if errors.Is(err, errNothingToPropose) {
		return nil
	}
	if err != nil {
		// Main stays where it was, with the work: the proposal made for
		// it would be an empty one, and goes (issue 40 item 12). The
		// delete names the tip, so a proposal that moved since stays.
		if made {
			if main, merr := l.repo.ResolveBranch(l.MainBranch()); merr == nil && main == tip {
				_ = l.repo.DeleteRef(proposalRefPrefix+id, tip)
			}
		}
		return fmt.Errorf("move main's own work to a proposal: %w", err)
	}
	res.Main, res.Proposal, res.Reason, res.After = MainProposed, id, reason, theirs
	res.notef("this clone's work the remote lacks is proposal %s (%s); main follows %s's — review it with 'skillrepo proposal diff %s'", id, reason, l.Config.Remote.Name, id)
	return nil
}

// agentProposal reports whether a proposal's tip was written by an agent
// that stages its work for a person: a background review or the curator.
func (l *Library) agentProposal(tip Hash) bool {
	c, err := l.repo.CommitObject(tip)
	if err != nil {
		return false
	}
	o := TrailerValue(ParseTrailers(c.Message), TrailerOrigin)
	return o == OriginBackgroundReview || o == OriginCurator
}

var errNothingToPropose = errors.New("nothing to propose")

// settleRemoteProposals settles the local proposal branches that were
// approved on the host: a merge (their tip is in main: the branch is
// deleted, as after a local approval) or a squash or rebase (main has
// their changes and the host deleted the branch: the branch moves to
// refs/skillrepo/settled/<id>, keeping its commits and their trailers).
func (l *Library) settleRemoteProposals(ctx context.Context, g *remoteGit, res *RemoteSyncResult) error {
	pubs, err := l.remoteStore().published()
	if err != nil {
		return err
	}
	main, err := l.repo.ResolveBranch(l.MainBranch())
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	refs, err := l.repo.ListRefs(proposalRefPrefix)
	if err != nil {
		return err
	}
	hist := newHistory(l.repo.NewStore(true))
	for ref, tip := range refs {
		id := strings.TrimPrefix(ref, proposalRefPrefix)
		if ValidateProposalID(id) != nil || id == res.Proposal {
			continue
		}
		_, published := pubs[id]
		if !main.IsZero() {
			if base, _, err := hist.mergeBase(main, tip); err != nil {
				return err
			} else if base == tip {
				if err := l.repo.DeleteRef(ref, tip); err != nil && !errors.Is(err, ErrNotFound) {
					return err
				}
				l.settlePendingUsage(id, true)
				res.Settled = append(res.Settled, id)
				continue
			}
		}
		if !published {
			continue
		}
		if _, err := l.repo.ReadRef(g.trackingRef(ProposalBranch(id))); !errors.Is(err, ErrNotFound) {
			continue // still open on the host
		}
		p, err := l.Proposals().Get(id)
		if err != nil || !p.Applied {
			continue // closed on the host without merging: the list says so
		}
		if err := l.repo.UpdateRef(SettledRefPrefix+id, tip, ZeroHash, "skillrepo: proposal "+id+" was merged on the host (squash or rebase)"); err != nil && !errors.Is(err, ErrConflict) {
			return err
		}
		if err := l.repo.DeleteRef(ref, tip); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		l.settlePendingUsage(id, true)
		res.Settled = append(res.Settled, id)
	}
	slices.Sort(res.Settled)
	if len(res.Settled) > 0 {
		_ = l.remoteStore().updatePublished(func(m map[string]Publication) {
			for _, id := range res.Settled {
				delete(m, id)
			}
		})
	}
	return nil
}

// SettledRefPrefix keeps the tips of proposals merged on the host by a
// squash or a rebase (their own commits are not in main; their changes
// are).
const SettledRefPrefix = "refs/skillrepo/settled/"

// dropSettledRemote deletes, with a lease, the remote's proposal branches
// that the main just pushed contains (a local approval): the host's
// pull request then shows as merged.
func (l *Library) dropSettledRemote(ctx context.Context, g *remoteGit, res *RemoteSyncResult) error {
	prefix := "refs/remotes/" + g.remote + "/" + ProposalBranchPrefix
	tracking, err := l.repo.ListRefs(prefix)
	if err != nil {
		return err
	}
	for ref, tip := range tracking {
		if !l.contains(res.After, tip) {
			continue
		}
		id := strings.TrimPrefix(ref, prefix)
		out, err := g.deleteLeased(ctx, proposalRefPrefix+id, tip)
		if err != nil {
			res.notef("could not delete the merged proposal branch %s on %s: %v", ProposalBranch(id), g.remote, err)
			continue
		}
		if out.OK {
			if err := l.repo.DeleteRef(ref, tip); err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
		}
	}
	return nil
}

// publishWaiting publishes the proposal the sync made and, with
// remote.proposals: push, those of opts.Publish, the ones a review or the
// curator staged (their tip's Skill-Origin) that are not published yet,
// and the published ones with commits the remote lacks. A person's own
// proposals (--propose) travel when they publish them.
func (l *Library) publishWaiting(ctx context.Context, g *remoteGit, opts RemoteSyncOptions, res *RemoteSyncResult) {
	var ids []string
	if res.Proposal != "" {
		ids = append(ids, res.Proposal)
	}
	if !l.Config.Remote.Publishes() {
		// Only the work the sync moved off main travels: it must reach a
		// person.
	} else if pubs, err := l.remoteStore().published(); err == nil {
		ids = append(ids, opts.Publish...)
		refs, _ := l.repo.ListRefs(proposalRefPrefix)
		for ref, tip := range refs {
			id := strings.TrimPrefix(ref, proposalRefPrefix)
			pub, published := pubs[id]
			switch {
			case ValidateProposalID(id) != nil:
			case published && tip.String() != pub.Tip:
				ids = append(ids, id) // new commits, or a failed publication
			case !published && l.agentProposal(tip):
				ids = append(ids, id) // staged by a review or the curator
			}
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var live []string
	for _, id := range ids {
		if _, err := l.repo.ReadRef(proposalRefPrefix + id); err == nil {
			live = append(live, id) // not approved or rejected meanwhile
		}
	}
	if len(live) == 0 {
		return
	}
	summaryOf := func(id string) string {
		if id == res.Proposal {
			return fmt.Sprintf("This clone's work that %s's %s lacks (%s). Merging it brings it in; a conflict needs a person.", g.remote, l.MainBranch(), res.Reason)
		}
		if slices.Contains(opts.Publish, id) {
			return opts.Summary
		}
		return ""
	}
	done, errs := l.publishLocked(ctx, g, live, PublishOptions{}, summaryOf)
	res.Published = append(res.Published, done...)
	for _, id := range live {
		if err := errs[id]; err != nil {
			res.notef("publish %s: %v", id, err)
		}
	}
}
