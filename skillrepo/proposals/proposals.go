// Package proposals reads a library's proposal branches,
// refs/heads/proposals/<id> (docs/architecture.md §3): their commits, the
// files they change against their merge base with main, whether they
// still merge into main, the record a rejection keeps under
// refs/skillrepo/rejected/<id>, and their diffs. It is a room below the
// domain, as skillrepo/history and skillrepo/graph are: it reads the
// repository through the engine and never writes it; the domain opens it
// with what only it knows (the main branch, the trailer keys, its memo)
// and keeps the writes — approving and rejecting are its write policy's.
package proposals

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

// Hash is a git object id.
type Hash = gitstore.Hash

// Where proposals live.
const (
	// BranchPrefix starts every proposal branch name.
	BranchPrefix = "proposals/"
	// RefPrefix starts every proposal branch's ref.
	RefPrefix = "refs/heads/" + BranchPrefix
	// RejectedRefPrefix keeps the record of each rejected proposal.
	RejectedRefPrefix = "refs/skillrepo/rejected/"
)

// Branch is the branch of proposal id ("proposals/<id>").
func Branch(id string) string { return BranchPrefix + id }

// ValidateID checks that id makes a safe branch name component:
// 1 to 100 characters of [A-Za-z0-9._-], not starting with "." or "-",
// without "..", not ending in "." or ".lock".
func ValidateID(id string) error {
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

// NewID returns a fresh id such as "p-20261130-0a1b2c".
func NewID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return "p-" + now.UTC().Format("20060102") + "-" + hex.EncodeToString(b[:])
}

// State is where a proposal stands.
type State string

// Proposal states.
const (
	// Open waits for approval.
	Open State = "open"
	// Approved is merged into main: its branch still exists but
	// its tip is reachable from main (merged by git merge or on GitHub).
	Approved State = "approved"
	// Rejected was rejected; its tip is kept under
	// refs/skillrepo/rejected/<id>.
	Rejected State = "rejected"
)

