package history

// The history index: for every commit, which skill folders differ from
// each of its parents, plus the commit's metadata and provenance trailers.
// skill log, skill blame and ownership all read history through it.
//
// Why our own index instead of go-git's Log with a path filter, DiffTree or
// Blame: on a 10,000-skill library those take minutes (docs/git-format.md
// §7). A record is computed by a hash-pruned diff of the
// commit's tree against each parent's: directories whose entry hashes are
// equal are never opened, and the diff stops at the first folder holding a
// SKILL.md, so a commit that patches one skill costs the two root trees
// plus one or two small trees. Records describe immutable commits, so they
// never go stale: they are kept in .git/skillrepo/cache/history.bin and a
// later walk computes only the commits it has not seen (the index is
// incremental for every branch tip at once). The cache is disposable: a
// missing, unreadable or older-version file is rebuilt from the objects.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// cacheVersion changes whenever Record or the diff rules
// change; an older cache is discarded.
const cacheVersion = 1

// maxSkillDepth is how deep below the root (or below .archive) a skill
// folder may sit: <cat>/<cat>/<cat>/<name>, as discovery allows.
const maxSkillDepth = 4

// FolderChange is one skill folder that differs between a commit and one
// of its parents. Old and New are the folder's tree hashes (zero: absent
// on that side). From, set on a folder that appeared, is the folder in the
// parent it was moved or renamed from.
type FolderChange struct {
	Path     string
	Old, New Hash
	From     string
}

// Record is what the history index knows about one commit.
type Record struct {
	Hash    Hash
	Tree    Hash
	Parents []Hash

	AuthorName, AuthorEmail string
	AuthorTime              int64
	AuthorTZ                int // seconds east of UTC
	CommitTime              int64
	CommitTZ                int
	Subject                 string

	// Trailers skillrepo reads (last value wins, as git's %(trailers)).
	Action, Origin, ReviewID, SessionID, Model, CuratorRun string
	Names                                                  []string // Skill-Name
	Imported                                               []string // Skill-Imported-Agent
	From                                                   []string // Skill-From: folders moved away

	// Changes[i] are the skill folders that differ from Parents[i]; a root
	// commit has one list, against the empty tree.
	Changes [][]FolderChange
}

// Index reads and extends the cached records. It is not safe for
// concurrent use (nor is the library that opens it).
type Index struct {
	repo  *gitstore.Repo
	opts  Options
	recs  map[Hash]*Record // complete records (cached on disk)
	heads map[Hash]*Record // parsed commits without Changes (this run only)
	dirty bool
	raw   *rawReader
	// cold selects path-lookup walks (log.go, chooseMode); folders
	// memoises their lookups: a commit's tree is its child's parent tree.
	cold    bool
	folders map[folderKey]Hash
	// progress hears each computed record; nil until the first one.
	progress Progress
}

type folderKey struct {
	tree Hash
	dir  string
}

// folderAtCached is folderAt, memoised for the walk.
func (h *Index) folderAtCached(root Hash, dir string) (Hash, error) {
	k := folderKey{root, dir}
	if f, ok := h.folders[k]; ok {
		return f, nil
	}
	f, err := h.folderAt(root, dir)
	if err != nil {
		return f, err
	}
	if h.folders == nil || len(h.folders) > 1<<16 {
		h.folders = map[folderKey]Hash{}
	}
	h.folders[k] = f
	return f, nil
}

// Options say where the index keeps its cache and what it reads from a
// commit message.
type Options struct {
	// CachePath is the cache file (in the per-clone state folder).
	CachePath string
	// ReadOnly: the cache is read but never written.
	ReadOnly bool
	// Progress hears the indexing of records not in the cache; nil
	// reports nothing.
	Progress Progress
	// Trailers fills a record's provenance from its commit message: the
	// trailer vocabulary is the domain's (docs/architecture.md §2).
	Trailers func(msg string, r *Record)
	// MetaActions are the Skill-Action values about a skill that change
	// none of its files (adopt, disown, pin, unpin): a log lists them.
	MetaActions map[string]bool
}

