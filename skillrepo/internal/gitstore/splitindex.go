package gitstore

// git's split index (core.splitIndex, docs/git-format.md §4): the entries
// live in a shared index, .git/sharedindex.<sha1>, that is rewritten
// rarely, and .git/index holds only what changed since, plus the "link"
// extension: the shared index's SHA-1 (its file's trailing checksum), a
// bitmap of its entries deleted and one of its entries replaced. The
// entries of .git/index are the replacements first, in the shared index's
// order and with empty names (the name is the replaced entry's), then the
// entries added, in git's order. Reading applies them as git does:
// replacements, then deletions, then the added entries, each taking the
// place of an entry with its name and stage, and a stage-0 one dropping
// the conflict stages of its path.
//
// Writing one keeps it split, so a write to a project of 50,000 files
// writes a few entries instead of 5 MB (bench/README.md). git's rules are
// followed: core.splitIndex=false writes the index whole; true splits an
// unsplit index (a new shared index); unset leaves the index as it was.
// A new shared index is written when the entries not in the shared one
// exceed splitIndex.maxPercentChange (default 20) percent of all; it is
// written to a temp file, made durable and renamed into place before
// .git/index names it. No sharedindex file is ever removed: git expires
// old ones itself, and the one in use is freshened (its time set to now)
// on each write, as git does, so that git does not expire it.

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// splitBase is the shared index a split index's entries were merged with.
type splitBase struct {
	hash plumbing.Hash // .git/sharedindex.<hash>
	n    int           // its entries
	// own: raw[:own] is the shared index's own bytes; an entry there is
	// one of its entries, unchanged. Entries after it were replaced or
	// added by .git/index.
	own uint32
	// pos is, per entry (as offs), its position in the shared index plus
	// one; 0 for an entry that is not there.
	pos []uint32
}

// IndexError is a .git/index that cannot be read, with the way out.
type IndexError struct {
	Msg, Fix string
}

func (e *IndexError) Error() string { return e.Msg }

// Hint says how to repair the index.
func (e *IndexError) Hint() string { return e.Fix }

func (l *Repo) sharedIndexPath(h plumbing.Hash) string {
	return filepath.Join(l.GitDir, "sharedindex."+h.String())
}

// mergeSharedIndex reads the shared index the link extension of split
// names and returns the index git would see.
func (l *Repo) mergeSharedIndex(split *Index, link []byte) (*Index, error) {
	if len(link) < 20 {
		return nil, fmt.Errorf("%w: link extension too short", errIndexCorrupt)
	}
	var h plumbing.Hash
	copy(h[:], link)
	if h.IsZero() {
		// A split index that needs no shared index yet: every entry is
		// here, and the next write makes a shared one (as git does).
		if err := split.checkOrder(); err != nil {
			return nil, err
		}
		split.splitOn = true
		return split, nil
	}
	path := l.sharedIndexPath(h)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &IndexError{
			Msg: fmt.Sprintf("read index: .git/index is a split index (core.splitIndex) whose shared index %s is missing; nothing was written", path),
			Fix: "restore that file if you can; otherwise rebuild the index from HEAD with 'rm .git/index && git reset' (the work tree is kept; staged changes are lost)",
		}
	}
	if err != nil {
		return nil, fmt.Errorf("read shared index: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read shared index: %w", err)
	}
	// Mapped when large, as .git/index is (indexmmap.go): a project's
	// shared index holds all of its 50,000 entries. Shared index files
	// are never rewritten (git names them by their content).
	b, mapping, err := readIndexBytes(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("read shared index: %w", err)
	}
	// git checks the shared index is the one named: its trailing SHA-1.
	if len(b) < 20 || !bytes.Equal(b[len(b)-20:], h[:]) {
		return nil, fmt.Errorf("%w: %s does not end with its SHA-1 %s", errIndexCorrupt, path, h)
	}
	// Its order is checked once merged (mergeSplit), not twice.
	shared, sharedLink, err := decodeIndexEntries(b)
	if err != nil {
		return nil, fmt.Errorf("read shared index %s: %w", path, err)
	}
	if sharedLink != nil {
		return nil, fmt.Errorf("%w: shared index %s is itself split", errIndexCorrupt, path)
	}
	n := len(shared.offs)
	var del, rep []uint32
	if rest := link[20:]; len(rest) > 0 {
		var k int
		if del, k, err = decodeEWAH(rest, n); err != nil {
			return nil, fmt.Errorf("%w: delete bitmap of the link extension: %v", errIndexCorrupt, err)
		}
		rest = rest[k:]
		if rep, k, err = decodeEWAH(rest, n); err != nil {
			return nil, fmt.Errorf("%w: replace bitmap of the link extension: %v", errIndexCorrupt, err)
		}
		if k != len(rest) {
			return nil, fmt.Errorf("%w: garbage at the end of the link extension", errIndexCorrupt)
		}
	}
	idx, err := mergeSplit(shared, split, del, rep)
	if err != nil {
		return nil, err
	}
	idx.split.hash = h
	idx.mapping = mapping
	return idx, nil
}

