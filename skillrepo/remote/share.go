package remote

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

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// DefaultShareAttempts bounds the fetch-merge-push rounds of one sync.
const DefaultShareAttempts = 5

// SyncOptions tune [Remote.Sync].
type SyncOptions struct {
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

// SyncResult says what a sync did.
type SyncResult struct {
	Remote string
	// Fetched: the fetch succeeded.
	Fetched bool
	// Main is what happened to main (the Main* constants); Before and
	// After its tip around the sync.
	Main          string
	Before, After skillrepo.Hash
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

func (r *SyncResult) notef(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// Sync fetches the shared remote and, as remote.main says, brings
// its main in and sends this clone's main out; it settles the proposals
// approved on the host and publishes the ones waiting (remote.proposals:
// push). A library in a folder of a project's repository never touches
// main: it is the project's, and git pull is the person's to run.
//
// Errors: *Error (ErrRemote) when the remote cannot be reached or
// refuses (the failure is also kept for status); ErrLocked when another
// remote operation of this clone did not finish within LockWait;
// *DirtyError when bringing main in would overwrite an uncommitted edit
// (main is left as it was).
func (r *Remote) Sync(ctx context.Context, opts SyncOptions) (*SyncResult, error) {
	cfg := r.lib.Config.Remote
	res := &SyncResult{Remote: cfg.Name, Main: MainSkipped}
	// While the config has problems nothing of this clone's is shared
	// under a setting the person did not mean; but the fix may be on the
	// remote (a broken file that came from it), so main still
	// fast-forwards as a pull does (remote.main as this clone had it:
	// config_hold.go keeps the remote: keys a broken file changed).
	problem := r.lib.ConfigProblem()
	if problem != nil && (r.d.Folder() != "" || !cfg.Main.Pulls()) {
		return res, problem
	}
	if problem == nil && !cfg.Enabled() && len(opts.Publish) == 0 {
		res.notef("the remote: section is off (remote.main: off, remote.proposals: off)")
		return res, nil
	}
	g, err := r.remoteGit(cfg.Name)
	if err != nil {
		r.noteRemote("fetch", err)
		return res, err
	}
	lockCtx := ctx
	if opts.LockWait > 0 {
		var cancel context.CancelFunc
		lockCtx, cancel = context.WithTimeout(ctx, opts.LockWait)
		defer cancel()
	}
	unlock, err := r.remoteStore().runLock(lockCtx)
	if err != nil {
		return res, err
	}
	defer unlock()
	if opts.Locked != nil {
		opts.Locked()
	}

	err = g.fetch(ctx)
	r.noteRemote("fetch", err)
	if err != nil {
		return res, err
	}
	res.Fetched = true
	now := r.d.Now().UTC()
	_ = r.remoteStore().record(func(r *remoteRecord) { r.Remote, r.LastFetch = cfg.Name, &now })

	if main, err := r.lib.MainTip(); err == nil {
		res.Before, res.After = main, main
	}
	if problem != nil {
		return res, r.fastForwardOnly(ctx, g, res, problem)
	}
	switch {
	case r.d.Folder() != "":
		if cfg.Main != config.MainOff {
			res.notef("remote.main is ignored: the library is the folder %s of a project, whose main is the project's (git pull is yours to run)", r.d.Folder())
		}
	case cfg.Main != config.MainOff:
		if err := r.shareMain(ctx, g, opts, res); err != nil {
			return res, err
		}
	}
	if err := r.settleRemoteProposals(ctx, g, res); err != nil {
		return res, err
	}
	if cfg.Publishes() || res.Proposal != "" {
		r.publishWaiting(ctx, g, opts, res)
	}
	return res, nil
}

// fastForwardOnly is a sync's share of main while the config has a
// problem: main moves to the remote's when it is behind, and nothing
// else happens (no merge, no push, no proposal). It returns nil when the
// config main now has is sound (the fix arrived), else the problem.
func (r *Remote) fastForwardOnly(ctx context.Context, g *remoteGit, res *SyncResult, problem error) error {
	theirs, err := r.d.Ref(g.trackingRef(r.lib.MainBranch()))
	if err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
		return err
	}
	res.Main = MainUpToDate
	if theirs.IsZero() {
		return problem
	}
	from := g.remote + "/" + r.lib.MainBranch()
	_, outcome, err := r.d.FastForwardMain(ctx, theirs, from, "skillrepo: remote sync: fast-forward to "+from, false)
	switch outcome {
	case skillrepo.FastForwardAhead:
		res.Main = MainAhead
	case skillrepo.FastForwardDone:
		res.Main = MainFastForward
	}
	r.noteRemote("main", err)
	if err != nil {
		return err
	}
	if res.After, err = r.lib.MainTip(); err != nil {
		return err
	}
	if _, err := config.Read(r.lib.Root); err != nil {
		res.notef("the library's config has problems: main only fast-forwards, nothing is merged, pushed or published until they are fixed")
		return err
	}
	res.notef("the config main brought in has no problem: the next sync shares main and proposals again")
	return nil
}

// shareMain is the fetch-merge-push loop of main.
func (r *Remote) shareMain(ctx context.Context, g *remoteGit, opts SyncOptions, res *SyncResult) error {
	mode := r.lib.Config.Remote.Main
	attempts := opts.Attempts
	if attempts <= 0 {
		attempts = DefaultShareAttempts
	}
	mainRef := branchRef(r.lib.MainBranch())
	tracking := g.trackingRef(r.lib.MainBranch())
	res.Main = MainUpToDate
	for round := 1; ; round++ {
		res.Rounds = round
		theirs, err := r.d.Ref(tracking)
		if err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
			return err
		}
		ours, err := r.lib.MainTip()
		if err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
			return err
		}
		ahead := !r.contains(theirs, ours) // ours has commits theirs lacks
		behind := !r.contains(ours, theirs)
		if !theirs.IsZero() && behind && (mode.Pulls() || ahead) {
			// Bring the remote's main in: always when pulling; when only
			// pushing, as far as a push needs it (a merge of both).
			out, err := r.integrateMain(ctx, g, theirs)
			if errors.Is(err, skillrepo.ErrMainDiverged) {
				return r.proposeOwnWork(ctx, theirs, err.Error(), res)
			}
			r.noteRemote("main", err)
			if err != nil {
				return err
			}
			if out != "" && res.Main != MainMerged {
				res.Main = out
			}
			if ours, err = r.lib.MainTip(); err != nil {
				return err
			}
			ahead, behind = !r.contains(theirs, ours), !r.contains(ours, theirs)
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
		r.noteRemote("push main", err)
		if err != nil {
			return err
		}
		if out.OK {
			res.Main = MainPushed
			now := r.d.Now().UTC()
			_ = r.remoteStore().record(func(r *remoteRecord) { r.LastPush = &now })
			if err := r.setTracking(tracking, ours); err != nil {
				return err
			}
			return r.dropSettledRemote(ctx, g, res)
		}
		// Lost the race: another clone pushed first.
		if round >= attempts {
			theirs, _ := r.d.Ref(tracking)
			if err := g.fetch(ctx); err == nil {
				theirs, _ = r.d.Ref(tracking)
			}
			return r.proposeOwnWork(ctx, theirs, fmt.Sprintf("gave up after %d pushes lost to other clones", res.Pushes), res)
		}
		if err := g.fetch(ctx); err != nil {
			return err
		}
	}
}

// contains reports whether commit a contains commit b (b is a or an
// ancestor of it).
func (r *Remote) contains(a, b skillrepo.Hash) bool { return r.d.Graph().Contains(a, b) }

// integrateMain brings theirs into main through the domain's write
// engine (skillrepo.Remote.MergeMain): a fast-forward, or the approval's
// three-way merge.
func (r *Remote) integrateMain(ctx context.Context, g *remoteGit, theirs skillrepo.Hash) (string, error) {
	out, err := r.d.MergeMain(ctx, theirs, g.remote)
	switch out {
	case skillrepo.MergeFastForward:
		return MainFastForward, err
	case skillrepo.MergeMerged:
		return MainMerged, err
	}
	return "", err
}

// proposeOwnWork turns this clone's commits that the remote's main lacks
// into a proposal — the branch at main's tip, so nothing is dropped —
// and moves main to the remote's (theirs), the work tree with it. A
// person merges the proposal (on the host, once published, or with
// 'proposal approve'), resolving what the machines could not.
func (r *Remote) proposeOwnWork(ctx context.Context, theirs skillrepo.Hash, reason string, res *SyncResult) error {
	id := "diverged-" + strings.TrimPrefix(skillrepo.NewProposalID(r.d.Now()), "p-")
	if refs, err := r.d.Refs(proposalRefPrefix + "diverged-"); err == nil {
		main, _ := r.lib.MainTip()
		for ref, h := range refs {
			if h == main {
				id = strings.TrimPrefix(ref, proposalRefPrefix) // an earlier sync's, whose move of main failed
			}
		}
	}
	moved, err := r.d.MainToProposal(ctx, id, theirs, r.lib.Config.Remote.Name+"/"+r.lib.MainBranch(), reason)
	if err != nil || !moved {
		return err
	}
	res.Main, res.Proposal, res.Reason, res.After = MainProposed, id, reason, theirs
	res.notef("this clone's work the remote lacks is proposal %s (%s); main follows %s's — review it with 'skillrepo proposal diff %s'", id, reason, r.lib.Config.Remote.Name, id)
	return nil
}

// agentProposal reports whether a proposal's tip was written by an agent
// that stages its work for a person: a background review or the curator.
func (r *Remote) agentProposal(tip skillrepo.Hash) bool {
	o := r.d.Origin(tip)
	return o == skillrepo.OriginBackgroundReview || o == skillrepo.OriginCurator
}

// settleRemoteProposals settles the local proposal branches that were
// approved on the host: a merge (their tip is in main: the branch is
// deleted, as after a local approval) or a squash or rebase (main has
// their changes and the host deleted the branch: the branch moves to
// refs/skillrepo/settled/<id>, keeping its commits and their trailers).
func (r *Remote) settleRemoteProposals(ctx context.Context, g *remoteGit, res *SyncResult) error {
	pubs, err := r.remoteStore().published()
	if err != nil {
		return err
	}
	main, err := r.lib.MainTip()
	if err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
		return err
	}
	refs, err := r.d.Refs(proposalRefPrefix)
	if err != nil {
		return err
	}
	hist := r.d.Graph()
	for ref, tip := range refs {
		id := strings.TrimPrefix(ref, proposalRefPrefix)
		if skillrepo.ValidateProposalID(id) != nil || id == res.Proposal {
			continue
		}
		_, published := pubs[id]
		if !main.IsZero() {
			if base, _, err := hist.MergeBase(main, tip); err != nil {
				return err
			} else if base == tip {
				if err := r.d.SettleProposal(id, tip, false); err != nil {
					return err
				}
				res.Settled = append(res.Settled, id)
				continue
			}
		}
		if !published {
			continue
		}
		if _, err := r.d.Ref(g.trackingRef(skillrepo.ProposalBranch(id))); !errors.Is(err, skillrepo.ErrNotFound) {
			continue // still open on the host
		}
		p, err := r.lib.Proposals().Get(id)
		if err != nil || !p.Applied {
			continue // closed on the host without merging: the list says so
		}
		if err := r.d.SettleProposal(id, tip, true); err != nil {
			return err
		}
		res.Settled = append(res.Settled, id)
	}
	slices.Sort(res.Settled)
	if len(res.Settled) > 0 {
		_ = r.remoteStore().updatePublished(func(m map[string]publication) {
			for _, id := range res.Settled {
				delete(m, id)
			}
		})
	}
	return nil
}