// Open opens the history index of repo, loading the cache when it is
// usable. Call Done when finished.
func Open(repo *gitstore.Repo, opts Options) *Index {
	h := &Index{repo: repo, opts: opts, recs: map[Hash]*Record{}, heads: map[Hash]*Record{}, raw: newRawReader(repo)}
	if repo.IsShallowRepo() {
		// Records computed across a graft would be wrong once the clone
		// is deepened, and a cache from before it was made shallow names
		// parents it no longer has: a shallow clone walks cold.
		return h
	}
	data, err := boundedread.ReadFile(opts.CachePath, maxCacheFile)
	if err != nil {
		return h
	}
	recs, err := decodeHistory(cacheVersion, data)
	if err != nil {
		return h // unreadable or older: rebuilt as needed
	}
	for _, r := range recs {
		h.recs[r.Hash] = r
	}
	return h
}

// Done saves the cache and releases the pack files.
func (h *Index) Done() {
	if h.progress != nil {
		h.progress.Done()
		h.progress = nil
	}
	_ = h.save() // a cache: failing to save costs the next command time only
	h.raw.close()
}

// save writes the cache when records were added: a temp file renamed over
// the old one, so a reader never sees a torn file. Failing to save only
// costs the next command time, so errors are returned for the caller to
// ignore.
func (h *Index) save() error {
	if !h.dirty || h.opts.ReadOnly || h.opts.CachePath == "" || h.repo.IsShallowRepo() {
		return nil
	}
	p := h.opts.CachePath
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	recs := make([]*Record, 0, len(h.recs))
	for _, r := range h.recs {
		recs = append(recs, r)
	}
	if err := atomicfile.Write(p, encodeHistory(cacheVersion, recs), 0o644, false); err != nil {
		return err
	}
	h.dirty = false
	return nil
}

// head returns commit c parsed (metadata, trailers, parents), with the
// Changes only when its full record is known. Walks that follow one
// skill read heads: the full record is computed only for commits that
// touched the skill.
func (h *Index) head(c Hash) (*Record, error) {
	if r, ok := h.recs[c]; ok {
		return r, nil
	}
	if r, ok := h.heads[c]; ok {
		return r, nil
	}
	data, err := h.raw.read(gitstore.CommitObject, c)
	if err != nil {
		return nil, err
	}
	r, err := parseCommitRecord(c, data, h.opts.Trailers)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", c, err)
	}
	if p := h.repo.Prefix; p != "" {
		// A prefix library's history is its folder's: the record keeps
		// the subtree (zero before the library existed).
		if r.Tree, err = h.folderAt(r.Tree, p); err != nil {
			return nil, fmt.Errorf("commit %s: %w", c, err)
		}
	}
	h.heads[c] = r
	return r, nil
}

// Record returns the complete record of commit c, computing its changes
// when missing.
func (h *Index) Record(c Hash) (*Record, error) {
	if r, ok := h.recs[c]; ok {
		return r, nil
	}
	head, err := h.head(c)
	if err != nil {
		return nil, err
	}
	if h.progress == nil {
		// Computing records is the slow part of a first walk over a long
		// history; a cached walk never gets here.
		h.progress = h.opts.Progress
		if h.progress == nil {
			h.progress = noProgress{}
		}
		h.progress.Start("indexing history", 0)
	}
	h.progress.Add(1)
	r := *head
	r.Changes = nil
	if len(r.Parents) == 0 {
		ch, err := h.diff(gitstore.ZeroHash, r.Tree, &r)
		if err != nil {
			return nil, err
		}
		r.Changes = [][]FolderChange{ch}
	}
	for _, p := range r.Parents {
		pt, err := h.treeOf(p)
		if err != nil {
			return nil, err
		}
		ch, err := h.diff(pt, r.Tree, &r)
		if err != nil {
			return nil, err
		}
		r.Changes = append(r.Changes, ch)
	}
	delete(h.heads, c)
	h.recs[c] = &r
	h.dirty = true
	return &r, nil
}