// mergeSplit applies the entries of split (replacements, then additions)
// and the deletions to shared, as git's merge_base_index does.
func mergeSplit(shared, split *Index, del, rep []uint32) (*Index, error) {
	n := len(shared.offs)
	nr := len(rep)
	if nr > len(split.offs) {
		return nil, fmt.Errorf("%w: %d replacements, %d entries", errIndexCorrupt, nr, len(split.offs))
	}
	for k := range split.offs {
		if empty := len(split.rawName(k)) == 0; empty != (k < nr) {
			return nil, fmt.Errorf("%w: split index entry %d should have %s name", errIndexCorrupt, k, map[bool]string{true: "an empty", false: "a"}[k < nr])
		}
	}
	version := shared.Version
	if split.Version > version {
		version = split.Version
	}
	deleted := make([]bool, n)
	for _, p := range del {
		deleted[p] = true
	}
	// The shared index's entries stay where they are (a mapping,
	// perhaps); the split's go to more, after them in the offsets.
	own := uint32(len(shared.raw))
	more := make([]byte, 0, 2*len(split.raw))
	offs := make([]uint32, 0, n+len(split.offs)-nr)
	pos := make([]uint32, 0, cap(offs))
	add := func(k int, basePos uint32) {
		s := int(split.offs[k])
		e, _ := split.entryEnd(s) // checked by decodeIndexFile
		offs = append(offs, own+uint32(len(more)))
		pos = append(pos, basePos)
		more = append(more, split.raw[s:e]...)
	}
	cmp := func(k int, name []byte, stage int) int {
		if c := bytes.Compare(split.rawName(k), name); c != 0 {
			return c
		}
		return split.rawStage(k) - stage
	}
	var dropName []byte // a stage-0 entry was added for it: its other stages go
	ai, ri := nr, 0
	for i := 0; i < n; i++ {
		replaced := ri < nr && rep[ri] == uint32(i)
		k := ri
		if replaced {
			ri++
		}
		if deleted[i] { // replaced and deleted: deleted, as in git
			continue
		}
		name, stage := shared.rawName(i), shared.rawStage(i)
		for ; ai < len(split.offs) && cmp(ai, name, stage) < 0; ai++ {
			add(ai, 0)
			if split.rawStage(ai) == 0 {
				dropName = split.rawName(ai)
			}
		}
		if dropName != nil && bytes.Equal(name, dropName) {
			continue
		}
		if ai < len(split.offs) && cmp(ai, name, stage) == 0 {
			add(ai, uint32(i+1)) // takes the entry's place, as in git
			if stage == 0 {
				dropName = name
			}
			ai++
			continue
		}
		if replaced {
			e := split.rawEntry(k)
			e.Name = string(name)
			offs = append(offs, own+uint32(len(more)))
			pos = append(pos, uint32(i+1))
			more = appendIndexEntry(more, e, version)
			continue
		}
		offs = append(offs, shared.offs[i])
		pos = append(pos, uint32(i+1))
	}
	for ; ai < len(split.offs); ai++ {
		add(ai, 0)
	}
	if uint64(own)+uint64(len(more)) > math.MaxUint32 {
		return nil, fmt.Errorf("%w: merged index larger than 4 GB", errIndexCorrupt)
	}
	idx := &Index{Version: version, v4: split.v4, raw: shared.raw, more: more, offs: offs, splitOn: true,
		split: &splitBase{n: n, own: own, pos: pos}}
	if err := idx.checkOrder(); err != nil {
		return nil, err
	}
	return idx, nil
}

// splitConfig is how git is told to split the index.
type splitConfig struct {
	mode       int // -1 unset (or not a boolean), 0 false, 1 true
	maxPercent int // splitIndex.maxPercentChange, 0..100
}

// readSplitConfig is the split settings of the config the write read
// for its conversions (read once per write, tx.go).
func (l *Repo) readSplitConfig() splitConfig {
	return l.converter().cfg.split
}

