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

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/graph"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/merge"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
	"github.com/skillrepo/skillrepo/skillrepo/trailer"
)

// Where proposals live.
const (
	// ProposalBranchPrefix starts every proposal branch name.
	ProposalBranchPrefix = "proposals/"
	proposalRefPrefix    = "refs/heads/" + ProposalBranchPrefix
	// RejectedRefPrefix keeps the record of each rejected proposal.
	RejectedRefPrefix = "refs/skillrepo/rejected/"
	// TrailerProposalID names the proposal an approval or rejection is
	// about.
	TrailerProposalID = "Proposal-Id"
)

// ProposalBranch is the branch of proposal id ("proposals/<id>").
func ProposalBranch(id string) string { return ProposalBranchPrefix + id }

// ValidateProposalID checks that id makes a safe branch name component:
// 1 to 100 characters of [A-Za-z0-9._-], not starting with "." or "-",
// without "..", not ending in "." or ".lock".
func ValidateProposalID(id string) error {
	bad := func(why string) error {
		return fmt.Errorf("invalid proposal id %q: %s: %w", id, why, skill.ErrInvalid)
	}
	switch {
	case id == "":
		return bad("empty")
	case len(id) > 100:
		return bad("longer than 100 characters")
	case id[0] == '.' || id[0] == '-':
		return bad(`starts with "." or "-"`)
	case strings.Contains(id, ".."), strings.HasSuffix(id, "."), strings.HasSuffix(id, ".lock"):
		return bad(`contains ".." or ends in "." or ".lock"`)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return bad("only letters, digits, '.', '_' and '-' are allowed")
		}
	}
	return nil
}

// NewProposalID returns a fresh id such as "p-20261130-0a1b2c".
func NewProposalID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return "p-" + now.UTC().Format("20060102") + "-" + hex.EncodeToString(b[:])
}

// ProposalState is where a proposal stands.
type ProposalState string

// Proposal states.
const (
	// ProposalOpen waits for approval.
	ProposalOpen ProposalState = "open"
	// ProposalApproved is merged into main: its branch still exists but
	// its tip is reachable from main (merged by git merge or on GitHub).
	ProposalApproved ProposalState = "approved"
	// ProposalRejected was rejected; its tip is kept under
	// refs/skillrepo/rejected/<id>.
	ProposalRejected ProposalState = "rejected"
)

// Proposal describes one proposal.
type Proposal struct {
	ID    string
	State ProposalState
	// Ref is the branch ref, or the rejection record's ref.
	Ref string
	// Tip is the proposal's last commit; Base its merge base with main
	// (zero when they share no history).
	Tip, Base Hash
	// Commits are the proposal's own commits since it forked, newest first.
	Commits []ProposalCommit
	// Created and Updated are the author times of its oldest and newest
	// commit.
	Created, Updated time.Time
	// Origin and ReviewID come from the commits' trailers (origins that
	// differ are joined with ",").
	Origin, ReviewID string
	// Files are the changes against Base; Skills the skills they touch.
	Files          []FileStat
	Skills         []string
	Added, Deleted int
	// Checked is set when the merge into main was tried (open proposals
	// with [ProposalQuery].CheckMerge); Conflicts lists why it does not
	// merge (empty: it merges cleanly).
	Checked   bool
	Conflicts []merge.PathConflict
	// Applied is set for a checked proposal whose changes main already
	// has (a squash or rebase merge on GitHub, or the same edit made on
	// main): approving it records the approval and changes no file.
	Applied bool
	// Rejection is set for rejected proposals.
	Rejection *Rejection
}

// Mergeable reports a checked proposal that merges into main cleanly.
func (p *Proposal) Mergeable() bool { return p.Checked && len(p.Conflicts) == 0 }

// ProposalCommit is one commit of a proposal.
type ProposalCommit struct {
	Hash     Hash
	Subject  string
	Message  string
	Author   string // "Name <email>"
	When     time.Time
	Trailers []Trailer
}

// FileStat is one changed file of a proposal.
type FileStat struct {
	Path string
	// Status is "added", "modified" or "deleted".
	Status         string
	Added, Deleted int
	Binary         bool
}

// Rejection is the record of a rejected proposal.
type Rejection struct {
	Record       Hash // the record commit (its first parent is the tip)
	By, Reason   string
	When         time.Time
	PreviousTips []Hash // earlier rejections of the same id
}

// ProposalQuery chooses what [Proposals.List] returns.
type ProposalQuery struct {
	// Rejected lists rejected proposals instead of branches.
	Rejected bool
	// CheckMerge tries the merge of each open proposal into main (read
	// only) and fills Checked and Conflicts.
	CheckMerge bool
}

