package history

// skill blame: for each line of a skill's file, the commit that last wrote
// it, with that commit's provenance.
//
// It is git's blame algorithm run over the history index instead of over
// every commit: the lines not yet explained ("suspects") sit at a (commit,
// folder) origin; the newest origin is taken from a queue; when the commit
// did not change the skill folder (or not this file) from a parent, all
// suspects move to that parent unchanged; otherwise the file is diffed
// against each parent's version (following the folder through renames
// and moves) and lines the parent already had move to it, first parent
// first; what no parent had was written by this commit. Origins that meet
// at the same commit merge, so a line changed on neither side of a merge
// is blamed once.

import (
	"container/heap"
	"fmt"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

// BlameOptions chooses where a blame starts (read by the library, which
// finds the skill there).
type BlameOptions struct {
	// Rev is the branch or commit to start from ("" = the main branch).
	Rev string
}

// BlameLine is one line of the file and the commit that last wrote it.
type BlameLine struct {
	// Line is the 1-based line number in the file at Rev; Text the line
	// without its newline.
	Line int
	Text string
	// OrigLine is the line's number in the commit that wrote it, and
	// Path the file's library path there (it moves with the skill).
	OrigLine int
	Path     string
	Commit   Hash

	AuthorName, AuthorEmail string
	AuthorDate, CommitDate  time.Time
	Subject                 string
	Action, Origin          string
	ReviewID, SessionID     string
	Model, CuratorRun       string
}

// Blame is the result of [Index.Blame].
type Blame struct {
	// Skill is the skill's folder at Rev; File the file inside it.
	Skill, File string
	Commit      Hash // the commit blamed from
	Lines       []BlameLine
	// Truncated: the library is a shallow clone and some lines are
	// attributed to a boundary commit, which may only have inherited
	// them (the older history is not in this clone).
	Truncated bool
}

// blameSuspect is a line not yet explained: its final number and its
// number in the current origin's version of the file (both 0-based).
type blameSuspect struct{ final, cur int }

type blameOrigin struct {
	commit   Hash
	dir      string
	rel      string // the file's path in the skill there: a moved file had another
	suspects []blameSuspect
}

// Blame attributes every line of the file rel of the skill folder dir at
// tip (as [Index.Locate] finds them; name is the skill asked for, for the
// error) to the commit that last wrote it, following the skill through
// renames, moves, archive and restore, and through merged proposals.
// Errors wrap gitstore.ErrNotFound for an unknown file.
func (h *Index) Blame(tip Hash, dir, rel, name string) (*Blame, error) {
	tipTree, err := h.treeOf(tip)
	if err != nil {
		return nil, err
	}
	folder, err := h.folderAt(tipTree, dir)
	if err != nil {
		return nil, err
	}
	blob, err := h.fileIn(folder, rel)
	if err != nil {
		return nil, err
	}
	if blob.IsZero() {
		return nil, fmt.Errorf("file %s of skill %q at %s: %w", rel, name, gitstore.ShortHash(tip), gitstore.ErrNotFound)
	}
	text, err := h.blobText(blob)
	if err != nil {
		return nil, err
	}
	if isBinary(text) {
		return nil, fmt.Errorf("%s/%s is a binary file: nothing to blame", dir, rel)
	}
	lines := splitLines(text)
	out := &Blame{Skill: dir, File: rel, Commit: tip, Lines: make([]BlameLine, len(lines))}
	for i, ln := range lines {
		out.Lines[i] = BlameLine{Line: i + 1, Text: strings.TrimSuffix(ln, "\n")}
	}
	if len(lines) == 0 {
		return out, nil
	}
	suspects := make([]blameSuspect, len(lines))
	for i := range suspects {
		suspects[i] = blameSuspect{final: i, cur: i}
	}
	if err := h.blame(tip, dir, rel, suspects, func(r *Record, dir, rel string, s blameSuspect) {
		bl := &out.Lines[s.final]
		bl.Commit = r.Hash
		bl.OrigLine = s.cur + 1
		bl.Path = dir + "/" + rel
		bl.AuthorName, bl.AuthorEmail = r.AuthorName, r.AuthorEmail
		bl.AuthorDate = time.Unix(r.AuthorTime, 0).In(time.FixedZone("", r.AuthorTZ))
		bl.CommitDate = time.Unix(r.CommitTime, 0).In(time.FixedZone("", r.CommitTZ))
		bl.Subject = r.Subject
		bl.Action, bl.Origin = r.Action, r.Origin
		bl.ReviewID, bl.SessionID = r.ReviewID, r.SessionID
		bl.Model, bl.CuratorRun = r.Model, r.CuratorRun
		if h.repo.IsShallow(r.Hash) {
			out.Truncated = true
		}
	}); err != nil {
		return nil, err
	}
	return out, nil
}

// blame runs the suspects back through history from (tip, dir) and calls
// assign for each line with the commit that wrote it. A file that appears
// in the skill in a commit that removed the very same content from
// another skill (the curator's move_file re-homing a sibling's reference
// into an umbrella) is followed to its old skill and path.
func (h *Index) blame(tip Hash, dir, rel string, suspects []blameSuspect, assign func(*Record, string, string, blameSuspect)) error {
	if err := h.chooseMode(tip); err != nil {
		return err
	}
	q := &walkQueue{}
	pending := map[string]*blameOrigin{}
	// Each version of the file is read as a node's and as its child's
	// parent version: split it into lines once.
	texts := map[Hash][]string{}
	linesOf := func(b Hash) ([]string, error) {
		if l, ok := texts[b]; ok {
			return l, nil
		}
		t, err := h.blobText(b)
		if err != nil {
			return nil, err
		}
		texts[b] = splitLines(t)
		return texts[b], nil
	}
	seq := 0
	add := func(c Hash, d, rel string, ss []blameSuspect) error {
		if len(ss) == 0 {
			return nil
		}
		key := c.String() + "\x00" + d + "\x00" + rel
		if o, ok := pending[key]; ok {
			o.suspects = append(o.suspects, ss...)
			return nil
		}
		r, err := h.head(c)
		if err != nil {
			return err
		}
		pending[key] = &blameOrigin{commit: c, dir: d, rel: rel, suspects: ss}
		seq++
		heap.Push(q, walkItem{commit: c, path: d, rel: rel, time: r.CommitTime, seq: seq})
		return nil
	}
	if err := add(tip, dir, rel, suspects); err != nil {
		return err
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(walkItem)
		key := it.commit.String() + "\x00" + it.path + "\x00" + it.rel
		o := pending[key]
		rel := o.rel
		delete(pending, key)
		r, s, err := h.stepAt(it.commit, it.path)
		if err != nil {
			return err
		}
		if !s.node {
			if s.pass >= 0 {
				if err := add(r.Parents[s.pass], it.path, rel, o.suspects); err != nil {
					return err
				}
				continue
			}
			for _, sp := range o.suspects { // the folder ends here: nothing older
				assign(r, it.path, rel, sp)
			}
			continue
		}
		blob, err := h.fileIn(s.folder, rel)
		if err != nil {
			return err
		}
		// A parent with the very same file takes every line.
		same := -1
		parentBlobs := make([]Hash, len(s.edges))
		for k, e := range s.edges {
			pb, err := h.fileIn(e.folder, rel)
			if err != nil {
				return err
			}
			parentBlobs[k] = pb
			if pb == blob && same < 0 {
				same = k
			}
		}
		if same >= 0 {
			if err := add(s.edges[same].parent, s.edges[same].path, rel, o.suspects); err != nil {
				return err
			}
			continue
		}
		// New in this skill: was it moved here from another one?
		if from, fromRel, ok, err := h.movedFrom(r, it.path, blob, parentBlobs); err != nil {
			return err
		} else if ok {
			if err := add(r.Parents[0], from, fromRel, o.suspects); err != nil {
				return err
			}
			continue
		}
		rest := o.suspects
		if len(s.edges) > 0 {
			curLines, err := linesOf(blob)
			if err != nil {
				return err
			}
			for k, e := range s.edges {
				if len(rest) == 0 || parentBlobs[k].IsZero() {
					continue
				}
				pl, err := linesOf(parentBlobs[k])
				if err != nil {
					return err
				}
				passed, kept := passLines(diffLines(pl, curLines), rest)
				if err := add(e.parent, e.path, rel, passed); err != nil {
					return err
				}
				rest = kept
			}
		}
		for _, sp := range rest {
			assign(r, it.path, rel, sp)
		}
	}
	return nil
}

// movedFrom finds where a file new to skill folder dir in commit r came
// from: another skill folder that r changed against its first parent and
// that held the very same blob there (a move_file). ok is false when the
// file is new in every sense, or was in dir's folder already.
func (h *Index) movedFrom(r *Record, dir string, blob Hash, parentBlobs []Hash) (from, rel string, ok bool, err error) {
	if blob.IsZero() || len(r.Parents) == 0 || len(r.Changes) == 0 {
		return "", "", false, nil
	}
	for _, pb := range parentBlobs {
		if !pb.IsZero() {
			return "", "", false, nil
		}
	}
	for _, c := range r.Changes[0] {
		if c.Path == dir || c.Old.IsZero() {
			continue
		}
		rel, found, err := h.findBlob(c.Old, "", blob, 0)
		if err != nil || found {
			return c.Path, rel, found, err
		}
	}
	return "", "", false, nil
}

// findBlob looks for blob in the support folders of a skill folder's
// tree (depth-bounded); rel is its path inside the skill.
func (h *Index) findBlob(tree Hash, prefix string, blob Hash, depth int) (string, bool, error) {
	if depth > 4 {
		return "", false, nil
	}
	t, err := h.raw.tree(tree)
	if err != nil {
		return "", false, err
	}
	entries, err := t.all()
	if err != nil {
		return "", false, err
	}
	for _, e := range entries {
		name := string(e.name)
		if prefix != "" {
			name = prefix + "/" + name
		}
		if !e.dir && e.hash == blob && prefix != "" {
			return name, true, nil
		}
	}
	for _, e := range entries {
		if !e.dir {
			continue
		}
		name := string(e.name)
		if prefix != "" {
			name = prefix + "/" + name
		}
		if rel, ok, err := h.findBlob(e.hash, name, blob, depth+1); err != nil || ok {
			return rel, ok, err
		}
	}
	return "", false, nil
}

// passLines splits suspects by an edit script from the parent's lines to
// the current ones: lines inside an equal run move to the parent (with
// their parent line number); the others stay.
func passLines(ops []lineOp, suspects []blameSuspect) (passed, kept []blameSuspect) {
	// parentOf[i] is the parent line of current line i, or -1.
	n := 0
	for _, op := range ops {
		if op.kind != '-' {
			n += op.n
		}
	}
	parentOf := make([]int, n)
	pi, ci := 0, 0
	for _, op := range ops {
		switch op.kind {
		case '=':
			for k := 0; k < op.n; k++ {
				parentOf[ci] = pi
				ci++
				pi++
			}
		case '-':
			pi += op.n
		case '+':
			for k := 0; k < op.n; k++ {
				parentOf[ci] = -1
				ci++
			}
		}
	}
	for _, s := range suspects {
		if s.cur < len(parentOf) && parentOf[s.cur] >= 0 {
			passed = append(passed, blameSuspect{final: s.final, cur: parentOf[s.cur]})
		} else {
			kept = append(kept, s)
		}
	}
	return passed, kept
}