// TopoOrder lists the records of every commit reachable from tip with
// parents before children (an iterative depth-first post-order), computing records as it
// goes.
func (h *Index) TopoOrder(tip Hash) ([]*Record, error) {
	var order []*Record
	done := map[Hash]bool{}
	type frame struct {
		c    Hash
		next int
	}
	stack := []frame{{c: tip}}
	onStack := map[Hash]bool{tip: true}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		r, err := h.Record(top.c)
		if err != nil {
			return nil, err
		}
		if top.next < len(r.Parents) {
			p := r.Parents[top.next]
			top.next++
			if !done[p] && !onStack[p] {
				onStack[p] = true
				stack = append(stack, frame{c: p})
			}
			continue
		}
		done[top.c] = true
		order = append(order, r)
		stack = stack[:len(stack)-1]
	}
	return order, nil
}

// treeOf returns a commit's root tree.
func (h *Index) treeOf(c Hash) (Hash, error) {
	r, err := h.head(c)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return r.Tree, nil
}

// diff lists the skill folders that differ between two root trees, with
// moves paired; r's trailers may declare moves.
func (h *Index) diff(a, b Hash, r *Record) ([]FolderChange, error) {
	var out []FolderChange
	if err := h.diffDir(a, b, "", 0, &out); err != nil {
		return nil, err
	}
	if err := h.pairMoves(out, r); err != nil {
		return nil, err
	}
	return out, nil
}

// diffDir compares two trees at dir (diffSkillFolders).
func (h *Index) diffDir(a, b Hash, dir string, depth int, out *[]FolderChange) error {
	return diffSkillFolders(h.raw.tree, a, b, dir, depth, out)
}

// SkillFolderChanges lists the skill folders that differ between the
// trees from and to, whose raw tree objects readTree returns.
func SkillFolderChanges(readTree func(Hash) ([]byte, error), from, to Hash) ([]FolderChange, error) {
	read := func(h Hash) (*rawTree, error) {
		b, err := readTree(h)
		return &rawTree{data: b}, err
	}
	var changes []FolderChange
	err := diffSkillFolders(read, from, to, "", 0, &changes)
	return changes, err
}

// diffSkillFolders compares two trees at dir, read by read. A folder
// holding SKILL.md on either side is a skill folder: it is recorded and
// not descended into. Only directories that differ are opened.
func diffSkillFolders(read func(Hash) (*rawTree, error), a, b Hash, dir string, depth int, out *[]FolderChange) error {
	if a == b {
		return nil
	}
	ta, err := read(a)
	if err != nil {
		return err
	}
	tb, err := read(b)
	if err != nil {
		return err
	}
	if dir != "" && (hasRawSkillFile(ta) || hasRawSkillFile(tb)) {
		*out = append(*out, FolderChange{Path: dir, Old: a, New: b})
		return nil
	}
	if depth >= maxSkillDepth {
		return nil
	}
	return mergeRawTrees(ta, tb, func(name []byte, ea, eb rawEntry) error {
		if ea.hash == eb.hash && ea.dir == eb.dir {
			return nil
		}
		var ha, hb Hash
		if ea.dir {
			ha = ea.hash
		}
		if eb.dir {
			hb = eb.hash
		}
		if ha == hb {
			return nil
		}
		n := string(name)
		if dir == "" && strings.HasPrefix(n, ".") && n != skill.ArchiveDir {
			return nil // .git-like and tool folders: never skills
		}
		if dir != "" && strings.HasPrefix(n, ".") {
			return nil
		}
		childDepth := depth + 1
		if dir == "" && n == skill.ArchiveDir {
			childDepth = 0 // .archive/<...> counts from zero again
		}
		return diffSkillFolders(read, ha, hb, path.Join(dir, n), childDepth, out)
	})
}

