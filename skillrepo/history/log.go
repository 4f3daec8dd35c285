package history

// skill log: every commit that touched one skill, following the skill
// folder through renames, category moves, archive and restore.
//
// The walk runs over the history index (index.go), newest commit
// first (committer date, ties in the order found, as git log does). It
// tracks the skill's folder path per line of history: when the folder
// appeared in a commit as a move (the index paired it with a folder that
// disappeared in the same commit), the walk continues in the parent with
// the old path. At a merge it simplifies history the way git log does for
// a path: when the folder is unchanged from one parent, only that parent is
// followed and the merge is not shown; when it differs from every parent,
// the merge is shown and every parent that had the folder is followed. So a
// proposal merged into main shows the proposal's own commits, with their
// provenance, not the merge. A commit that adopts, disowns, pins or unpins
// the skill (Skill-Action and Skill-Name trailers, no folder change) is
// listed too.

import (
	"container/heap"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/merge"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// Kinds of change a log entry records.
const (
	ChangeCreated  = "created"
	ChangeModified = "modified"
	ChangeRenamed  = "renamed"
	ChangeMoved    = "moved"
	ChangeArchived = "archived"
	ChangeRestored = "restored"
	ChangeDeleted  = "deleted"
	ChangeMerged   = "merged"
	// ChangeMeta is a commit that changed no file of the skill but is
	// about it: adopt, disown, pin, unpin (see Action).
	ChangeMeta = "meta"
)

// LogOptions chooses what a log returns ([Index.Log]; Rev is read by the
// library, which finds the skill there).
type LogOptions struct {
	// Rev is the branch or commit to start from ("" = the main branch).
	Rev string
	// Patch adds the unified diff of the skill's files to each entry.
	Patch bool
	// MaxCount stops after that many entries (0 = all).
	MaxCount int
}

// LogEntry is one commit of a skill's history.
type LogEntry struct {
	Commit Hash
	// Truncated: a shallow clone's boundary commit; the history before
	// it is not in this clone (it may only have inherited the skill).
	Truncated   bool
	Parents     []Hash
	AuthorName  string
	AuthorEmail string
	AuthorDate  time.Time
	CommitDate  time.Time
	Subject     string
	// Provenance trailers of the commit.
	Action, Origin, ReviewID, SessionID, Model, CuratorRun string
	// Change is what happened to the skill (Change* constants).
	Change string
	// Path is the skill folder after the commit ("" when deleted); From
	// is the folder before it, when the commit moved or renamed it.
	Path, From string
	// Patch is the unified diff of the skill's files (LogOptions.Patch).
	Patch string
}

// Log returns the commits of tip's history that touched the skill folder
// dir, newest first (tip and dir as [Index.Locate] finds them).
func (h *Index) Log(tip Hash, dir string, opts LogOptions) ([]LogEntry, error) {
	var out []LogEntry
	err := h.walk(tip, dir, func(n walkNode) bool {
		e := logEntry(n)
		if opts.Patch && n.kind != ChangeMeta {
			var prev walkEdge
			if len(n.edges) > 0 {
				prev = n.edges[0]
			}
			p, err := h.folderPatch(prev.path, prev.folder, n.path, n.folder)
			if err == nil {
				e.Patch = p
			}
		}
		e.Truncated = h.repo.IsShallow(e.Commit)
		out = append(out, e)
		return opts.MaxCount <= 0 || len(out) < opts.MaxCount
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func logEntry(n walkNode) LogEntry {
	r := n.rec
	e := LogEntry{
		Commit: r.Hash, Parents: r.Parents,
		AuthorName: r.AuthorName, AuthorEmail: r.AuthorEmail,
		AuthorDate: time.Unix(r.AuthorTime, 0).In(time.FixedZone("", r.AuthorTZ)),
		CommitDate: time.Unix(r.CommitTime, 0).In(time.FixedZone("", r.CommitTZ)),
		Subject:    r.Subject,
		Action:     r.Action, Origin: r.Origin, ReviewID: r.ReviewID, SessionID: r.SessionID,
		Model: r.Model, CuratorRun: r.CuratorRun,
		Change: n.kind, Path: n.path,
	}
	if n.kind == ChangeDeleted {
		e.Path = ""
		e.From = n.path
	}
	if len(n.edges) > 0 && n.edges[0].path != n.path {
		e.From = n.edges[0].path
	}
	return e
}

// Locate finds the folder of a skill that is not in the tip commit: the
// newest commit that changed a folder called name (a folder path such as
// "devops/name", or a skill name); from there the folder's later moves
// lead to where the skill is now (an old name finds the renamed skill,
// exists says whether a path is in tip), or to the commit that deleted it
// (the walk then starts at that commit). ok is false when no commit of
// tip's history had the skill.
func (h *Index) Locate(tip Hash, name string, exists func(path string) bool) (at Hash, dir string, ok bool, err error) {
	name = strings.Trim(name, "/")
	base := path.Base(name)
	movedTo := map[string]string{} // newest move of each folder
	deletedIn := map[string]Hash{} // newest deletion of each folder
	candidate := ""
	werr := h.walkAll(tip, func(r *Record) bool {
		for _, c := range r.Changes[0] {
			if c.From != "" {
				if _, ok := movedTo[c.From]; !ok {
					movedTo[c.From] = c.Path
				}
			}
			if !c.Old.IsZero() && c.New.IsZero() && !movedAway(r.Changes[0], c.Path) {
				if _, ok := deletedIn[c.Path]; !ok {
					deletedIn[c.Path] = r.Hash
				}
			}
		}
		for _, c := range r.Changes[0] {
			if c.Path == name || path.Base(c.Path) == base {
				candidate = c.Path
				return false
			}
		}
		return true
	})
	if werr != nil {
		return gitstore.ZeroHash, "", false, werr
	}
	for p, hops := candidate, 0; p != "" && hops < 1000; hops++ {
		if exists(p + "/" + skill.FileName) {
			return tip, p, true, nil
		}
		if c, ok := deletedIn[p]; ok {
			return c, p, true, nil
		}
		p = movedTo[p]
	}
	return gitstore.ZeroHash, "", false, nil
}

// walkNode is a commit that changed the tracked folder (or a meta commit
// about it).
type walkNode struct {
	rec    *Record
	path   string // the folder at this commit
	folder Hash   // its tree at this commit (zero when deleted)
	kind   string
	edges  []walkEdge // the parents followed, with the folder there
}

// walkEdge is a parent a node's folder came from.
type walkEdge struct {
	parent Hash
	path   string
	folder Hash
}

// stepResult says what one commit means for a tracked folder: pass to one
// parent unchanged (node == false), or a node with the parents to follow.
type stepResult struct {
	node   bool
	pass   int // parent index to continue with; -1 = stop
	folder Hash
	kind   string
	edges  []walkEdge
}

func findChange(changes []FolderChange, p string) (FolderChange, bool) {
	for _, c := range changes {
		if c.Path == p {
			return c, true
		}
	}
	return FolderChange{}, false
}

// stepAt decides what commit c did to the folder at p, returning the
// commit's record. A cached record answers at once. Otherwise, in warm
// mode (the cache covers recent history: see chooseMode) the commit's
// full record is computed and cached, so the next walk of any skill is a
// pure cache read; in cold mode the folder's tree hash is compared with
// each parent's by path lookups only, as git's path-limited walk does,
// and the full record (diff, move pairing) is computed only for commits
// that changed the folder. A root commit is never diffed here: diffing
// the import of a 10,000-skill library against the empty tree opens every
// skill folder, while the walk only needs to know whether this one is
// there (ownership computes it when it needs it).
func (h *Index) stepAt(c Hash, p string) (*Record, stepResult, error) {
	if r, ok := h.recs[c]; ok {
		return r, step(r, p), nil
	}
	r, err := h.head(c)
	if err != nil {
		return nil, stepResult{}, err
	}
	if len(r.Parents) == 0 || h.cold {
		f, err := h.folderAtCached(r.Tree, p)
		if err != nil {
			return nil, stepResult{}, err
		}
		if len(r.Parents) == 0 {
			if f.IsZero() {
				return r, stepResult{pass: -1}, nil
			}
			return r, stepResult{node: true, folder: f, kind: ChangeCreated}, nil
		}
		for k, par := range r.Parents {
			pr, err := h.head(par)
			if err != nil {
				return nil, stepResult{}, err
			}
			pf, err := h.folderAtCached(pr.Tree, p)
			if err != nil {
				return nil, stepResult{}, err
			}
			if pf == f {
				return r, stepResult{pass: k}, nil
			}
		}
	}
	full, err := h.Record(c)
	if err != nil {
		return nil, stepResult{}, err
	}
	return full, step(full, p), nil
}

// coldProbe is how many first-parent ancestors of the tip chooseMode
// looks at for a cached record.
const coldProbe = 64

// chooseMode picks the walk mode for a walk from tip: warm when the tip or
// one of its recent first-parent ancestors has a cached record (the cache
// is being kept up: extend it), cold otherwise (walk by path lookups, as
// git does, instead of indexing all history first).
func (h *Index) chooseMode(tip Hash) error {
	h.cold = true
	c := tip
	for i := 0; i < coldProbe && !c.IsZero(); i++ {
		if _, ok := h.recs[c]; ok {
			h.cold = false
			return nil
		}
		r, err := h.head(c)
		if err != nil {
			return err
		}
		if len(r.Parents) == 0 {
			return nil
		}
		c = r.Parents[0]
	}
	return nil
}

// step decides what commit r did to the folder at p.
func step(r *Record, p string) stepResult {
	if len(r.Parents) == 0 {
		c, ok := findChange(r.Changes[0], p)
		if !ok || c.New.IsZero() {
			return stepResult{pass: -1}
		}
		return stepResult{node: true, folder: c.New, kind: ChangeCreated}
	}
	changes := make([]FolderChange, len(r.Parents))
	for k := range r.Parents {
		c, ok := findChange(r.Changes[k], p)
		if !ok {
			return stepResult{pass: k} // unchanged from this parent: follow it alone
		}
		changes[k] = c
	}
	res := stepResult{node: true, folder: changes[0].New}
	for k, c := range changes {
		switch {
		case !c.Old.IsZero():
			res.edges = append(res.edges, walkEdge{parent: r.Parents[k], path: p, folder: c.Old})
		case c.From != "":
			src, _ := findChange(r.Changes[k], c.From)
			res.edges = append(res.edges, walkEdge{parent: r.Parents[k], path: c.From, folder: src.Old})
		}
	}
	c := changes[0]
	switch {
	case len(r.Parents) > 1:
		res.kind = ChangeMerged
	case c.New.IsZero():
		res.kind = ChangeDeleted
	case !c.Old.IsZero():
		res.kind = ChangeModified
	case c.From == "":
		res.kind = ChangeCreated
	default:
		res.kind = moveKind(c.From, p)
	}
	return res
}

// moveKind names a folder move.
func moveKind(from, to string) string {
	fromArchived := strings.HasPrefix(from, skill.ArchiveDir+"/")
	toArchived := strings.HasPrefix(to, skill.ArchiveDir+"/")
	switch {
	case toArchived && !fromArchived:
		return ChangeArchived
	case fromArchived && !toArchived:
		return ChangeRestored
	case path.Base(from) != path.Base(to):
		return ChangeRenamed
	}
	return ChangeMoved
}

// walkItem is a (commit, folder) pair waiting in the walk's queue.
type walkItem struct {
	commit Hash
	path   string
	rel    string // blame only: the file's path inside the skill
	time   int64
	seq    int
}

// walkQueue orders items newest first; equal times keep insertion order.
type walkQueue []walkItem

func (q walkQueue) Len() int { return len(q) }
func (q walkQueue) Less(i, j int) bool {
	if q[i].time != q[j].time {
		return q[i].time > q[j].time
	}
	return q[i].seq < q[j].seq
}
func (q walkQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *walkQueue) Push(x any)   { *q = append(*q, x.(walkItem)) }
func (q *walkQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// walk follows the folder at dir from commit tip backwards and calls fn
// for every node, newest first, until fn returns false.
func (h *Index) walk(tip Hash, dir string, fn func(walkNode) bool) error {
	if err := h.chooseMode(tip); err != nil {
		return err
	}
	q := &walkQueue{}
	seen := map[string]bool{}
	seq := 0
	push := func(c Hash, p string) error {
		key := c.String() + "\x00" + p
		if seen[key] {
			return nil
		}
		seen[key] = true
		r, err := h.head(c)
		if err != nil {
			return err
		}
		seq++
		heap.Push(q, walkItem{commit: c, path: p, time: r.CommitTime, seq: seq})
		return nil
	}
	if err := push(tip, dir); err != nil {
		return err
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(walkItem)
		r, s, err := h.stepAt(it.commit, it.path)
		if err != nil {
			return err
		}
		if !s.node {
			if h.opts.MetaActions[r.Action] && slices.Contains(r.Names, path.Base(it.path)) {
				if !fn(walkNode{rec: r, path: it.path, kind: ChangeMeta}) {
					return nil
				}
			}
			if s.pass >= 0 {
				if err := push(r.Parents[s.pass], it.path); err != nil {
					return err
				}
			}
			continue
		}
		if !fn(walkNode{rec: r, path: it.path, folder: s.folder, kind: s.kind, edges: s.edges}) {
			return nil
		}
		for _, e := range s.edges {
			if err := push(e.parent, e.path); err != nil {
				return err
			}
		}
	}
	return nil
}

// walkAll calls fn for every commit reachable from tip, newest first,
// until fn returns false.
func (h *Index) walkAll(tip Hash, fn func(*Record) bool) error {
	q := &walkQueue{}
	seen := map[Hash]bool{}
	seq := 0
	push := func(c Hash) error {
		if seen[c] {
			return nil
		}
		seen[c] = true
		r, err := h.Record(c)
		if err != nil {
			return err
		}
		seq++
		heap.Push(q, walkItem{commit: c, time: r.CommitTime, seq: seq})
		return nil
	}
	if err := push(tip); err != nil {
		return err
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(walkItem)
		r := h.recs[it.commit]
		if !fn(r) {
			return nil
		}
		for _, p := range r.Parents {
			if err := push(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// folderPatch is the unified diff between a skill folder before (oldDir,
// oldTree; zero when created) and after (newDir, newTree; zero when
// deleted), file by file in path order, in git's format.
func (h *Index) folderPatch(oldDir string, oldTree Hash, newDir string, newTree Hash) (string, error) {
	if oldDir == "" {
		oldDir = newDir
	}
	if newDir == "" {
		newDir = oldDir
	}
	a, err := h.folderFiles(oldTree)
	if err != nil {
		return "", err
	}
	b, err := h.folderFiles(newTree)
	if err != nil {
		return "", err
	}
	names := map[string]bool{}
	for n := range a {
		names[n] = true
	}
	for n := range b {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	var out strings.Builder
	for _, n := range sorted {
		ha, hb := a[n], b[n]
		pa, pb := oldDir+"/"+n, newDir+"/"+n
		if ha == hb && pa == pb {
			continue
		}
		fmt.Fprintf(&out, "diff --git a/%s b/%s\n", pa, pb)
		switch {
		case ha.IsZero():
			out.WriteString("new file mode 100644\n")
		case hb.IsZero():
			out.WriteString("deleted file mode 100644\n")
		case pa != pb:
			if ha == hb {
				fmt.Fprintf(&out, "similarity index 100%%\nrename from %s\nrename to %s\n", pa, pb)
				continue
			}
			fmt.Fprintf(&out, "rename from %s\nrename to %s\n", pa, pb)
		}
		ta, err := h.blobText(ha)
		if err != nil {
			return "", err
		}
		tb, err := h.blobText(hb)
		if err != nil {
			return "", err
		}
		from, to := "a/"+pa, "b/"+pb
		if ha.IsZero() {
			from = "/dev/null"
		}
		if hb.IsZero() {
			to = "/dev/null"
		}
		if isBinary(ta) || isBinary(tb) {
			fmt.Fprintf(&out, "Binary files %s and %s differ\n", from, to)
			continue
		}
		hunks, err := merge.Unified([]byte(ta), []byte(tb), 3)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
		out.Write(hunks)
	}
	return out.String(), nil
}

func (h *Index) blobText(b Hash) (string, error) {
	if b.IsZero() {
		return "", nil
	}
	data, err := h.raw.read(gitstore.BlobObject, b)
	return string(data), err
}

// isBinary uses git's rule: a NUL byte in the first 8000 bytes.
func isBinary(s string) bool { return merge.IsBinary([]byte(s)) }

// movedAway reports whether the folder at p was moved elsewhere in the
// same change list.
func movedAway(changes []FolderChange, p string) bool {
	for _, c := range changes {
		if c.From == p {
			return true
		}
	}
	return false
}