// Proposal describes one proposal.
type Proposal struct {
	ID    string
	State State
	// Ref is the branch ref, or the rejection record's ref.
	Ref string
	// Tip is the proposal's last commit; Base its merge base with main
	// (zero when they share no history).
	Tip, Base Hash
	// Commits are the proposal's own commits since it forked, newest first.
	Commits []Commit
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
	// with [Query].CheckMerge); Conflicts lists why it does not
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

// Commit is one commit of a proposal.
type Commit struct {
	Hash     Hash
	Subject  string
	Message  string
	Author   string // "Name <email>"
	When     time.Time
	Trailers []trailer.Trailer
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

// Query chooses what [Reader.List] returns.
type Query struct {
	// Rejected lists rejected proposals instead of branches.
	Rejected bool
	// CheckMerge tries the merge of each open proposal into main (read
	// only) and fills Checked and Conflicts.
	CheckMerge bool
}

// Keys are the trailer keys the reader reads: the domain's vocabulary
// (skillrepo/message.go).
type Keys struct{ Origin, ReviewID, RejectedBy, Reason string }

// Key is what a proposal's summary is a function of: the library's folder,
// its ref and the commit the ref names, the main branch (its name labels
// conflicts) and tip, whether the merge was tried.
type Key struct {
	Prefix, Ref, MainBranch string
	Tip, Main               Hash
	CheckMerge              bool
}

// Cache keeps summaries across readers (the domain's Memo): Proposal returns a
// copy the caller may change, KeepProposal keeps one.
type Cache interface {
	Proposal(Key) (*Proposal, bool)
	KeepProposal(Key, *Proposal)
}

// Reader reads proposals, sharing commit and tree caches across the
// proposals of one listing.
type Reader struct {
	repo       *gitstore.Repo
	mainBranch string
	keys       Keys
	cache      Cache
	store      *gitstore.Store
	hist       *graph.Graph
	main       Hash
	mainTree   Hash
}

// NewReader reads the proposals of repo against its branch mainBranch;
// cache may be nil.
func NewReader(repo *gitstore.Repo, mainBranch string, keys Keys, cache Cache) (*Reader, error) {
	store := repo.NewStore(true)
	r := &Reader{repo: repo, mainBranch: mainBranch, keys: keys, cache: cache, store: store, hist: graph.New(store)}
	main, err := repo.ResolveBranch(mainBranch)
	if err != nil && !errors.Is(err, gitstore.ErrNotFound) {
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

// List lists the proposal branches (open, and approved ones whose
// branch was merged by git and not deleted), or the rejected proposals,
// oldest first. A library in a folder of a project skips the branches
// that change only files outside it (another library's).
func (r *Reader) List(q Query) ([]*Proposal, error) {
	prefix := RefPrefix
	if q.Rejected {
		prefix = RejectedRefPrefix
	}
	refs, err := r.repo.ListRefs(prefix)
	if err != nil {
		return nil, fmt.Errorf("list proposals: %w", err)
	}
	out := []*Proposal{}
	for name, tip := range refs {
		id := strings.TrimPrefix(name, prefix)
		if ValidateID(id) != nil {
			continue // not ours (e.g. proposals/x/y made by hand)
		}
		p, err := r.Read(id, name, tip, q.CheckMerge)
		if err != nil {
			return nil, fmt.Errorf("proposal %s: %w", id, err)
		}
		if r.repo.Prefix != "" && r.elsewhere(p) {
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

// Diff is proposal p's changes as unified diffs with context lines of
// context: against its merge base with main, or, merged by git, what its
// tip commit changed.
func (r *Reader) Diff(p *Proposal, context int) ([]FileDiff, error) {
	before, after := p.Base, p.Tip
	if p.State == Approved && len(p.Commits) > 0 {
		before = gitstore.ZeroHash
		if c, err := r.repo.CommitObject(p.Tip); err == nil && len(c.ParentHashes) > 0 {
			before = c.ParentHashes[0]
		}
	}
	beforeTree, afterTree, err := r.commitTrees(before, after)
	if err != nil {
		return nil, err
	}
	return r.fileDiffs(beforeTree, afterTree, max(context, 0))
}

// Read reads proposal id from its ref (a branch, or a rejection record)
// whose commit is tip, or takes it from the cache: what it reads is a
// function of the ref's tip and main's ([Key]).
func (r *Reader) Read(id, ref string, tip Hash, checkMerge bool) (*Proposal, error) {
	key := Key{Prefix: r.repo.Prefix, Ref: ref, MainBranch: r.mainBranch, Tip: tip, Main: r.main, CheckMerge: checkMerge}
	if r.cache != nil {
		if p, ok := r.cache.Proposal(key); ok {
			return p, nil
		}
	}
	p, err := r.readProposal(id, ref, tip, checkMerge)
	if err != nil {
		return nil, err
	}
	if r.cache != nil {
		r.cache.KeepProposal(key, p)
	}
	return p, nil
}

func (r *Reader) readProposal(id, ref string, tip Hash, checkMerge bool) (*Proposal, error) {
	p := &Proposal{ID: id, Ref: ref, Tip: tip, State: Open}
	if strings.HasPrefix(ref, RejectedRefPrefix) {
		rej, proposalTip, err := r.readRejection(tip)
		if err != nil {
			return nil, err
		}
		p.State, p.Rejection, p.Tip = Rejected, rej, proposalTip
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
	if p.Base == p.Tip && p.State == Open {
		p.State = Approved
		own = []Hash{p.Tip}
	}
	if err := r.readCommits(p, own); err != nil {
		return nil, err
	}
	if p.State == Approved {
		return p, nil
	}
	baseTree, tipTree, err := r.commitTrees(p.Base, p.Tip)
	if err != nil {
		return nil, err
	}
	if err := r.readFiles(p, baseTree, tipTree); err != nil {
		return nil, err
	}
	if checkMerge && p.State == Open && !r.main.IsZero() {
		res, err := graph.MergeTrees(r.store, baseTree, r.mainTree, tipTree, Labels(r.mainBranch, id))
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
func (r *Reader) elsewhere(p *Proposal) bool {
	if p.State == Approved || len(p.Files) > 0 {
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
func (r *Reader) commitTrees(base, tip Hash) (baseTree, tipTree Hash, err error) {
	if !base.IsZero() {
		if baseTree, _, err = r.store.CommitInfo(base); err != nil {
			return
		}
	}
	tipTree, _, err = r.store.CommitInfo(tip)
	return
}

// Labels name the sides of a proposal merge into the branch main in
// conflict reports.
func Labels(main, id string) merge.Labels {
	return merge.Labels{Ours: main, Base: "merge base", Theirs: Branch(id)}
}

func (r *Reader) readCommits(p *Proposal, own []Hash) error {
	origins := []string{}
	for _, h := range own {
		c, err := r.repo.CommitObject(h)
		if err != nil {
			return fmt.Errorf("read commit %s: %w", h, err)
		}
		pc := Commit{
			Hash:     h,
			Subject:  strings.SplitN(c.Message, "\n", 2)[0],
			Message:  c.Message,
			Author:   c.Author.Name + " <" + c.Author.Email + ">",
			When:     c.Author.When,
			Trailers: trailer.Parse(c.Message),
		}
		p.Commits = append(p.Commits, pc)
		if o := trailer.Value(pc.Trailers, r.keys.Origin); o != "" && !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
		if v := trailer.Value(pc.Trailers, r.keys.ReviewID); v != "" {
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
func (r *Reader) readFiles(p *Proposal, baseTree, tipTree Hash) error {
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
func (r *Reader) fileDiffs(before, after Hash, context int) ([]FileDiff, error) {
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
			d.OldID, d.OldMode = gitstore.NewHash(e.ID), uint32(e.Mode)
			if a, err = r.store.Blob(d.OldID); err != nil {
				return nil, err
			}
		} else {
			d.Status = "added"
		}
		if e, ok := new[q]; ok {
			d.NewID, d.NewMode = gitstore.NewHash(e.ID), uint32(e.Mode)
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

// skillOf names the skill a file belongs to: the nearest folder above it
// holding a SKILL.md, before or after the change.
func (r *Reader) skillOf(p string, trees ...Hash) string {
	if dir := SkillDir(r.store, p, trees...); dir != "" {
		return path.Base(dir)
	}
	return ""
}

// SkillDir is the skill folder a file belongs to: the nearest folder
// above it holding a SKILL.md in one of the trees ("" for none).
func SkillDir(store *gitstore.Store, p string, trees ...Hash) string {
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
func (r *Reader) readRejection(record Hash) (*Rejection, Hash, error) {
	c, err := r.repo.CommitObject(record)
	if err != nil {
		return nil, gitstore.ZeroHash, fmt.Errorf("read rejection record %s: %w", record, err)
	}
	if len(c.ParentHashes) == 0 {
		return nil, gitstore.ZeroHash, fmt.Errorf("rejection record %s has no parent", record)
	}
	ts := trailer.Parse(c.Message)
	rej := &Rejection{
		Record:       record,
		By:           trailer.Value(ts, r.keys.RejectedBy),
		Reason:       trailer.Value(ts, r.keys.Reason),
		When:         c.Committer.When,
		PreviousTips: c.ParentHashes[1:],
	}
	return rej, c.ParentHashes[0], nil
}