// pairMoves sets From on folders that appeared in this diff and came from
// a folder that disappeared in it: a move the commit declares (Skill-From
// naming the old folder, Skill-Name the new one: skillrepo's own moves and
// archives), then the same tree (a pure move or rename), then the same
// SKILL.md, then the same folder name (a category move with edits), then
// SKILL.md line similarity of at least 50 % (a rename with edits; only
// tried when few folders are unpaired, as git limits rename detection).
func (h *Index) pairMoves(changes []FolderChange, r *Record) error {
	var added, gone []int
	for i, c := range changes {
		switch {
		case c.Old.IsZero() && !c.New.IsZero():
			added = append(added, i)
		case !c.Old.IsZero() && c.New.IsZero():
			gone = append(gone, i)
		}
	}
	if len(added) == 0 || len(gone) == 0 {
		return nil
	}
	used := map[int]bool{}
	pair := func(match func(a, g FolderChange) (bool, error)) error {
		for _, ai := range added {
			if changes[ai].From != "" {
				continue
			}
			for _, gi := range gone {
				if used[gi] {
					continue
				}
				ok, err := match(changes[ai], changes[gi])
				if err != nil {
					return err
				}
				if ok {
					changes[ai].From = changes[gi].Path
					used[gi] = true
					break
				}
			}
		}
		return nil
	}
	if err := pair(func(a, g FolderChange) (bool, error) {
		return slices.Contains(r.From, g.Path) && slices.Contains(r.Names, path.Base(a.Path)), nil
	}); err != nil {
		return err
	}
	if err := pair(func(a, g FolderChange) (bool, error) { return a.New == g.Old, nil }); err != nil {
		return err
	}
	if err := pair(func(a, g FolderChange) (bool, error) {
		ba, err := h.skillBlob(a.New)
		if err != nil {
			return false, err
		}
		bg, err := h.skillBlob(g.Old)
		if err != nil {
			return false, err
		}
		return !ba.IsZero() && ba == bg, nil
	}); err != nil {
		return err
	}
	if err := pair(func(a, g FolderChange) (bool, error) { return path.Base(a.Path) == path.Base(g.Path), nil }); err != nil {
		return err
	}
	unpairedA, unpairedG := 0, 0
	for _, ai := range added {
		if changes[ai].From == "" {
			unpairedA++
		}
	}
	unpairedG = len(gone) - len(used)
	if unpairedA == 0 || unpairedG == 0 || unpairedA*unpairedG > 400 {
		return nil
	}
	for _, ai := range added {
		if changes[ai].From != "" {
			continue
		}
		best, bestScore := -1, 0.5
		for _, gi := range gone {
			if used[gi] {
				continue
			}
			s, err := h.skillSimilarity(changes[gi].Old, changes[ai].New)
			if err != nil {
				return err
			}
			if s >= bestScore {
				if s > bestScore || best < 0 {
					best, bestScore = gi, s
				}
			}
		}
		if best >= 0 {
			changes[ai].From = changes[best].Path
			used[best] = true
		}
	}
	return nil
}

// skillBlob returns the SKILL.md blob of a skill folder tree (zero when
// it has none).
func (h *Index) skillBlob(folder Hash) (Hash, error) {
	t, err := h.raw.tree(folder)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	entries, err := t.all()
	if err != nil {
		return gitstore.ZeroHash, err
	}
	for _, e := range entries {
		if !e.dir && string(e.name) == skill.FileName {
			return e.hash, nil
		}
	}
	return gitstore.ZeroHash, nil
}