// splitConfigFrom picks core.splitIndex and splitIndex.maxPercentChange
// out of the config values.
func splitConfigFrom(vals map[string]string) splitConfig {
	c := splitConfig{mode: -1, maxPercent: 20}
	if v, ok := vals["core.splitindex"]; ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true", "yes", "on", "1", "":
			c.mode = 1
		case "false", "no", "off", "0":
			c.mode = 0
		}
	}
	// git ignores a value outside 0..100 (it warns) and uses the default.
	if v, err := strconv.Atoi(strings.TrimSpace(vals["splitindex.maxpercentchange"])); err == nil && v >= 0 && v <= 100 {
		c.maxPercent = v
	}
	return c
}

// indexWriter returns what writes idx as .git/index, following git's
// rules for a split index; a new shared index it needs is written first.
func (l *Repo) indexWriter(idx *Index) (func(io.Writer) error, error) {
	cfg := l.readSplitConfig()
	if cfg.mode == 0 || (!idx.splitOn && cfg.mode != 1) {
		return idx.writeTo, nil
	}
	if idx.split != nil {
		p := idx.planSplit()
		total := p.kept + len(p.added)
		tooMany := cfg.maxPercent == 0 || (cfg.maxPercent < 100 && int64(total)*int64(cfg.maxPercent) < int64(len(p.added))*100)
		if !tooMany {
			// As git does: keep the shared index from expiring.
			now := time.Now()
			_ = os.Chtimes(l.sharedIndexPath(idx.split.hash), now, now)
			return func(w io.Writer) error { return idx.writeSplit(w, p) }, nil
		}
	}
	h, err := l.writeSharedIndex(idx)
	if err != nil {
		return nil, fmt.Errorf("write shared index: %w", err)
	}
	empty := &splitPlan{hash: h}
	return func(w io.Writer) error { return idx.writeSplit(w, empty) }, nil
}

// writeSharedIndex writes idx whole, without extensions, as a new
// .git/sharedindex.<sha1>: temp file, fsync, rename, fsync of the folder,
// always (a rare write), so that .git/index never names a file a crash
// could lose.
func (l *Repo) writeSharedIndex(idx *Index) (plumbing.Hash, error) {
	var buf bytes.Buffer
	if err := idx.writeTo(&buf); err != nil {
		return plumbing.ZeroHash, err
	}
	b := buf.Bytes()
	var h plumbing.Hash
	copy(h[:], b[len(b)-20:])
	path := l.sharedIndexPath(h)
	if _, err := os.Stat(path); err == nil {
		return h, nil // the same entries: git named it by its content
	}
	// The temp file is in our tmp folder (same file system), which
	// recovery empties, so a killed write leaves no debris in .git.
	tmpDir := filepath.Join(l.repoStateDir(), "tmp")
	if err := os.MkdirAll(tmpDir, 0o755); err != nil {
		return plumbing.ZeroHash, err
	}
	f, err := os.CreateTemp(tmpDir, "sharedindex-")
	if err != nil {
		return plumbing.ZeroHash, err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return plumbing.ZeroHash, err
	}
	syncDir(l.GitDir)
	return h, nil
}

// splitPlan is what .git/index holds over its shared index.
type splitPlan struct {
	hash plumbing.Hash
	// rep: positions replaced, increasing; repE: the entries that replace
	// them (raw entry index, or an edit).
	rep  []uint32
	repE []splitEntry
	del  []uint32
	// added: entries not in the shared index, in git's order.
	added []splitEntry
	kept  int // entries of the shared index still in the index
}

// splitEntry is an entry to write: raw entry i, or e when not nil.
type splitEntry struct {
	i int
	e *indexEntry
}

