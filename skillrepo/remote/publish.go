package remote

// Publishing a proposal (docs/remote.md §3): its branch proposals/<id>
// goes to the shared remote with a lease — the remote's branch must be
// where this clone last saw it (absent, for a first publication) — and is
// never forced: a branch someone else moved on the host is left alone and
// reported. When remote.pull_request names the host's program (gh, glab)
// and it is installed and logged in, a pull request is opened whose title
// and body come from the proposal.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// PublishOptions tune [Remote.Publish].
type PublishOptions struct {
	// Summary is what the proposal does in a sentence or two (a review's
	// summary); the pull request's title and first paragraph. Empty: the
	// proposal's commit subjects.
	Summary string
	// PullRequest overrides remote.pull_request ("": the config's).
	PullRequest config.RemotePullRequest
	// DryRun says what would be pushed and opened; nothing is.
	DryRun bool
}

// PublishResult says what a publication did.
type PublishResult struct {
	ID, Remote, Branch string
	Tip                skillrepo.Hash
	// Pushed: the remote's branch moved to Tip (false: it was there).
	Pushed bool
	// PullRequest is the pull request's URL, opened now or before.
	PullRequest string
	// PullRequestNote says why no pull request was opened (remote.pull_request
	// is off, gh is not installed or not logged in, it failed).
	PullRequestNote string
	DryRun          bool
}

