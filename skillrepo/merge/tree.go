package merge

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Mode is a git tree entry mode.
type Mode uint32

// The file modes a git tree holds.
const (
	ModeRegular    Mode = 0o100644
	ModeExecutable Mode = 0o100755
	ModeSymlink    Mode = 0o120000
	ModeSubmodule  Mode = 0o160000
)

// fileType folds the two regular modes together: a regular file can change
// its executable bit and still merge line by line.
func (m Mode) fileType() Mode {
	if m == ModeExecutable {
		return ModeRegular
	}
	return m
}

// Entry is one file of a tree.
type Entry struct {
	// ID names the content (a git blob hash); equal IDs mean equal content.
	ID   string
	Mode Mode
}

// Tree maps slash-separated file paths to entries. Only files appear:
// directories are implied by the paths.
type Tree map[string]Entry

// BlobReader reads content by [Entry.ID].
type BlobReader interface {
	ReadBlob(id string) ([]byte, error)
}

// Reason says why a path does not merge.
type Reason string

// The reasons a path can conflict.
const (
	// ReasonContent: both sides changed overlapping lines of a text file,
	// or both changed a symbolic link or submodule differently.
	ReasonContent Reason = "content"
	// ReasonAddAdd: both sides added the path with contents that do not
	// merge.
	ReasonAddAdd Reason = "add/add"
	// ReasonBinary: both sides changed a file that is not text.
	ReasonBinary Reason = "binary"
	// ReasonType: the sides disagree on the kind of file (regular, symbolic
	// link, submodule) or on the executable bit of a file both added.
	ReasonType Reason = "type"
	// ReasonModifyDelete: ours changed the file, theirs deleted it.
	ReasonModifyDelete Reason = "modify/delete"
	// ReasonDeleteModify: ours deleted the file, theirs changed it.
	ReasonDeleteModify Reason = "delete/modify"
	// ReasonFileDirectory: the merge would hold a file where another path
	// needs a directory.
	ReasonFileDirectory Reason = "file/directory"
)

// PathConflict is one path that does not merge.
type PathConflict struct {
	Path   string
	Reason Reason
	// Detail is a human sentence naming the sides (by their labels).
	Detail string
	// Text is the line merge with conflict markers, for content and add/add
	// conflicts of text files; nil otherwise.
	Text []byte
}

// Change is one path of the merge that differs from ours.
type Change struct {
	Path string
	// Deleted reports that the path is removed; Entry and Content are then
	// empty.
	Deleted bool
	// Entry is the merged entry. Its ID is empty when the content is new
	// (a line merge of both sides) and given in Content.
	Entry   Entry
	Content []byte
}

// TreeResult is the outcome of [MergeTrees].
type TreeResult struct {
	// Changes turn ours into the merge, sorted by path; nil when the merge
	// has conflicts, so a caller cannot half-apply it.
	Changes []Change
	// Conflicts lists every path that does not merge, sorted by path.
	Conflicts []PathConflict
}

// Clean reports a merge without conflicts.
func (r TreeResult) Clean() bool { return len(r.Conflicts) == 0 }