// skillSimilarity scores how alike two folders' SKILL.md files are: twice
// the shared lines over the total (1 = same lines).
func (h *Index) skillSimilarity(a, b Hash) (float64, error) {
	ba, err := h.skillBlob(a)
	if err != nil || ba.IsZero() {
		return 0, err
	}
	bb, err := h.skillBlob(b)
	if err != nil || bb.IsZero() {
		return 0, err
	}
	da, err := h.raw.read(gitstore.BlobObject, ba)
	if err != nil {
		return 0, err
	}
	db, err := h.raw.read(gitstore.BlobObject, bb)
	if err != nil {
		return 0, err
	}
	la, lb := splitLines(string(da)), splitLines(string(db))
	if len(la)+len(lb) == 0 {
		return 1, nil
	}
	count := map[string]int{}
	for _, s := range la {
		count[s]++
	}
	shared := 0
	for _, s := range lb {
		if count[s] > 0 {
			count[s]--
			shared++
		}
	}
	return 2 * float64(shared) / float64(len(la)+len(lb)), nil
}

// parseCommitRecord reads a raw commit object: headers, then the message
// (its trailers through trailers).
func parseCommitRecord(h Hash, data []byte, trailers func(string, *Record)) (*Record, error) {
	r := &Record{Hash: h}
	header, msg, _ := bytes.Cut(data, []byte("\n\n"))
	for _, line := range bytes.Split(header, []byte("\n")) {
		key, val, _ := bytes.Cut(line, []byte(" "))
		switch string(key) {
		case "tree":
			r.Tree = gitstore.NewHash(string(val))
		case "parent":
			r.Parents = append(r.Parents, gitstore.NewHash(string(val)))
		case "author":
			r.AuthorName, r.AuthorEmail, r.AuthorTime, r.AuthorTZ = parseSignature(string(val))
		case "committer":
			_, _, r.CommitTime, r.CommitTZ = parseSignature(string(val))
		}
	}
	if r.Tree.IsZero() {
		return nil, errors.New("commit without tree")
	}
	m := string(msg)
	r.Subject = strings.TrimSpace(strings.SplitN(strings.TrimLeft(m, "\n"), "\n", 2)[0])
	if trailers != nil {
		trailers(m, r)
	}
	return r, nil
}

// parseSignature reads "Name <email> 1700000000 +0100".
func parseSignature(s string) (name, email string, when int64, tz int) {
	lt := strings.IndexByte(s, '<')
	gt := strings.LastIndexByte(s, '>')
	if lt < 0 || gt < lt {
		return strings.TrimSpace(s), "", 0, 0
	}
	name = strings.TrimSpace(s[:lt])
	email = s[lt+1 : gt]
	fields := strings.Fields(s[gt+1:])
	if len(fields) > 0 {
		when, _ = strconv.ParseInt(fields[0], 10, 64)
	}
	if len(fields) > 1 && len(fields[1]) == 5 {
		hh, _ := strconv.Atoi(fields[1][1:3])
		mm, _ := strconv.Atoi(fields[1][3:5])
		tz = (hh*60 + mm) * 60
		if fields[1][0] == '-' {
			tz = -tz
		}
	}
	return name, email, when, tz
}

// rawReader reads objects' raw content through the engine's
// [gitstore.ObjectReader]. Trees are decoded without a string per entry.
type rawReader struct {
	objs  *gitstore.ObjectReader
	trees map[Hash]*rawTree
}

func newRawReader(repo *gitstore.Repo) *rawReader {
	return &rawReader{objs: repo.NewObjectReader(), trees: map[Hash]*rawTree{}}
}

func (r *rawReader) close() { r.objs.Close() }

// maxRawTrees bounds the decoded small-tree memo.
const maxRawTrees = 4096

func (r *rawReader) read(typ gitstore.ObjectType, h Hash) ([]byte, error) {
	return r.objs.Read(typ, h)
}

// rawEntry is a tree entry whose name points into the tree's bytes.
type rawEntry struct {
	name []byte
	mode uint32
	hash Hash
	dir  bool
}