// Publish pushes proposal id's branch to the shared remote
// (remote.name) with a lease and opens its pull request when
// remote.pull_request says so. Publishing again after new commits moves
// the remote branch forward (the pull request follows the branch).
//
// Errors: ErrNotFound; ErrRefused for a proposal of a project library
// that changes files outside the library's folder; *RejectedError
// (ErrConflict) when the remote's branch has commits this clone lacks;
// *Error (ErrRemote) when the remote cannot be reached or refuses
// (credentials, a protected branch).
func (r *Remote) Publish(ctx context.Context, id string, opts PublishOptions) (*PublishResult, error) {
	if err := skillrepo.ValidateProposalID(id); err != nil {
		return nil, err
	}
	if err := r.lib.ConfigProblem(); err != nil {
		return nil, err
	}
	ref := proposalRefPrefix + id
	tip, err := r.d.Ref(ref)
	if errors.Is(err, skillrepo.ErrNotFound) {
		return nil, skillrepo.WithHint(fmt.Errorf("proposal %s: %w", id, skillrepo.ErrNotFound), "run 'skillrepo proposal list' to see the open proposals")
	}
	if err != nil {
		return nil, err
	}
	if err := r.onlyLibraryFolder(id, tip); err != nil {
		return nil, err
	}
	g, err := r.remoteGit(r.lib.Config.Remote.Name)
	if err != nil {
		return nil, err
	}
	if !opts.DryRun {
		lockCtx, cancel := context.WithTimeout(ctx, publishLockWait)
		defer cancel()
		unlock, err := r.remoteStore().runLock(lockCtx)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	done, errs := r.publishLocked(ctx, g, []string{id}, opts, nil)
	if err := errs[id]; err != nil {
		return nil, err
	}
	return done[0], nil
}

// publishLockWait bounds how long a publication waits for another remote
// operation of this clone (a background sync) to finish.
const publishLockWait = 2 * time.Minute

// publishLocked publishes ids under the clone's remote lock: their
// branches go to the remote in one git push (each with its lease), then
// each one's pull request is opened. summaryOf, when set, gives each
// one's summary (else opts.Summary). It returns the publications made
// and the error of each id that was not published; a failed one is kept
// as pending for the next sync.
func (r *Remote) publishLocked(ctx context.Context, g *remoteGit, ids []string, opts PublishOptions, summaryOf func(id string) string) ([]*PublishResult, map[string]error) {
	errs := map[string]error{}
	var results []*PublishResult
	for _, id := range ids {
		tip, err := r.d.Ref(proposalRefPrefix + id)
		if err == nil {
			err = r.onlyLibraryFolder(id, tip)
		}
		if err != nil {
			errs[id] = err
			continue
		}
		results = append(results, &PublishResult{ID: id, Remote: g.remote, Branch: skillrepo.ProposalBranch(id), Tip: tip, DryRun: opts.DryRun})
	}
	if err := r.pushProposals(ctx, g, results, errs); err != nil {
		for _, r := range results {
			errs[r.ID] = err
		}
	}
	var done []*PublishResult
	failed := 0
	for _, r := range results {
		if errs[r.ID] == nil {
			done = append(done, r)
		}
	}
	if opts.DryRun {
		return done, errs
	}
	for id, err := range errs {
		var re *Error
		var rr *RejectedError
		if errors.As(err, &re) || errors.As(err, &rr) {
			failed++
			r.noteRemote("publish", err)
			// Kept as waiting: the next sync publishes it.
			_ = r.remoteStore().updatePublished(func(m map[string]publication) {
				p := m[id]
				p.Pending, p.Branch = true, skillrepo.ProposalBranch(id)
				if p.At.IsZero() {
					p.At = r.d.Now().UTC()
				}
				m[id] = p
			})
		}
	}
	if len(done) > 0 && failed == 0 {
		r.noteRemote("publish", nil)
	}
	host := opts.PullRequest
	if host == "" {
		host = r.lib.Config.Remote.PullRequest
	}
	pubs, _ := r.remoteStore().published()
	for _, res := range done {
		prev := pubs[res.ID]
		res.PullRequest = prev.PullRequest
		switch {
		case res.PullRequest != "":
			// Opened before: it follows the branch.
		case host == config.PullRequestOff:
			res.PullRequestNote = "remote.pull_request is off"
		default:
			popts := opts
			if summaryOf != nil {
				popts.Summary = summaryOf(res.ID)
			}
			url, note, err := r.openPullRequest(ctx, g, res.ID, host, popts)
			res.PullRequest, res.PullRequestNote = url, note
			r.noteRemote("pull request", err)
			if err != nil {
				res.PullRequestNote = err.Error()
			}
		}
		pubs[res.ID] = publication{Tip: res.Tip.String(), At: r.d.Now().UTC(), Branch: res.Branch, PullRequest: res.PullRequest,
			Host: cmp.Or(prev.Host, hostIf(res.PullRequest, host))}
	}
	if len(done) > 0 {
		if err := r.remoteStore().updatePublished(func(m map[string]publication) {
			for _, res := range done {
				m[res.ID] = pubs[res.ID]
			}
		}); err != nil {
			for _, res := range done {
				errs[res.ID] = err
			}
			return nil, errs
		}
	}
	return done, errs
}

func hostIf(url string, host config.RemotePullRequest) string {
	if url == "" {
		return ""
	}
	return string(host)
}

// pushProposals pushes each proposal's tip to the remote's
// proposals/<id> when the remote's branch is absent or contained in the
// tip, in one push; a lease that turns out stale (someone pushed since
// this clone fetched) fetches once and tries those again. A proposal
// that cannot be pushed gets its error in errs; the error returned is a
// failure to reach the remote at all.
func (r *Remote) pushProposals(ctx context.Context, g *remoteGit, results []*PublishResult, errs map[string]error) error {
	hist := r.d.Graph()
	todo := results
	for attempt := 0; len(todo) > 0; attempt++ {
		var batch []branchPush
		byRef := map[string]*PublishResult{}
		for _, res := range todo {
			ref := proposalRefPrefix + res.ID
			expect, err := r.d.Ref(g.trackingRef(res.Branch))
			if err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
				return err
			}
			if expect == res.Tip {
				continue // the remote has it
			}
			if !expect.IsZero() {
				base, _, err := hist.MergeBase(res.Tip, expect)
				if err != nil {
					return err
				}
				if base != expect {
					what := "commits this clone does not have"
					if base == res.Tip {
						what = "newer commits (pushed from elsewhere)"
					}
					errs[res.ID] = &RejectedError{Refs: []string{ref},
						Msg:  fmt.Sprintf("%s's %s has %s; it was not overwritten", g.remote, res.Branch, what),
						hint: fmt.Sprintf("bring them in with 'git merge %s/%s' on the proposal branch (in a separate work tree), then publish again", g.remote, res.Branch)}
					continue
				}
			}
			if res.DryRun {
				res.Pushed = true
				continue
			}
			batch = append(batch, branchPush{Ref: ref, Commit: res.Tip, Expect: expect})
			byRef[ref] = res
		}
		if len(batch) == 0 {
			return nil
		}
		outs, err := g.pushMany(ctx, batch)
		if err != nil {
			return err
		}
		todo = nil
		for _, b := range batch {
			res, out := byRef[b.Ref], outs[b.Ref]
			switch {
			case out.OK:
				res.Pushed = true
				if err := r.setTracking(g.trackingRef(res.Branch), res.Tip); err != nil {
					return err
				}
			case out.Err != nil:
				errs[res.ID] = out.Err
			case attempt == 0:
				todo = append(todo, res)
			default:
				errs[res.ID] = &RejectedError{Refs: []string{b.Ref}, Msg: fmt.Sprintf("%s refused %s: %s", g.remote, res.Branch, out.Reason),
					hint: "someone else is pushing to this proposal's branch; run 'skillrepo remote sync' and publish again"}
			}
		}
		if len(todo) > 0 {
			if err := g.fetch(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// setTracking records that the remote's branch is at h (git push does
// when the remote's fetch refspec covers the branch; a clone set up
// otherwise still knows what it pushed).
func (r *Remote) setTracking(ref string, h skillrepo.Hash) error {
	old, err := r.d.Ref(ref)
	if err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
		return err
	}
	if old == h {
		return nil
	}
	if err := r.d.MoveRef(ref, h, old, "skillrepo: remote: pushed"); err != nil && !errors.Is(err, skillrepo.ErrConflict) {
		return err
	}
	return nil
}

// onlyLibraryFolder refuses to publish a proposal of a project library
// that changes files outside the library's folder: its pull request
// would carry the project's other changes under the library's name.
func (r *Remote) onlyLibraryFolder(id string, tip skillrepo.Hash) error {
	if r.d.Folder() == "" {
		return nil
	}
	main, err := r.lib.MainTip()
	if err != nil && !errors.Is(err, skillrepo.ErrNotFound) {
		return err
	}
	var base skillrepo.Hash
	if !main.IsZero() {
		if base, _, err = r.d.Graph().MergeBase(main, tip); err != nil {
			return err
		}
	}
	same, err := r.d.SameOutsideFolder(base, tip)
	if err != nil {
		return err
	}
	if !same {
		return skillrepo.WithHint(fmt.Errorf("proposal %s changes files outside the library folder %s: %w", id, r.d.Folder(), skillrepo.ErrRefused),
			"a library's proposal touches its folder only; push the branch with git if the project's other changes belong in it")
	}
	return nil
}

// noteRemote records the outcome of a remote operation of class op in
// the clone's remote state: a *Error is kept (with its fix) until
// the same operation next succeeds.
func (r *Remote) noteRemote(op string, err error) {
	var re *Error
	var rr *RejectedError
	var dirty *skillrepo.DirtyError
	switch {
	case err == nil, errors.As(err, &re):
	case errors.As(err, &rr):
		re = &Error{Op: op, Kind: "rejected", Msg: rr.Msg, Fix: rr.hint}
	case errors.As(err, &dirty):
		re = &Error{Op: op, Kind: "dirty", Msg: err.Error(), Fix: "record the edit with 'skillrepo sync' (or undo it); the next sync brings the remote's main in"}
	case op == "main":
		// Whatever keeps the remote's main out keeps it out of every
		// later sync too: status must say so (issue 40 item 9).
		re = &Error{Op: op, Kind: "refused", Msg: err.Error(), Fix: errorHint(err, "bring the remote's main in by hand (git pull) once what the message names is fixed")}
	default:
		return // not the remote's doing (a local refusal)
	}
	now := r.d.Now().UTC()
	_ = r.remoteStore().record(func(rec *remoteRecord) {
		rec.Remote = r.lib.Config.Remote.Name
		if rec.Failures == nil {
			rec.Failures = map[string]*Failure{}
		}
		if re == nil {
			delete(rec.Failures, op)
			return
		}
		f := re.failure()
		f.At = now
		rec.Failures[op] = f
	})
}

// ProposalState is where a proposal stands on the shared remote, as
// this clone last saw it (no network).
type ProposalState struct {
	// State is "" (not published), "pending" (publishing failed; the next
	// sync tries again), "published", "unpushed" (commits here
	// the remote's branch lacks: publish again), "ahead" (the remote's
	// branch has commits this clone lacks), "diverged", "merged" (on the
	// host: its branch is gone and its commits or changes are in main),
	// or "closed" (its branch is gone on the host, not merged).
	State string
	// PullRequest is the URL of its pull request ("" for none).
	PullRequest string
	// At is when this clone published it last (zero: it did not).
	At time.Time
}

// Proposals returns the remote state of each of props (keyed by
// id) from the remote-tracking refs and the clone's publications. A
// library without a shared remote gets an empty map.
func (r *Remote) Proposals(props []*skillrepo.Proposal) (map[string]ProposalState, error) {
	out := map[string]ProposalState{}
	cfg := r.lib.Config.Remote
	pubs, err := r.remoteStore().published()
	if err != nil {
		return nil, err
	}
	prefix := "refs/remotes/" + cfg.Name + "/" + skillrepo.ProposalBranchPrefix
	tracking, err := r.d.Refs(prefix)
	if err != nil {
		return nil, err
	}
	if len(pubs) == 0 && len(tracking) == 0 {
		return out, nil
	}
	remoteMain, _ := r.d.Ref("refs/remotes/" + cfg.Name + "/" + r.lib.MainBranch())
	hist := r.d.Graph()
	for _, p := range props {
		if p.State == skillrepo.ProposalRejected {
			continue
		}
		pub, published := pubs[p.ID]
		tr, onRemote := tracking[prefix+p.ID]
		if !published && !onRemote {
			continue
		}
		st := ProposalState{PullRequest: pub.PullRequest, At: pub.At}
		switch {
		case pub.Pending && !onRemote:
			st.State = "pending"
		case onRemote && tr == p.Tip:
			st.State = "published"
		case onRemote:
			base, _, err := hist.MergeBase(p.Tip, tr)
			if err != nil {
				return nil, err
			}
			switch base {
			case tr:
				st.State = "unpushed"
			case p.Tip:
				st.State = "ahead"
			default:
				st.State = "diverged"
			}
		case p.State == skillrepo.ProposalApproved || p.Applied:
			st.State = "merged"
		default:
			st.State = "closed"
			if !remoteMain.IsZero() {
				if base, _, err := hist.MergeBase(remoteMain, p.Tip); err == nil && base == p.Tip {
					st.State = "merged"
				}
			}
		}
		out[p.ID] = st
	}
	return out, nil
}

// errorHint is err's hint, or def when it has none.
func errorHint(err error, def string) string {
	var h interface{ Hint() string }
	if errors.As(err, &h) && h.Hint() != "" {
		return h.Hint()
	}
	return def
}
