package skillrepo

// The write policy is the one place the rules of a skill write live
// (docs/architecture.md §2.1). Every door — the CLI, the MCP server, the
// background review's tools, the curator's tools, and the approvals that
// land their proposals — builds a [Policy] from the library and the
// write's provenance ([Writer]) and writes through it, so the same write
// gets the same verdict whichever way it came. A policy
//
//   - routes: the branch the write lands on (main, or a proposal when the
//     writer asks for one or review.write_approval holds a non-user
//     origin's writes; a background review's batch that changes a skill
//     the person owns goes to its Stage proposal) and the revision it
//     starts from;
//   - checks: an agent never writes a likely secret nor creates a
//     reworded copy of an existing skill (a person is warned); an
//     autonomous writer (a background review, the curator) writes only
//     curator-managed skills that are not pinned or protected (a
//     review's write to the person's skill is staged, not refused), reads a
//     file before changing it when it has a session, and deletes only
//     what it absorbed into another skill (the engine archives it);
//   - verifies: the tree the write produces must not add lint errors to
//     the skills it touches, under the library's profile; errors a skill
//     already had do not block an unrelated write, and only a person may
//     write anyway (Force).

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// Writer is who writes and how: the provenance every commit carries, and
// what its door adds to the rules.
type Writer struct {
	Provenance Provenance
	// Read reports whether the writer's session has read a library path
	// in full (skill_view, a whole read_file) or written it; an
	// autonomous writer must have read an existing file before it changes
	// it. Nil: the writer has no session (a command a person or a script
	// runs with the file in front of it), and the rule does not apply.
	Read func(path string) bool
	// Owners, when set, is who owns a skill as the writer's run decided it
	// (the curator settles its candidates up front); ok false reads the
	// ownership from history, as for every other writer.
	Owners func(name string) (own ReviewOwner, ok bool)
	// Force: a person writes even when the result has lint errors or a
	// likely secret (origin user only).
	Force bool
	// AllowOverlap: a create may overlap existing skills (the curator's
	// umbrellas overlap the siblings they absorb, by design).
	AllowOverlap bool
	// Duplicates is the duplicate-check index a session keeps across its
	// writes; nil gives the policy its own.
	Duplicates *DuplicateIndex
	// Branch and From: the writer's own branch, made from From when it is
	// missing (a review's proposal, a curator run's branch). Proposal (an
	// id) or Propose (a new id) ask for a proposal instead. All empty: the
	// policy routes (main, or a proposal under review.write_approval).
	Branch, From string
	Proposal     string
	Propose      bool
	// Stage, for a background review, is the proposal branch where a
	// batch that changes a skill the person owns (user-owned, or pinned)
	// waits for their approval instead of being refused; it is made from
	// From. A skill in the config's protected list is refused still, and
	// the curator, which has no Stage, is refused as before.
	Stage string
	// Integrity, when set, runs after the policy's verification on the
	// same tree: the curator's check that folding skills together leaves
	// no link into an archived folder.
	Integrity func(fsys fs.FS, dirs []string) error
	// Session is the writer's session (an agent session, a review), under
	// which a create that fails the lint gate only for links to files of
	// its skill not written yet is held until the session's write that
	// brings them (policy_held.go); "" is the provenance's review id, else
	// its session id; none holds nothing (the create is refused, with the
	// hint to send the files in the same batch).
	Session string
}

// Route is where a write lands.
type Route struct {
	// Branch is the branch the write commits to.
	Branch string
	// From makes Branch when it does not exist yet ("" = it must exist,
	// or it is the main branch).
	From string
	// Proposal is the proposal id when Branch is a proposal ("" otherwise).
	Proposal string
}

// Policy is the rules of one writer's writes to a library. It is not safe
// for concurrent use.
type Policy struct {
	l     *Library
	w     Writer
	route Route
	dups  *DuplicateIndex
}

// Policy builds the write policy of w on the library. Errors wrap
// skill.ErrInvalid for a writer that asks for something contradictory
// (Force from an agent, two proposals, a branch and a proposal).
func (l *Library) Policy(w Writer) (*Policy, error) {
	if w.Provenance.Origin == "" {
		w.Provenance.Origin = OriginUser
	}
	if !ValidOrigin(w.Provenance.Origin) {
		return nil, fmt.Errorf("unknown origin %q: use user, foreground, background-review, curator or import: %w", w.Provenance.Origin, skill.ErrInvalid)
	}
	w.Session = cmp.Or(w.Session, w.Provenance.ReviewID, w.Provenance.SessionID)
	if w.Force && w.Provenance.Origin != OriginUser {
		return nil, fmt.Errorf("force is for a person's writes (origin user), not origin %s: %w", w.Provenance.Origin, skill.ErrInvalid)
	}
	route, err := l.route(w)
	if err != nil {
		return nil, err
	}
	p := &Policy{l: l, w: w, route: route, dups: w.Duplicates}
	if p.dups == nil {
		p.dups = &DuplicateIndex{}
	}
	return p, nil
}

