package skillrepo

// Ownership from history. A skill is curator-managed (the curator and
// background reviews may change it) when:
//
//   - the commit that created it carries Skill-Origin: background-review
//     or curator;
//   - or the import commit that recorded it names it in a
//     Skill-Imported-Agent trailer (init writes one per skill a Hermes
//     .usage.json marks created_by: agent);
//   - or, whatever the above says, the newest Skill-Action: adopt|disown
//     commit naming it says adopt.
//
// Anything else is user-owned: no evidence means user-owned (fail closed,
// docs/reference-behaviour.md §4.5). Evidence follows the skill folder
// through moves, renames, archive and restore (package history pairs them), so
// unlike a flag in a side file it survives a rename.
//
// All skills are computed at once by one pass over history, oldest commit
// first, carrying a map folder -> ownership from parent to child: a
// created folder takes its creating commit's evidence, a moved folder
// keeps its source's, and at a merge a folder that came from the merged
// branch keeps that branch's evidence (a proposal's background-review
// creation stays curator-managed after approval). The result is cached
// per branch tip in .git/skillrepo/cache/owners.bin, so asking for 10,000
// skills again costs one file read.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path"
	"path/filepath"

	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo/history"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// Owners of a skill. OwnerUnknown is only ever shown, never decided on:
// see [Owners.ForDisplay].
const (
	OwnerCurator = "curator"
	OwnerUser    = "user"
	OwnerUnknown = "unknown"
)

// Ownership says who owns a skill and why.
type Ownership struct {
	// Name and Dir locate the skill at the branch tip.
	Name string
	Dir  string
	// Owner is OwnerCurator or OwnerUser.
	Owner string
	// Reason is the evidence, in words ("created by background-review in
	// 1a2b3c4", "adopted in 5d6e7f8", "no provenance: user-owned").
	Reason string
	// Commit is the commit that decided (zero when nothing did).
	Commit Hash
}

// CuratorManaged reports whether the curator and background reviews may
// change the skill.
func (o Ownership) CuratorManaged() bool { return o.Owner == OwnerCurator }

// ownState is the ownership of one folder during the forward pass. States
// are shared between folders and commits and never mutated.
type ownState struct {
	Curator bool
	Reason  string
	Commit  Hash
	// Time orders decisions at merges: the newer one wins.
	Time int64
}

// Of returns the ownership of skill name on the main branch. On error
// the returned Ownership is user-owned, so a caller that ignores the
// error still fails closed.
func (room Owners) Of(name string) (Ownership, error) {
	l := room.l
	return l.ownerAt("", name)
}

// ownerAt returns the ownership of skill name at rev ("" = the main
// branch). Error wraps ErrNotFound for an unknown skill.
func (l *Library) ownerAt(rev, name string) (Ownership, error) {
	closed := Ownership{Name: name, Owner: OwnerUser, Reason: "ownership unknown: user-owned"}
	snap, err := l.Snapshot(rev)
	if err != nil {
		return closed, err
	}
	si, err := snap.FindSkill(name)
	if err != nil {
		return closed, err
	}
	closed.Name, closed.Dir = si.Name, si.Dir
	all, err := l.ownersAt(snap.Commit())
	if err != nil {
		return closed, err
	}
	if o, ok := all[si.Dir]; ok {
		return o, nil
	}
	return closed, nil
}

// At returns the ownership of every skill at rev ("" = the main
// branch), keyed by skill folder (SkillInfo.Dir), archived skills
// included.
func (room Owners) At(rev string) (map[string]Ownership, error) {
	l := room.l
	snap, err := l.Snapshot(rev)
	if err != nil {
		return nil, err
	}
	return l.ownersAt(snap.Commit())
}

// ForDisplay is [Owners.At] for a command that only shows
// ownership: where history cannot tell (a shallow clone, see
// [ErrOwnershipUnknown]), every skill of rev is OwnerUnknown with the
// reason, and why is that reason (with its hint); otherwise why is nil.
// Nothing may decide a write from its answer.
func (room Owners) ForDisplay(rev string) (owners map[string]Ownership, why error, err error) {
	l := room.l
	owners, err = l.Owners().At(rev)
	if err == nil || !errors.Is(err, ErrOwnershipUnknown) {
		return owners, nil, err
	}
	why = err
	snap, err := l.Snapshot(rev)
	if err != nil {
		return nil, nil, err
	}
	skills, err := snap.Skills()
	if err != nil {
		return nil, nil, err
	}
	owners = make(map[string]Ownership, len(skills))
	for _, si := range skills {
		owners[si.Dir] = Ownership{Name: si.Name, Dir: si.Dir, Owner: OwnerUnknown, Reason: why.Error()}
	}
	return owners, why, nil
}