// dropSettledRemote deletes, with a lease, the remote's proposal branches
// that the main just pushed contains (a local approval): the host's
// pull request then shows as merged.
func (r *Remote) dropSettledRemote(ctx context.Context, g *remoteGit, res *SyncResult) error {
	prefix := "refs/remotes/" + g.remote + "/" + skillrepo.ProposalBranchPrefix
	tracking, err := r.d.Refs(prefix)
	if err != nil {
		return err
	}
	for ref, tip := range tracking {
		if !r.contains(res.After, tip) {
			continue
		}
		id := strings.TrimPrefix(ref, prefix)
		out, err := g.deleteLeased(ctx, proposalRefPrefix+id, tip)
		if err != nil {
			res.notef("could not delete the merged proposal branch %s on %s: %v", skillrepo.ProposalBranch(id), g.remote, err)
			continue
		}
		if out.OK {
			if err := r.d.MoveRef(ref, skillrepo.ZeroHash, tip, ""); err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
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
func (r *Remote) publishWaiting(ctx context.Context, g *remoteGit, opts SyncOptions, res *SyncResult) {
	var ids []string
	if res.Proposal != "" {
		ids = append(ids, res.Proposal)
	}
	if !r.lib.Config.Remote.Publishes() {
		// Only the work the sync moved off main travels: it must reach a
		// person.
	} else if pubs, err := r.remoteStore().published(); err == nil {
		ids = append(ids, opts.Publish...)
		refs, _ := r.d.Refs(proposalRefPrefix)
		for ref, tip := range refs {
			id := strings.TrimPrefix(ref, proposalRefPrefix)
			pub, published := pubs[id]
			switch {
			case skillrepo.ValidateProposalID(id) != nil:
			case published && tip.String() != pub.Tip:
				ids = append(ids, id) // new commits, or a failed publication
			case !published && r.agentProposal(tip):
				ids = append(ids, id) // staged by a review or the curator
			}
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var live []string
	for _, id := range ids {
		if _, err := r.d.Ref(proposalRefPrefix + id); err == nil {
			live = append(live, id) // not approved or rejected meanwhile
		}
	}
	if len(live) == 0 {
		return
	}
	summaryOf := func(id string) string {
		if id == res.Proposal {
			return fmt.Sprintf("This clone's work that %s's %s lacks (%s). Merging it brings it in; a conflict needs a person.", g.remote, r.lib.MainBranch(), res.Reason)
		}
		if slices.Contains(opts.Publish, id) {
			return opts.Summary
		}
		return ""
	}
	done, errs := r.publishLocked(ctx, g, live, PublishOptions{}, summaryOf)
	res.Published = append(res.Published, done...)
	for _, id := range live {
		if err := errs[id]; err != nil {
			res.notef("publish %s: %v", id, err)
		}
	}
}