// route decides where w's writes land (docs/architecture.md §3): the
// writer's own branch; a proposal it asked for; a proposal for every
// non-user origin under review.write_approval, named by the review id
// when there is one, so a review's writes gather on one proposal; else
// the main branch.
func (l *Library) route(w Writer) (Route, error) {
	if w.Proposal != "" && w.Propose {
		return Route{}, fmt.Errorf("propose and a proposal id are exclusive: a proposal id already proposes: %w", skill.ErrInvalid)
	}
	if w.Branch == l.MainBranch() {
		w.Branch, w.From = "", "" // main is where the policy routes by default
	}
	propose := w.Propose || w.Proposal != "" || (l.Config.Review.WriteApproval && w.Provenance.Origin != OriginUser)
	if w.Branch != "" {
		id, isProposal := proposalOf(w.Branch)
		if !isProposal && (w.Proposal != "" || w.Propose) {
			return Route{}, fmt.Errorf("a branch cannot be combined with a proposal: %w", skill.ErrInvalid)
		}
		// The writer's own branch: a review's proposal, or a curator run's
		// branch, which lands by the run's own rules.
		return Route{Branch: w.Branch, From: w.From, Proposal: id}, nil
	}
	if !propose {
		return Route{}, nil
	}
	id := w.Proposal
	if id == "" {
		id = NewProposalID(l.now())
		if r := w.Provenance.ReviewID; r != "" && ValidateProposalID(r) == nil {
			id = r
		}
	}
	if err := ValidateProposalID(id); err != nil {
		return Route{}, err
	}
	return Route{Branch: ProposalBranch(id), From: l.MainBranch(), Proposal: id}, nil
}

// proposalOf is the proposal id of a proposal branch name.
func proposalOf(branch string) (string, bool) {
	id, ok := strings.CutPrefix(branch, ProposalBranchPrefix)
	if !ok || id == "" {
		return "", false
	}
	return id, true
}

// Route is where the policy's writes land.
func (p *Policy) Route() Route { return p.route }

// Base is the revision a write starts from: the route's branch when it
// exists, else what it is made from (a proposal this write makes), else
// the main branch. Guards read it; the lint gate compares with it.
func (p *Policy) Base() string { return p.baseOf(p.route) }

func (p *Policy) baseOf(r Route) string {
	branch := cmp.Or(r.Branch, p.l.MainBranch())
	if _, err := p.l.BranchTip(branch); err != nil && r.From != "" {
		return r.From
	}
	return branch
}

// PolicyResult is a write's outcome: the batch's, and what a person was
// warned of.
type PolicyResult struct {
	*ApplyResult
	// Route is where the write landed: the policy's route, or the
	// writer's Stage proposal when the batch changes a skill the person
	// owns (Staged).
	Route  Route
	Staged bool
	// Warnings are what the checks let through for a person to decide (a
	// create that overlaps an existing skill, a likely secret).
	Warnings []string
	// Held is the create this write held for the files it links: nothing
	// was written (the ApplyResult is empty), and the session's write
	// that brings them lands it (policy_held.go).
	Held *HeldCreate
	// Joined are the held creates that landed with this write; Expired
	// those of the session that waited past HeldTTL and were dropped,
	// unwritten, for the door to report.
	Joined, Expired []HeldCreate
}