const ownersCacheVersion = 1

// ownersCacheTips is how many branch tips the owners cache keeps (main,
// a proposal or two, a curator run).
const ownersCacheTips = 4

const ownersMagic = "skillrepo-owners\n"

type ownersCacheEntry struct {
	Tip    Hash
	Owners map[string]Ownership
	// raw is the entry's skills as read from the file (their count,
	// then each skill's fields): an entry is decoded only when its tip is
	// asked for (ownersOf) and copied as it is when the file is written
	// again; four tips of a 10,000-skill library are 3.6 MB, and decoding
	// them all cost a server's first request after a write to main a
	// fifth of its time (bench/README.md, "skillrepo ui").
	raw []byte
}

func (l *Library) ownersCachePath() string {
	return l.State().cache("owners.bin")
}

// The owners cache file: magic, version, entries (tip, count, then name,
// dir, owner, reason, commit per skill), CRC-32 of all that; the same
// encoding as the history cache (package history, codec.go).
func encodeOwners(entries []ownersCacheEntry) []byte {
	size := len(ownersMagic) + 24
	for _, e := range entries {
		size += 30 + len(e.raw) + 120*len(e.Owners) // a skill's fields take about 100 bytes
	}
	w := &history.Writer{B: make([]byte, 0, size)}
	w.B = append(w.B, ownersMagic...)
	w.Uvarint(ownersCacheVersion)
	w.Uvarint(uint64(len(entries)))
	for _, e := range entries {
		w.Hash(e.Tip)
		if e.Owners == nil {
			w.B = append(w.B, e.raw...)
			continue
		}
		w.Uvarint(uint64(len(e.Owners)))
		for _, o := range e.Owners {
			w.Str(o.Name)
			w.Str(o.Dir)
			w.Str(o.Owner)
			w.Str(o.Reason)
			w.Hash(o.Commit)
		}
	}
	return binary.BigEndian.AppendUint32(w.B, crc32.ChecksumIEEE(w.B))
}