// MergeTrees merges the changes that ours and theirs made to base. Paths
// whose entry is equal in all three trees may be left out of all three (a
// caller walking large trees passes only the subtrees whose hashes differ);
// the result does not change. Blobs are read only for files both sides
// changed. The labels name the sides in conflict details and markers.
//
// It returns an error only when a blob cannot be read or a line merge
// fails; conflicts are part of the result.
func MergeTrees(base, ours, theirs Tree, blobs BlobReader, labels Labels) (TreeResult, error) {
	paths := make([]string, 0, len(ours)+len(theirs))
	for _, t := range []Tree{base, ours, theirs} {
		for p := range t {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)

	m := treeMerger{blobs: blobs, labels: labels}
	for _, p := range paths {
		if err := m.mergePath(p, lookup(base, p), lookup(ours, p), lookup(theirs, p)); err != nil {
			return TreeResult{}, fmt.Errorf("merge %s: %w", p, err)
		}
	}
	m.checkFileDirectory(ours)
	if len(m.conflicts) > 0 {
		slices.SortFunc(m.conflicts, func(a, b PathConflict) int { return strings.Compare(a.Path, b.Path) })
		return TreeResult{Conflicts: m.conflicts}, nil
	}
	return TreeResult{Changes: m.changes}, nil
}

func lookup(t Tree, p string) *Entry {
	if e, ok := t[p]; ok {
		return &e
	}
	return nil
}

func sameEntry(a, b *Entry) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

type treeMerger struct {
	blobs     BlobReader
	labels    Labels
	changes   []Change
	conflicts []PathConflict
}

func (m *treeMerger) conflict(p string, r Reason, text []byte, format string, args ...any) {
	m.conflicts = append(m.conflicts, PathConflict{Path: p, Reason: r, Detail: fmt.Sprintf(format, args...), Text: text})
}

// take records that the merge holds e (nil: nothing) at p, a change when it
// differs from ours.
func (m *treeMerger) take(p string, o, e *Entry, content []byte) {
	switch {
	case e == nil && o == nil:
	case e == nil:
		m.changes = append(m.changes, Change{Path: p, Deleted: true})
	case content == nil && sameEntry(o, e):
	default:
		m.changes = append(m.changes, Change{Path: p, Entry: *e, Content: content})
	}
}

func (m *treeMerger) mergePath(p string, b, o, t *Entry) error {
	switch {
	case sameEntry(o, t) || sameEntry(b, t):
		// Both sides agree, or theirs did not touch the path: ours stands.
		return nil
	case sameEntry(b, o):
		m.take(p, o, t, nil)
		return nil
	case o == nil:
		m.conflict(p, ReasonDeleteModify, nil, "deleted in %s, changed in %s", m.labels.Ours, m.labels.Theirs)
		return nil
	case t == nil:
		m.conflict(p, ReasonModifyDelete, nil, "changed in %s, deleted in %s", m.labels.Ours, m.labels.Theirs)
		return nil
	case o.Mode.fileType() != t.Mode.fileType():
		m.conflict(p, ReasonType, nil, "a %s in %s, a %s in %s", kindName(o.Mode), m.labels.Ours, kindName(t.Mode), m.labels.Theirs)
		return nil
	}

	// Both sides hold the path and changed it differently: merge the mode
	// and the content separately, as git does.
	mode, ok := mergeMode(b, o.Mode, t.Mode)
	if !ok {
		m.conflict(p, ReasonType, nil, "added as mode %o in %s and %o in %s", o.Mode, m.labels.Ours, t.Mode, m.labels.Theirs)
		return nil
	}
	switch {
	case o.ID == t.ID, b != nil && b.ID == t.ID:
		m.take(p, o, &Entry{ID: o.ID, Mode: mode}, nil)
		return nil
	case b != nil && b.ID == o.ID:
		m.take(p, o, &Entry{ID: t.ID, Mode: mode}, nil)
		return nil
	case o.Mode.fileType() != ModeRegular:
		m.conflict(p, ReasonContent, nil, "%s changed in both %s and %s", kindName(o.Mode), m.labels.Ours, m.labels.Theirs)
		return nil
	}
	return m.mergeText(p, b, o, t, mode)
}

// mergeMode merges the executable bit: a side that changed it wins; both
// sides adding the file with different modes do not merge.
func mergeMode(b *Entry, o, t Mode) (Mode, bool) {
	switch {
	case o == t:
		return o, true
	case b == nil:
		return 0, false
	case b.Mode == o:
		return t, true
	default:
		return o, true
	}
}

func kindName(m Mode) string {
	switch m.fileType() {
	case ModeSymlink:
		return "symbolic link"
	case ModeSubmodule:
		return "submodule"
	default:
		return "file"
	}
}

// mergeText line-merges a file both sides edited (or both added, against
// an empty base).
func (m *treeMerger) mergeText(p string, b, o, t *Entry, mode Mode) error {
	var baseText []byte
	if b != nil {
		var err error
		if baseText, err = m.blobs.ReadBlob(b.ID); err != nil {
			return fmt.Errorf("read base: %w", err)
		}
	}
	oursText, err := m.blobs.ReadBlob(o.ID)
	if err != nil {
		return fmt.Errorf("read %s: %w", m.labels.Ours, err)
	}
	theirsText, err := m.blobs.ReadBlob(t.ID)
	if err != nil {
		return fmt.Errorf("read %s: %w", m.labels.Theirs, err)
	}
	if IsBinary(baseText) || IsBinary(oursText) || IsBinary(theirsText) {
		m.conflict(p, ReasonBinary, nil, "binary file changed in both %s and %s", m.labels.Ours, m.labels.Theirs)
		return nil
	}
	res, err := Merge3Labels(baseText, oursText, theirsText, m.labels)
	if err != nil {
		return err
	}
	if !res.Clean {
		reason := ReasonContent
		if b == nil {
			reason = ReasonAddAdd
		}
		m.conflict(p, reason, res.Merged, "%d conflicting %s between %s and %s",
			len(res.Conflicts), plural(len(res.Conflicts), "region", "regions"), m.labels.Ours, m.labels.Theirs)
		return nil
	}
	switch {
	case bytes.Equal(res.Merged, oursText):
		m.take(p, o, &Entry{ID: o.ID, Mode: mode}, nil)
	case bytes.Equal(res.Merged, theirsText):
		m.take(p, o, &Entry{ID: t.ID, Mode: mode}, nil)
	default:
		m.take(p, o, &Entry{Mode: mode}, res.Merged)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// IsBinary applies git's rule: content with a NUL byte in its first 8,000
// bytes is not text.
func IsBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}

// checkFileDirectory finds merged files that sit where another merged path
// needs a directory (one side added "x", the other "x/y"). Ours is a valid
// tree, so every such clash involves a changed path: either a change lies
// below a merged file, or a change adds a file where merged paths need a
// directory.
func (m *treeMerger) checkFileDirectory(ours Tree) {
	if len(m.conflicts) > 0 {
		return
	}
	files := make(map[string]bool, len(m.changes)) // path -> present after the merge
	for _, c := range m.changes {
		files[c.Path] = !c.Deleted
	}
	isFile := func(p string) bool {
		if present, changed := files[p]; changed {
			return present
		}
		_, ok := ours[p]
		return ok
	}
	dirs := make(map[string]string) // directory -> one merged file inside it
	addDirs := func(p string) {
		for dir := path.Dir(p); dir != "." && dir != "/"; dir = path.Dir(dir) {
			if _, ok := dirs[dir]; ok {
				return
			}
			dirs[dir] = p
		}
	}
	for p := range ours {
		if isFile(p) {
			addDirs(p)
		}
	}
	for _, c := range m.changes {
		if !c.Deleted {
			addDirs(c.Path)
		}
	}
	seen := make(map[string]bool)
	for _, c := range m.changes {
		if c.Deleted {
			continue
		}
		clash := func(file, inside string) {
			if !seen[file] {
				seen[file] = true
				m.conflict(file, ReasonFileDirectory, nil, "a file here and %s inside it", inside)
			}
		}
		if inside, ok := dirs[c.Path]; ok {
			clash(c.Path, inside)
		}
		for dir := path.Dir(c.Path); dir != "." && dir != "/"; dir = path.Dir(dir) {
			if isFile(dir) {
				clash(dir, c.Path)
			}
		}
	}
}