// Apply writes a batch of skill operations by the policy: routed, checked
// before and during the write, verified on the tree it produces, one
// commit or nothing. Errors are Library.apply's; a guard's refusal is
// a *RefusedError (ErrRefused) inside its *OpError, a lint refusal a
// *GateError.
func (p *Policy) Apply(ctx context.Context, ops []Op, dryRun bool) (*PolicyResult, error) {
	held, err := p.heldAll()
	if err != nil {
		return nil, err
	}
	ops, joined, expired := joinHeld(held, ops, p.l.now())
	res, err := p.apply(ctx, ops, dryRun)
	if h := holdable(err, ops); h != nil && p.w.Session != "" {
		h.Since = p.l.now()
		empty := &ApplyResult{Update: &UpdateResult{Branch: cmp.Or(p.route.Branch, p.l.MainBranch()), DryRun: dryRun}}
		res, err = &PolicyResult{ApplyResult: empty, Route: p.route, Held: h}, nil
	}
	if err != nil {
		return nil, err
	}
	res.Joined, res.Expired = joined, expired
	if dryRun || (len(joined) == 0 && len(expired) == 0 && res.Held == nil) {
		return res, nil
	}
	// The session's file: the joined and expired creates leave it, the
	// one held now joins it (in place of an earlier one of its name).
	drop := map[string]bool{}
	for _, h := range append(append([]HeldCreate{}, joined...), expired...) {
		drop[h.Name] = true
	}
	if res.Held != nil {
		drop[res.Held.Name] = true
	}
	err = p.updateHeld(func(f *heldFile) {
		kept := f.Creates[:0]
		for _, h := range f.Creates {
			if !drop[h.Name] {
				kept = append(kept, h)
			}
		}
		f.Creates = kept
		if res.Held != nil {
			f.Creates = append(f.Creates, *res.Held)
		}
	})
	switch {
	case err != nil && res.Held != nil:
		return nil, err
	case err != nil:
		res.Warnings = append(res.Warnings, "the write landed, but its held creates were not cleared: "+err.Error())
	}
	return res, nil
}

// apply is Apply's batch as it is given (with the held creates it
// completes joined).
func (p *Policy) apply(ctx context.Context, ops []Op, dryRun bool) (*PolicyResult, error) {
	route, staged, err := p.routeBatch(ops)
	if err != nil {
		return nil, err
	}
	// The base is read only when a rule needs it: a create's duplicate
	// check, or a gate that found errors to tell old from new.
	base := sync.OnceValue(func() string { return p.baseOf(route) })
	warnings, err := p.precheck(ops, base)
	if err != nil {
		return nil, err
	}
	verify := p.verifier(base)
	var batchWarnings []string
	res, err := p.l.apply(ctx, applyOptions{
		Branch: route.Branch, From: route.From, Ops: ops, Provenance: p.w.Provenance, DryRun: dryRun,
		check: p.checker(staged), verify: verify, scan: p.secretScan(warnings, &batchWarnings),
	})
	if err != nil {
		return nil, err
	}
	warnings = append(warnings, batchWarnings...)
	return &PolicyResult{ApplyResult: res, Route: route, Staged: staged, Warnings: warnings}, nil
}

// routeBatch is where a batch lands: the policy's route, or — for a
// background review with a Stage — the Stage proposal when the batch
// changes an existing skill the person owns (user-owned, or pinned but
// not protected), so the person's skills improve through proposals they
// approve rather than refusals (docs/architecture.md §2.1). A skill whose
// ownership cannot be read, or that is protected, leaves the batch where
// it was: the ownership guard refuses it there.
func (p *Policy) routeBatch(ops []Op) (Route, bool, error) {
	if p.w.Stage == "" || p.w.Provenance.Origin != OriginBackgroundReview {
		return p.route, false, nil
	}
	stage := Route{Branch: p.w.Stage, From: cmp.Or(p.w.From, p.l.MainBranch())}
	id, ok := proposalOf(stage.Branch)
	if !ok {
		return Route{}, false, fmt.Errorf("stage %q is not a proposal branch: %w", p.w.Stage, skill.ErrInvalid)
	}
	stage.Proposal = id
	snap, err := p.l.Snapshot(p.Base())
	if err != nil {
		return p.route, false, nil // nothing to change yet: every op creates
	}
	created := map[string]bool{}
	for _, op := range ops {
		if op.Action == ActionCreate {
			created[op.Name] = true
			continue
		}
		if created[op.Name] {
			continue
		}
		si, err := snap.FindSkill(op.Name)
		if err != nil {
			continue // not found: the operation says so in its own words
		}
		own, ok := ReviewOwner{}, false
		if p.w.Owners != nil {
			own, ok = p.w.Owners(si.Name)
		}
		if !ok {
			if own, err = p.l.Owners().ForReview(snap.Commit().String(), si.Name); err != nil {
				continue
			}
		}
		if !own.Protected && (!own.Managed || own.Pinned) {
			return stage, true, nil
		}
	}
	return p.route, false, nil
}

// batchError is a refusal of operation i of a batch of n, numbered as
// Apply numbers its failures.
func batchError(ops []Op, i int, err error) error {
	return &OpError{Index: i, Op: ops[i], Err: err, Of: len(ops)}
}