func decodeOwners(data []byte) ([]ownersCacheEntry, error) {
	if len(data) < len(ownersMagic)+4 || string(data[:len(ownersMagic)]) != ownersMagic {
		return nil, history.ErrBadCache
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != binary.BigEndian.Uint32(data[len(data)-4:]) {
		return nil, history.ErrBadCache
	}
	r := &history.Reader{B: body[len(ownersMagic):]}
	if r.Uvarint() != ownersCacheVersion || r.Err != nil {
		return nil, history.ErrBadCache
	}
	n := r.Count(24)
	var out []ownersCacheEntry
	for i := 0; i < n && r.Err == nil; i++ {
		e := ownersCacheEntry{Tip: r.Hash()}
		start := r.B
		k := r.Count(24)
		for j := 0; j < k && r.Err == nil; j++ {
			for f := 0; f < 4; f++ { // name, dir, owner, reason
				if m := r.Uvarint(); m > uint64(len(r.B)) {
					r.Err = history.ErrBadCache
				} else {
					r.B = r.B[m:]
				}
			}
			r.Hash()
		}
		e.raw = start[:len(start)-len(r.B)]
		out = append(out, e)
	}
	if r.Err != nil || len(r.B) != 0 {
		return nil, history.ErrBadCache
	}
	return out, nil
}

// ownersOf decodes the entry's skills (checked whole by decodeOwners).
func (e *ownersCacheEntry) ownersOf() (map[string]Ownership, error) {
	if e.Owners != nil {
		return e.Owners, nil
	}
	r := &history.Reader{B: e.raw}
	k := r.Count(24)
	owners := make(map[string]Ownership, k)
	for j := 0; j < k && r.Err == nil; j++ {
		o := Ownership{Name: r.Str(), Dir: r.Str(), Owner: r.Str(), Reason: r.Str(), Commit: r.Hash()}
		owners[o.Dir] = o
	}
	if r.Err != nil || len(r.B) != 0 {
		return nil, history.ErrBadCache
	}
	return owners, nil
}

func (l *Library) loadOwnersCache() []ownersCacheEntry {
	data, err := boundedread.ReadFile(l.ownersCachePath(), maxCacheFile)
	if err != nil {
		return nil
	}
	entries, err := decodeOwners(data)
	if err != nil {
		return nil
	}
	return entries
}

// ownersAt computes (or reads from the cache) the ownership of every skill
// at commit tip.
func (l *Library) ownersAt(tip Hash) (map[string]Ownership, error) {
	if tip.IsZero() {
		return map[string]Ownership{}, nil
	}
	// Decoding the cache file costs a 10,000-skill page more than the
	// rest of its skill list: a memo keeps it decoded, by commit.
	key := ownersKey{prefix: l.repo.Prefix, tip: tip}
	if o, ok := l.opts.Memo.ownersOf(key); ok {
		return o.owners, nil
	}
	store := l.repo.NewStore(true)
	tree, parents, err := store.CommitInfo(tip)
	if err != nil {
		return nil, err
	}
	var h *history.Index
	defer func() {
		if h != nil {
			h.Done()
		}
	}()
	// A commit one step from a state this process kept (a server after
	// a write to main) needs neither the cache file's entry nor the pass
	// over the whole history.
	var states map[string]*ownState
	if len(parents) == 1 && !l.repo.IsShallow(tip) {
		if prev, ok := l.opts.Memo.ownersOf(ownersKey{prefix: l.repo.Prefix, tip: parents[0]}); ok && prev.states != nil {
			h = l.history()
			states = ownershipStep(h, tip, prev.states)
		}
	}
	cache := l.loadOwnersCache()
	if states == nil {
		for i := range cache {
			if cache[i].Tip != tip {
				continue
			}
			if o, err := cache[i].ownersOf(); err == nil {
				l.opts.Memo.keepOwners(key, ownersMemo{owners: o})
				return o, nil
			}
		}
		if h == nil {
			h = l.history()
		}
		if states, err = l.ownership(h, tip); err != nil {
			return nil, err
		}
	}
	// The skills through the catalogue (skillcatalog.go): the folders
	// that differ from the tree it knows, not a walk of every folder.
	var skills []SkillInfo
	if tree.IsZero() {
		skills = []SkillInfo{}
	} else if skills, err = l.catalogSkills(store, tree); err != nil {
		return nil, err
	}
	out := make(map[string]Ownership, len(skills))
	for _, si := range skills {
		o := Ownership{Name: si.Name, Dir: si.Dir, Owner: OwnerUser, Reason: "no provenance in history: user-owned"}
		if st := states[si.Dir]; st != nil {
			o.Reason, o.Commit = st.Reason, st.Commit
			if st.Curator {
				o.Owner = OwnerCurator
			}
		}
		out[si.Dir] = o
	}
	l.opts.Memo.keepOwners(key, ownersMemo{owners: out, states: states})
	entries := []ownersCacheEntry{{Tip: tip, Owners: out}}
	for _, e := range cache {
		if len(entries) < ownersCacheTips && e.Tip != tip {
			entries = append(entries, e)
		}
	}
	if l.readOnly {
		return out, nil
	}
	if err := os.MkdirAll(filepath.Dir(l.ownersCachePath()), 0o755); err == nil {
		_ = atomicfile.Write(l.ownersCachePath(), encodeOwners(entries), 0o644, false) // a cache: failing costs time only
	}
	return out, nil
}

// ownershipStep is the state of the forward pass at tip made from the
// state at its one parent, prev: the pass's own step (applyOwnership) on a
// copy. Nil when history cannot give tip's record, or tip is a shallow
// boundary: the whole pass then decides, and reports.
func ownershipStep(h *history.Index, tip Hash, prev map[string]*ownState) map[string]*ownState {
	r, err := h.Record(tip)
	if err != nil || len(r.Parents) != 1 || len(r.Changes) != 1 {
		return nil
	}
	cur := make(map[string]*ownState, len(prev)+len(r.Changes[0]))
	for k, v := range prev {
		cur[k] = v
	}
	applyOwnership(r, cur, nil)
	return cur
}

// ownership runs the forward pass over every commit reachable from tip
// and returns the folder -> state map at tip.
func (l *Library) ownership(h *history.Index, tip Hash) (map[string]*ownState, error) {
	order, err := h.TopoOrder(tip)
	if err != nil {
		return nil, err
	}
	// Ownership fails closed in a shallow clone: who created a skill may
	// lie beyond the boundary, and a guess could hand a user's skill to
	// the curator.
	for _, r := range order {
		if l.repo.IsShallow(r.Hash) {
			return nil, WithHint(fmt.Errorf("%w: the history stops at %s (a shallow clone)", ErrOwnershipUnknown, gitstore.ShortHash(r.Hash)),
				"fetch the whole history with 'git fetch --unshallow', then retry")
		}
	}
	// children counts how many commits still need a commit's state, so
	// a state map is dropped (or handed over without a copy) when its
	// last child takes it.
	children := map[Hash]int{}
	for _, r := range order {
		for _, p := range r.Parents {
			children[p]++
		}
	}
	states := map[Hash]map[string]*ownState{}
	take := func(p Hash) map[string]*ownState {
		st := states[p]
		children[p]--
		if children[p] == 0 {
			delete(states, p)
			return st
		}
		cp := make(map[string]*ownState, len(st))
		for k, v := range st {
			cp[k] = v
		}
		return cp
	}
	for _, r := range order {
		var cur map[string]*ownState
		if len(r.Parents) == 0 {
			cur = map[string]*ownState{}
		} else {
			cur = take(r.Parents[0])
		}
		var others []map[string]*ownState
		if len(r.Parents) > 1 {
			for _, p := range r.Parents[1:] {
				others = append(others, take(p))
			}
		}
		applyOwnership(r, cur, others)
		states[r.Hash] = cur
	}
	return states[tip], nil
}

// applyOwnership turns the first parent's state into commit r's.
func applyOwnership(r *history.Record, cur map[string]*ownState, others []map[string]*ownState) {
	changes := r.Changes[0]
	imported := make(map[string]bool, len(r.Imported))
	for _, n := range r.Imported {
		imported[n] = true
	}
	// Moves read their source before any deletion is applied.
	moved := map[string]*ownState{}
	for _, c := range changes {
		if c.Old.IsZero() && c.From != "" {
			moved[c.Path] = cur[c.From]
		}
	}
	for _, c := range changes {
		switch {
		case c.New.IsZero():
			delete(cur, c.Path)
		case !c.Old.IsZero():
			// modified: keeps its state (a merge may update it below)
		default: // appeared here
			if st := fromOtherParent(c.Path, others); st != nil {
				cur[c.Path] = st // brought in by the merged branch
				continue
			}
			if st, ok := moved[c.Path]; ok {
				if st == nil {
					st = &ownState{Reason: "moved from a folder without provenance: user-owned", Commit: r.Hash}
				}
				cur[c.Path] = st
				continue
			}
			cur[c.Path] = creationState(r, c.Path, imported)
		}
	}
	// A merge keeps the newer decision for folders both sides have (an
	// adopt on a proposal branch survives its approval).
	for _, o := range others {
		for p, st := range o {
			if have, ok := cur[p]; ok && have != st && st.Time > have.Time {
				cur[p] = st
			}
		}
	}
	if r.Action == ActionAdopt || r.Action == ActionDisown {
		for _, name := range r.Names {
			for _, p := range foldersNamed(cur, name) {
				reason := fmt.Sprintf("adopted in %s", gitstore.ShortHash(r.Hash))
				if r.Action == ActionDisown {
					reason = fmt.Sprintf("disowned in %s", gitstore.ShortHash(r.Hash))
				}
				cur[p] = &ownState{Curator: r.Action == ActionAdopt, Reason: reason, Commit: r.Hash, Time: r.CommitTime}
			}
		}
	}
}

func fromOtherParent(p string, others []map[string]*ownState) *ownState {
	for _, o := range others {
		if st := o[p]; st != nil {
			return st
		}
	}
	return nil
}

// foldersNamed returns the folders whose skill is called name: the active
// one when there is one, else the archived ones.
func foldersNamed(cur map[string]*ownState, name string) []string {
	var active, archived []string
	for p := range cur {
		if path.Base(p) != name {
			continue
		}
		if len(p) > len(ArchiveDir) && p[:len(ArchiveDir)+1] == ArchiveDir+"/" {
			archived = append(archived, p)
		} else {
			active = append(active, p)
		}
	}
	if len(active) > 0 {
		return active
	}
	return archived
}

// creationState is the ownership a commit gives a skill it creates.
// imported is the commit's Skill-Imported-Agent set.
func creationState(r *history.Record, p string, imported map[string]bool) *ownState {
	st := &ownState{Commit: r.Hash, Time: r.CommitTime}
	if imported[path.Base(p)] {
		st.Curator = true
		st.Reason = fmt.Sprintf("imported as agent-created in %s", gitstore.ShortHash(r.Hash))
		return st
	}
	switch origin := r.Origin; origin {
	case OriginBackgroundReview, OriginCurator:
		st.Curator = true
		st.Reason = fmt.Sprintf("created by %s in %s", origin, gitstore.ShortHash(r.Hash))
	case "":
		st.Reason = fmt.Sprintf("created in %s without provenance: user-owned", gitstore.ShortHash(r.Hash))
	default:
		st.Reason = fmt.Sprintf("created by %s in %s", origin, gitstore.ShortHash(r.Hash))
	}
	return st
}