// List lists the proposal branches (open, and approved ones whose
// branch was merged by git and not deleted), or the rejected proposals,
// oldest first.
func (room Proposals) List(q ProposalQuery) ([]*Proposal, error) {
	l := room.l
	prefix := proposalRefPrefix
	if q.Rejected {
		prefix = RejectedRefPrefix
	}
	refs, err := l.repo.ListRefs(prefix)
	if err != nil {
		return nil, fmt.Errorf("list proposals: %w", err)
	}
	r, err := l.newProposalReader()
	if err != nil {
		return nil, err
	}
	out := []*Proposal{}
	for name, tip := range refs {
		id := strings.TrimPrefix(name, prefix)
		if ValidateProposalID(id) != nil {
			continue // not ours (e.g. proposals/x/y made by hand)
		}
		p, err := r.read(id, name, tip, q.CheckMerge)
		if err != nil {
			return nil, fmt.Errorf("proposal %s: %w", id, err)
		}
		if l.repo.Prefix != "" && r.elsewhere(p) {
			continue // another library's (or the project's) branch
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Get returns one proposal (an open or merged branch first, else a
// rejected one), with its merge into main checked. Error: ErrNotFound.
func (room Proposals) Get(id string) (*Proposal, error) {
	r, err := room.l.newProposalReader()
	if err != nil {
		return nil, err
	}
	return r.get(id)
}

// GetAll is [Proposals.Get] of each id with one reader, which shares the
// commits and trees it reads between them: the proposals found, in the
// order of ids, and the errors of the others (an id that names no
// proposal is skipped).
func (room Proposals) GetAll(ids []string) ([]*Proposal, error) {
	r, err := room.l.newProposalReader()
	if err != nil {
		return nil, err
	}
	var out []*Proposal
	var errs []error
	for _, id := range ids {
		p, err := r.get(id)
		switch {
		case err == nil:
			out = append(out, p)
		case !errors.Is(err, ErrNotFound):
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}

func (r *proposalReader) get(id string) (*Proposal, error) {
	if err := ValidateProposalID(id); err != nil {
		return nil, err
	}
	for _, prefix := range []string{proposalRefPrefix, RejectedRefPrefix} {
		tip, err := r.l.repo.ReadRef(prefix + id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return r.read(id, prefix+id, tip, true)
	}
	return nil, WithHint(fmt.Errorf("proposal %s: %w", id, ErrNotFound), "run 'skillrepo proposal list' to see the proposals")
}

// proposalReader shares commit and tree caches across the proposals of
// one listing.
type proposalReader struct {
	l        *Library
	store    *gitstore.Store
	hist     *graph.Graph
	main     Hash
	mainTree Hash
}

func (l *Library) newProposalReader() (*proposalReader, error) {
	store := l.repo.NewStore(true)
	r := &proposalReader{l: l, store: store, hist: graph.New(store)}
	main, err := l.repo.ResolveBranch(l.MainBranch())
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	r.main = main
	if !main.IsZero() {
		if r.mainTree, _, err = store.CommitInfo(main); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// read reads one proposal, or takes it from the library's memo: what it
// reads is a function of the ref's tip and main's (see [Memo]).
func (r *proposalReader) read(id, ref string, tip Hash, checkMerge bool) (*Proposal, error) {
	key := proposalKey{prefix: r.l.repo.Prefix, ref: ref, mainBranch: r.l.MainBranch(), tip: tip, main: r.main, checkMerge: checkMerge}
	if p, ok := r.l.opts.Memo.proposal(key); ok {
		return p, nil
	}
	p, err := r.readProposal(id, ref, tip, checkMerge)
	if err != nil {
		return nil, err
	}
	r.l.opts.Memo.keepProposal(key, p)
	return p, nil
}

func (r *proposalReader) readProposal(id, ref string, tip Hash, checkMerge bool) (*Proposal, error) {
	p := &Proposal{ID: id, Ref: ref, Tip: tip, State: ProposalOpen}
	if strings.HasPrefix(ref, RejectedRefPrefix) {
		rej, proposalTip, err := r.readRejection(tip)
		if err != nil {
			return nil, err
		}
		p.State, p.Rejection, p.Tip = ProposalRejected, rej, proposalTip
	}
	var own []Hash
	if !r.main.IsZero() {
		var err error
		if p.Base, own, err = r.hist.MergeBase(r.main, p.Tip); err != nil {
			return nil, err
		}
	} else {
		own = []Hash{p.Tip}
	}
	if p.Base == p.Tip && p.State == ProposalOpen {
		p.State = ProposalApproved
		own = []Hash{p.Tip}
	}
	if err := r.readCommits(p, own); err != nil {
		return nil, err
	}
	if p.State == ProposalApproved {
		return p, nil
	}
	baseTree, tipTree, err := r.commitTrees(p.Base, p.Tip)
	if err != nil {
		return nil, err
	}
	if err := r.readFiles(p, baseTree, tipTree); err != nil {
		return nil, err
	}
	if checkMerge && p.State == ProposalOpen && !r.main.IsZero() {
		res, err := graph.MergeTrees(r.store, baseTree, r.mainTree, tipTree, proposalLabels(r.l, id))
		if err != nil {
			return nil, err
		}
		p.Checked, p.Conflicts = true, res.Conflicts
		p.Applied = res.Clean() && len(res.Changes) == 0 && len(p.Files) > 0
	}
	return p, nil
}

// elsewhere reports whether a proposal of a prefix library changes files
// outside the library's folder only: a branch of another library of the
// same repository.
func (r *proposalReader) elsewhere(p *Proposal) bool {
	if p.State == ProposalApproved || len(p.Files) > 0 {
		return false
	}
	var base Hash
	if !p.Base.IsZero() {
		base, _, _ = r.store.RootCommitInfo(p.Base)
	}
	tip, _, err := r.store.RootCommitInfo(p.Tip)
	return err == nil && tip != base
}

// commitTrees returns the root trees of two commits (zero base: no tree).
func (r *proposalReader) commitTrees(base, tip Hash) (baseTree, tipTree Hash, err error) {
	if !base.IsZero() {
		if baseTree, _, err = r.store.CommitInfo(base); err != nil {
			return
		}
	}
	tipTree, _, err = r.store.CommitInfo(tip)
	return
}

// proposalLabels name the sides of a proposal merge in conflict reports.
func proposalLabels(l *Library, id string) merge.Labels {
	return merge.Labels{Ours: l.MainBranch(), Base: "merge base", Theirs: ProposalBranch(id)}
}

func (r *proposalReader) readCommits(p *Proposal, own []Hash) error {
	origins := []string{}
	for _, h := range own {
		c, err := r.l.repo.CommitObject(h)
		if err != nil {
			return fmt.Errorf("read commit %s: %w", h, err)
		}
		pc := ProposalCommit{
			Hash:     h,
			Subject:  strings.SplitN(c.Message, "\n", 2)[0],
			Message:  c.Message,
			Author:   c.Author.Name + " <" + c.Author.Email + ">",
			When:     c.Author.When,
			Trailers: trailer.Parse(c.Message),
		}
		p.Commits = append(p.Commits, pc)
		if o := trailer.Value(pc.Trailers, TrailerOrigin); o != "" && !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
		if v := trailer.Value(pc.Trailers, TrailerReviewID); v != "" {
			p.ReviewID = v // own is newest first: the oldest commit's id wins
		}
		if p.Updated.IsZero() || pc.When.After(p.Updated) {
			p.Updated = pc.When
		}
		if p.Created.IsZero() || pc.When.Before(p.Created) {
			p.Created = pc.When
		}
	}
	sort.Strings(origins)
	p.Origin = strings.Join(origins, ",")
	return nil
}

// readFiles fills the changed files, line counts and skills touched.
func (r *proposalReader) readFiles(p *Proposal, baseTree, tipTree Hash) error {
	diffs, err := r.fileDiffs(baseTree, tipTree, -1)
	if err != nil {
		return err
	}
	skills := map[string]bool{}
	for _, d := range diffs {
		p.Added += d.Added
		p.Deleted += d.Deleted
		p.Files = append(p.Files, d.FileStat)
		if name := r.skillOf(d.Path, baseTree, tipTree); name != "" {
			skills[name] = true
		}
	}
	p.Skills = slices.Sorted(maps.Keys(skills))
	return nil
}

// FileDiff is one changed file of a proposal with its unified diff.
type FileDiff struct {
	FileStat
	// OldID and NewID are the blob hashes (zero for an added or deleted
	// file); OldMode and NewMode the git modes (0 when absent).
	OldID, NewID     Hash
	OldMode, NewMode uint32
	// Hunks are the "@@" sections (nil for binary files).
	Hunks []byte
}

// fileDiffs compares two trees file by file, sorted by path; with
// context < 0 it counts lines without producing hunks.
func (r *proposalReader) fileDiffs(before, after Hash, context int) ([]FileDiff, error) {
	trees, err := graph.DifferingFiles(r.store, before, after)
	if err != nil {
		return nil, err
	}
	old, new := trees[0], trees[1]
	paths := make([]string, 0, len(old)+len(new))
	for q := range old {
		paths = append(paths, q)
	}
	for q := range new {
		if _, ok := old[q]; !ok {
			paths = append(paths, q)
		}
	}
	sort.Strings(paths)
	out := make([]FileDiff, 0, len(paths))
	for _, q := range paths {
		d := FileDiff{FileStat: FileStat{Path: q, Status: "modified"}}
		var a, b []byte
		if e, ok := old[q]; ok {
			d.OldID, d.OldMode = NewHash(e.ID), uint32(e.Mode)
			if a, err = r.store.Blob(d.OldID); err != nil {
				return nil, err
			}
		} else {
			d.Status = "added"
		}
		if e, ok := new[q]; ok {
			d.NewID, d.NewMode = NewHash(e.ID), uint32(e.Mode)
			if b, err = r.store.Blob(d.NewID); err != nil {
				return nil, err
			}
		} else {
			d.Status = "deleted"
		}
		switch {
		case merge.IsBinary(a) || merge.IsBinary(b):
			d.Binary = true
		case context < 0:
			if d.Added, d.Deleted, err = merge.DiffStat(a, b); err != nil {
				return nil, err
			}
		default:
			if d.Hunks, err = merge.Unified(a, b, context); err != nil {
				return nil, err
			}
			d.Added, d.Deleted = countDiffLines(d.Hunks)
		}
		out = append(out, d)
	}
	return out, nil
}

// countDiffLines counts the "+" and "-" lines of hunks.
func countDiffLines(hunks []byte) (added, deleted int) {
	for _, line := range strings.Split(string(hunks), "\n") {
		switch {
		case strings.HasPrefix(line, "+"):
			added++
		case strings.HasPrefix(line, "-"):
			deleted++
		}
	}
	return added, deleted
}

// Diff returns the proposal and its changes against the merge base
// with main, as unified diffs with context lines of context. Errors:
// ErrNotFound.
func (room Proposals) Diff(id string, context int) (*Proposal, []FileDiff, error) {
	l := room.l
	p, err := l.Proposals().Get(id)
	if err != nil {
		return nil, nil, err
	}
	r, err := l.newProposalReader()
	if err != nil {
		return nil, nil, err
	}
	before, after := p.Base, p.Tip
	if p.State == ProposalApproved && len(p.Commits) > 0 {
		// Merged by git: show what its tip commit changed.
		before = ZeroHash
		if c, err := l.repo.CommitObject(p.Tip); err == nil && len(c.ParentHashes) > 0 {
			before = c.ParentHashes[0]
		}
	}
	beforeTree, afterTree, err := r.commitTrees(before, after)
	if err != nil {
		return nil, nil, err
	}
	diffs, err := r.fileDiffs(beforeTree, afterTree, max(context, 0))
	if err != nil {
		return nil, nil, err
	}
	return p, diffs, nil
}

// skillOf names the skill a file belongs to: the nearest folder above it
// holding a SKILL.md, before or after the change.
func (r *proposalReader) skillOf(p string, trees ...Hash) string {
	if dir := skillDirOf(r.l, r.store, p, trees...); dir != "" {
		return path.Base(dir)
	}
	return ""
}

// skillDirOf is the skill folder a file belongs to: the nearest folder
// above it holding a SKILL.md in one of the trees ("" for none).
func skillDirOf(l *Library, store *gitstore.Store, p string, trees ...Hash) string {
	for dir := path.Dir(p); dir != "." && dir != "/"; dir = path.Dir(dir) {
		for _, t := range trees {
			if h, _ := store.LookupPath(t, dir+"/"+skill.FileName); !h.IsZero() {
				return dir
			}
		}
	}
	return ""
}

// readRejection reads a rejection record commit: its trailers and the
// proposal tip it keeps (first parent).
func (r *proposalReader) readRejection(record Hash) (*Rejection, Hash, error) {
	c, err := r.l.repo.CommitObject(record)
	if err != nil {
		return nil, ZeroHash, fmt.Errorf("read rejection record %s: %w", record, err)
	}
	if len(c.ParentHashes) == 0 {
		return nil, ZeroHash, fmt.Errorf("rejection record %s has no parent", record)
	}
	ts := trailer.Parse(c.Message)
	rej := &Rejection{
		Record:       record,
		By:           trailer.Value(ts, TrailerRejectedBy),
		Reason:       trailer.Value(ts, TrailerReason),
		When:         c.Committer.When,
		PreviousTips: c.ParentHashes[1:],
	}
	return rej, c.ParentHashes[0], nil
}
