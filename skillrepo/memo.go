package skillrepo

import (
	"sync"

	"github.com/skillrepo/skillrepo/internal/lru"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/proposals"
)

// Memo keeps, across the libraries a long-running reader opens one per
// request (the ui server, docs/architecture.md), what a request decoded or
// computed, so the next request with the same inputs reuses it: the
// ownership of every skill at a commit, and each proposal's summary (its
// commits, files and merge into main). Every key holds the commits the
// value is a function of (and the library's folder in the repository), so
// nothing kept is ever stale: a branch that moves reads under a new key,
// and the old entry ages out. Bounded by count, least recently used first.
// Safe for concurrent use.
type Memo struct {
	mu        sync.Mutex
	owners    lru.Cache[ownersKey, ownersMemo]
	proposals lru.Cache[proposals.Key, *Proposal]
	// refs keeps the loose refs the libraries listed (proposals,
	// rejected proposals), each reused while a stat of its file is
	// unchanged (the engine's RefCache).
	refs *gitstore.RefCache
}

// Bounds of a [Memo]: a few tips of ownership (a 10,000-skill map is a
// few MB), and every open and rejected proposal of a 1,000-proposal
// library under two main tips.
const (
	memoOwners    = 4
	memoProposals = 4096
)

// NewMemo returns an empty memo; give it to [Open] in [OpenOptions].Memo.
func NewMemo() *Memo {
	return &Memo{owners: lru.New[ownersKey, ownersMemo](memoOwners), proposals: lru.New[proposals.Key, *Proposal](memoProposals), refs: gitstore.NewRefCache()}
}

func (m *Memo) refCache() *gitstore.RefCache {
	if m == nil {
		return nil
	}
	return m.refs
}

type ownersKey struct {
	prefix string
	tip    Hash
}

// ownersMemo is the ownership at a commit, and the state of the forward
// pass there (every folder history knows, with the time of its decision)
// when this process computed it: a commit whose one parent has its state
// kept is one step of the pass from it (owner.go, ownersAt). Neither map
// is changed once kept.
type ownersMemo struct {
	owners map[string]Ownership
	states map[string]*ownState
}

func (m *Memo) ownersOf(k ownersKey) (ownersMemo, bool) {
	if m == nil {
		return ownersMemo{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.owners.Get(k)
}

func (m *Memo) keepOwners(k ownersKey, v ownersMemo) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.owners.Put(k, v)
}

// Proposal returns a copy of the kept proposal summary (the proposal room's
// [proposals.Cache]): the caller may set its fields, but its slices are
// shared and read only.
func (m *Memo) Proposal(k proposals.Key) (*Proposal, bool) {
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.proposals.Get(k)
	if !ok {
		return nil, false
	}
	cp := *p
	return &cp, true
}

// KeepProposal keeps a copy of a proposal summary.
func (m *Memo) KeepProposal(k proposals.Key, p *Proposal) {
	if m == nil {
		return
	}
	cp := *p
	m.mu.Lock()
	defer m.mu.Unlock()
	m.proposals.Put(k, &cp)
}