// rawTree is a tree's bytes; entries are decoded for small trees only
// (the big root trees are compared as bytes by mergeRawTrees).
type rawTree struct {
	data    []byte
	entries []rawEntry
}

// tree reads a tree (zero hash: the empty tree).
func (r *rawReader) tree(h Hash) (*rawTree, error) {
	if h.IsZero() {
		return &rawTree{}, nil
	}
	if t, ok := r.trees[h]; ok {
		return t, nil
	}
	data, err := r.read(gitstore.TreeObject, h)
	if err != nil {
		return nil, err
	}
	t := &rawTree{data: data}
	if bytes.Count(data, []byte{0}) <= 64 {
		if t.entries, err = decodeRawEntries(data); err != nil {
			return nil, fmt.Errorf("tree %s: %w", h, err)
		}
		if len(r.trees) >= maxRawTrees {
			r.trees = map[Hash]*rawTree{}
		}
		r.trees[h] = t
	}
	return t, nil
}

// all returns the entries, decoding them when they were not.
func (t *rawTree) all() ([]rawEntry, error) {
	if t.entries != nil || len(t.data) == 0 {
		return t.entries, nil
	}
	return decodeRawEntries(t.data)
}

// nextRawEntry decodes the entry at the start of b and returns its length.
func nextRawEntry(b []byte) (rawEntry, int, error) {
	sp := bytes.IndexByte(b, ' ')
	if sp <= 0 {
		return rawEntry{}, 0, errors.New("malformed tree entry")
	}
	var mode uint32
	for _, c := range b[:sp] {
		if c < '0' || c > '7' {
			return rawEntry{}, 0, errors.New("malformed tree mode")
		}
		mode = mode<<3 | uint32(c-'0')
	}
	nul := bytes.IndexByte(b[sp+1:], 0)
	if nul < 0 || sp+1+nul+21 > len(b) {
		return rawEntry{}, 0, errors.New("malformed tree entry")
	}
	end := sp + 1 + nul
	e := rawEntry{name: b[sp+1 : end], mode: mode, dir: mode == 0o40000}
	copy(e.hash[:], b[end+1:end+21])
	return e, end + 21, nil
}

func decodeRawEntries(b []byte) ([]rawEntry, error) {
	out := make([]rawEntry, 0, bytes.Count(b, []byte{0}))
	for len(b) > 0 {
		e, n, err := nextRawEntry(b)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		b = b[n:]
	}
	return out, nil
}

// hasRawSkillFile reports whether the tree holds a SKILL.md file, walking
// its bytes without decoding entries.
func hasRawSkillFile(t *rawTree) bool {
	b := t.data
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp <= 0 {
			return false
		}
		nul := bytes.IndexByte(b[sp:], 0)
		if nul < 0 || sp+nul+21 > len(b) {
			return false
		}
		if string(b[sp+1:sp+nul]) == skill.FileName && string(b[:sp]) != "40000" {
			return true
		}
		b = b[sp+nul+21:]
	}
	return false
}