// planSplit works out the replacements, deletions and additions that make
// the shared index into idx with its edits, as git's
// prepare_to_write_split_index does: an edit of a path whose stage-0
// entry is shared replaces that entry; any other shared entry of an
// edited path is deleted; the rest is added.
func (idx *Index) planSplit() *splitPlan {
	defer runtime.KeepAlive(idx)
	sb := idx.split
	p := &splitPlan{hash: sb.hash}
	// The raw entries of edited paths, in order.
	var edited []int
	names := make([]string, 0, len(idx.edits))
	for name := range idx.edits {
		names = append(names, name)
		for i := idx.search(name); i < len(idx.offs) && string(idx.rawName(i)) == name; i++ {
			edited = append(edited, i)
		}
	}
	sort.Ints(edited)
	sort.Strings(names)
	consumed := map[string]bool{}
	present := make([]bool, sb.n)
	var addedRaw []int
	next := 0
	for i := range idx.offs {
		bp := sb.pos[i]
		if next < len(edited) && edited[next] == i {
			next++
			name := string(idx.rawName(i))
			if e := idx.edits[name]; e != nil && bp > 0 && idx.rawStage(i) == 0 {
				present[bp-1] = true
				p.rep = append(p.rep, bp-1)
				p.repE = append(p.repE, splitEntry{e: e})
				consumed[name] = true
			}
			continue
		}
		if bp == 0 {
			addedRaw = append(addedRaw, i)
			continue
		}
		present[bp-1] = true
		if idx.offs[i] >= sb.own {
			p.rep = append(p.rep, bp-1)
			p.repE = append(p.repE, splitEntry{i: i})
		}
	}
	for i, ok := range present {
		if ok {
			p.kept++
		} else {
			p.del = append(p.del, uint32(i))
		}
	}
	// Replacements were found in name order, which is the shared index's.
	sort.Sort(repByPos{p})
	// Added: the raw ones (in order) merged with new edits (sorted names;
	// no raw added entry has an edited name).
	k := 0
	for _, name := range names {
		e := idx.edits[name]
		if e == nil || consumed[name] {
			continue
		}
		for ; k < len(addedRaw) && string(idx.rawName(addedRaw[k])) < name; k++ {
			p.added = append(p.added, splitEntry{i: addedRaw[k]})
		}
		p.added = append(p.added, splitEntry{e: e})
	}
	for ; k < len(addedRaw); k++ {
		p.added = append(p.added, splitEntry{i: addedRaw[k]})
	}
	return p
}

type repByPos struct{ p *splitPlan }

func (r repByPos) Len() int           { return len(r.p.rep) }
func (r repByPos) Less(i, j int) bool { return r.p.rep[i] < r.p.rep[j] }
func (r repByPos) Swap(i, j int) {
	r.p.rep[i], r.p.rep[j] = r.p.rep[j], r.p.rep[i]
	r.p.repE[i], r.p.repE[j] = r.p.repE[j], r.p.repE[i]
}

// writeSplit writes .git/index as a split index over p's shared index:
// the replacements (names emptied), the added entries, the link
// extension, the SHA-1.
func (idx *Index) writeSplit(w io.Writer, p *splitPlan) error {
	defer runtime.KeepAlive(idx)
	version := idx.Version
	if version < 2 || version > 3 {
		version = 2
	}
	body := make([]byte, 12, 4096)
	copy(body, "DIRC")
	binary.BigEndian.PutUint32(body[4:], version)
	binary.BigEndian.PutUint32(body[8:], uint32(len(p.repE)+len(p.added)))
	for _, r := range p.repE {
		e := r.e
		if e == nil {
			e = idx.rawEntry(r.i)
		}
		stripped := *e
		stripped.Name = ""
		body = appendIndexEntry(body, &stripped, version)
	}
	for _, a := range p.added {
		if a.e != nil {
			body = appendIndexEntry(body, a.e, version)
			continue
		}
		s := int(idx.offs[a.i])
		end, _ := idx.entryEnd(s) // checked by decodeIndexFile
		body = append(body, idx.rawBytes(s, end)...)
	}
	link := append([]byte(nil), p.hash[:]...)
	link = appendEWAH(link, p.del)
	link = appendEWAH(link, p.rep)
	ext := make([]byte, 8, 8+len(link))
	copy(ext, "link")
	binary.BigEndian.PutUint32(ext[4:], uint32(len(link)))
	ext = append(ext, link...)
	if idx.v4 {
		return compressV4(w, body, ext)
	}
	body = append(body, ext...)
	sum := sha1.Sum(body)
	if _, err := w.Write(body); err != nil {
		return err
	}
	_, err := w.Write(sum[:])
	return err
}

// splitIndexAdviceEntries is the index size from which init suggests
// git's split index: about 2 MB of index rewritten by every write.
const splitIndexAdviceEntries = 20000

// SplitIndexAdvice returns a one-line suggestion to turn on git's split
// index when the repository's index is large, not split, and
// core.splitIndex is unset (the user has not chosen); "" otherwise.
func (l *Repo) SplitIndexAdvice() string {
	vals, _, _ := l.gitConfigValues() // outside a write: read now
	if splitConfigFrom(vals).mode != -1 {
		return ""
	}
	idx, _, err := l.ReadIndex()
	if err != nil || idx.splitOn || len(idx.offs) < splitIndexAdviceEntries {
		return ""
	}
	return fmt.Sprintf("this repository's index has %d entries, which every write (git's and skillrepo's) rewrites whole; 'git config core.splitIndex true' makes writes cheaper for both (docs/project-libraries.md)", len(idx.offs))
}