// mergeRawTrees calls fn for every name whose entry differs between a
// and b (a missing side is a zero rawEntry), walking both trees' bytes
// once: an entry identical on both sides (mode, name and hash: the
// overwhelming case between two commits) is skipped with one byte
// comparison and never decoded.
func mergeRawTrees(a, b *rawTree, fn func(name []byte, ea, eb rawEntry) error) error {
	da, db := a.data, b.data
	for len(da) > 0 || len(db) > 0 {
		if len(da) > 0 && len(db) > 0 {
			if nul := bytes.IndexByte(da, 0); nul > 0 && nul+21 <= len(da) && nul+21 <= len(db) && bytes.Equal(da[:nul+21], db[:nul+21]) {
				da, db = da[nul+21:], db[nul+21:]
				continue
			}
		}
		var ea, eb rawEntry
		var na, nb int
		var err error
		if len(da) > 0 {
			if ea, na, err = nextRawEntry(da); err != nil {
				return err
			}
		}
		if len(db) > 0 {
			if eb, nb, err = nextRawEntry(db); err != nil {
				return err
			}
		}
		var c int
		switch {
		case len(da) == 0:
			c = 1
		case len(db) == 0:
			c = -1
		default:
			c = gitstore.CompareTreeNames(ea.name, ea.dir, eb.name, eb.dir)
		}
		switch {
		case c < 0:
			err = fn(ea.name, ea, rawEntry{})
			da = da[na:]
		case c > 0:
			err = fn(eb.name, rawEntry{}, eb)
			db = db[nb:]
		default:
			err = fn(ea.name, ea, eb)
			da, db = da[na:], db[nb:]
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// folderFiles lists the files of a skill folder tree with their blob
// hashes, keyed by slash path relative to the folder.
func (h *Index) folderFiles(folder Hash) (map[string]Hash, error) {
	out := map[string]Hash{}
	var walk func(t Hash, prefix string) error
	walk = func(t Hash, prefix string) error {
		rt, err := h.raw.tree(t)
		if err != nil {
			return err
		}
		entries, err := rt.all()
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := prefix + string(e.name)
			switch {
			case e.dir:
				if err := walk(e.hash, p+"/"); err != nil {
					return err
				}
			case e.mode == 0o160000: // a submodule: no blob here
			default:
				out[p] = e.hash
			}
		}
		return nil
	}
	if folder.IsZero() {
		return out, nil
	}
	return out, walk(folder, "")
}

// fileIn returns the blob of rel inside a folder tree (zero when absent).
func (h *Index) fileIn(folder Hash, rel string) (Hash, error) {
	cur := folder
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		if cur.IsZero() {
			return gitstore.ZeroHash, nil
		}
		t, err := h.raw.tree(cur)
		if err != nil {
			return gitstore.ZeroHash, err
		}
		entries, err := t.all()
		if err != nil {
			return gitstore.ZeroHash, err
		}
		next := gitstore.ZeroHash
		for _, e := range entries {
			if string(e.name) != part {
				continue
			}
			if i == len(parts)-1 {
				if e.dir {
					return gitstore.ZeroHash, nil
				}
				return e.hash, nil
			}
			if e.dir {
				next = e.hash
			}
			break
		}
		cur = next
	}
	return gitstore.ZeroHash, nil
}

// folderAt returns the tree of dir in a root tree (zero when absent),
// looking names up in the trees' bytes.
func (h *Index) folderAt(root Hash, dir string) (Hash, error) {
	cur := root
	for _, part := range strings.Split(dir, "/") {
		t, err := h.raw.tree(cur)
		if err != nil {
			return gitstore.ZeroHash, err
		}
		next, ok := rawLookupDir(t, part)
		if !ok {
			return gitstore.ZeroHash, nil
		}
		cur = next
	}
	return cur, nil
}

// rawLookupDir finds the directory entry name in a tree's bytes.
func rawLookupDir(t *rawTree, name string) (Hash, bool) {
	b := t.data
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp <= 0 {
			return gitstore.ZeroHash, false
		}
		nul := bytes.IndexByte(b[sp:], 0)
		if nul < 0 || sp+nul+21 > len(b) {
			return gitstore.ZeroHash, false
		}
		if string(b[:sp]) == "40000" && string(b[sp+1:sp+nul]) == name {
			var h Hash
			copy(h[:], b[sp+nul+1:sp+nul+21])
			return h, true
		}
		b = b[sp+nul+21:]
	}
	return gitstore.ZeroHash, false
}

type noProgress struct{}

func (noProgress) Start(string, int) {}
func (noProgress) Add(int)           {}
func (noProgress) Done()             {}

// maxCacheFile bounds the cache file, read as a regular file only (a FIFO
// there would hang the command, a link to /dev/zero fill the memory): a
// cache over its bound is rebuilt.
const maxCacheFile = 256 << 20
