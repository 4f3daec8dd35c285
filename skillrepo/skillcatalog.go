package skillrepo

// The skill catalogue: the skill folders of one tree, kept per clone in
// .git/skillrepo/cache/skills.bin and brought to any other tree by the
// history index's hash-pruned tree diff (historyindex.go, diffDir), so
// listing the skills of a commit reads the folders that differ from the
// catalogue's tree, not every folder of the library. A write keys its
// usage event with it (usagekeys.go): a patch on a library of 10,000
// skills spent seven tenths of its CPU walking every skill folder to learn
// that no other folder has the patched skill's name
// (docs/architecture.md §5, the per-clone caches).
//
// The file is a base (a tree, its skills, and the FNV-1a hashes of their
// folder names, sorted, so "how many skills are named x" is a binary
// search that reads no record) followed by deltas, each "from tree A to
// tree B: these folders went, these came", appended with one write. A
// delta applies only to the state it names as its start, and every frame
// carries a CRC: a torn or foreign tail, or a delta appended to a file
// another process replaced meanwhile, ends the chain there, and the
// reader diffs from the last tree it could trust. Nothing in the file is
// taken on faith beyond its checksums: a base whose CRC fails, or a tree
// the store no longer has, makes the catalogue rebuild from the tree by
// the full walk.

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/skillrepo/skillrepo/internal/atomicfile"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

const (
	catalogMagic = "skillrepo skills 1\n"
	// catalogMaxDeltas bounds the deltas read after the base; more make
	// the next change rewrite the base.
	catalogMaxDeltas = 256 << 10
)

// skillCatalog is the catalogue as read: a base and the changes since.
type skillCatalog struct {
	path string
	// tree is the tree the catalogue describes (base plus deltas).
	tree Hash
	// base
	baseTree  Hash
	hashes    []uint64 // folder-name hashes of the base's skills, sorted
	recOff    int64    // where the base's records start in the file
	recLen    int64
	deltaOff  int64 // where the deltas start
	deltaSize int64 // the bytes of deltas read and applied
	// torn: bytes after the deltas applied (a torn or foreign frame):
	// the next change rewrites the file.
	torn bool
	// overlay: base folders gone since, folders added since (value:
	// archived).
	gone  map[string]bool
	added map[string]bool
	// all is the full list once read (nil until then).
	all []SkillInfo
}

// catalogCache is the library's catalogue, shared by its snapshots.
type catalogCache struct {
	mu sync.Mutex
	c  *skillCatalog
}

func (l *Library) catalogPath() string { return l.State().cache("skills.bin") }

// catalogAt returns the catalogue brought to tree, reading or building it
// as needed. Callers hold l.catalog.mu. A tree that is not in the
// repository (a dry run's) gets a copy of the catalogue, kept nowhere.
func (l *Library) catalogAt(store *gitstore.Store, tree Hash) (*skillCatalog, error) {
	persist := !l.readOnly && l.repo.Stored(tree)
	c := l.catalog.c
	if c == nil {
		c = readCatalog(l.catalogPath())
	}
	if c != nil && c.tree != tree {
		if !persist {
			c = c.clone()
		}
		if err := c.moveTo(store, tree, persist); err != nil {
			c = nil // a tree the store lacks, a damaged file: rebuild
		}
	}
	if c == nil {
		return l.rebuildCatalog(store, tree, persist)
	}
	if persist {
		l.catalog.c = c
	}
	return c, nil
}

// rebuildCatalog lists the skills of tree by the full walk and makes that
// the catalogue.
func (l *Library) rebuildCatalog(store *gitstore.Store, tree Hash, persist bool) (*skillCatalog, error) {
	all, err := discoverSkills(store, tree)
	if err != nil {
		return nil, err
	}
	c := newCatalog(l.catalogPath(), tree, all)
	if persist {
		_ = c.writeBase() // a cache: failing to save costs the next command time only
		l.catalog.c = c
	}
	return c, nil
}

// catalogSkills lists the skills of tree through the catalogue.
func (l *Library) catalogSkills(store *gitstore.Store, tree Hash) ([]SkillInfo, error) {
	l.catalog.mu.Lock()
	defer l.catalog.mu.Unlock()
	c, err := l.catalogAt(store, tree)
	if err != nil {
		return nil, err
	}
	all, err := c.skills()
	if err != nil { // damaged records
		if c, err = l.rebuildCatalog(store, tree, !l.readOnly && l.repo.Stored(tree)); err != nil {
			return nil, err
		}
		return c.skills()
	}
	return all, nil
}

// folderNameCount is how many skills of tree (active and archived) have
// the folder name name. A hash collision can only count too many.
func (l *Library) folderNameCount(store *gitstore.Store, tree Hash, name string) (int, error) {
	l.catalog.mu.Lock()
	defer l.catalog.mu.Unlock()
	c, err := l.catalogAt(store, tree)
	if err != nil {
		return 0, err
	}
	if c.all != nil {
		n := 0
		for _, si := range c.all {
			if si.Name == name {
				n++
			}
		}
		return n, nil
	}
	h := nameHash(name)
	i, _ := slices.BinarySearch(c.hashes, h)
	n := 0
	for ; i < len(c.hashes) && c.hashes[i] == h; i++ {
		n++
	}
	for d := range c.gone {
		if path.Base(d) == name {
			n--
		}
	}
	for d := range c.added {
		if path.Base(d) == name {
			n++
		}
	}
	return n, nil
}

func nameHash(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	return h
}

func newCatalog(p string, tree Hash, all []SkillInfo) *skillCatalog {
	c := &skillCatalog{path: p, tree: tree, baseTree: tree, all: all, gone: map[string]bool{}, added: map[string]bool{}}
	c.hashes = make([]uint64, len(all))
	for i, si := range all {
		c.hashes[i] = nameHash(si.Name)
	}
	slices.Sort(c.hashes)
	return c
}

// skills is the full list, sorted as discoverSkills sorts it.
func (c *skillCatalog) skills() ([]SkillInfo, error) {
	if c.all != nil {
		return c.all, nil
	}
	recs, err := c.readRecords()
	if err != nil {
		return nil, err
	}
	out := make([]SkillInfo, 0, len(recs)+len(c.added))
	for _, si := range recs {
		if !c.gone[si.Dir] {
			out = append(out, si)
		}
	}
	for d, archived := range c.added {
		out = append(out, catalogInfo(d, archived))
	}
	sortSkillInfos(out)
	c.all = out
	return out, nil
}

func sortSkillInfos(out []SkillInfo) {
	sort.Slice(out, func(i, j int) bool {
		if out[i].Archived != out[j].Archived {
			return !out[i].Archived
		}
		return out[i].Dir < out[j].Dir
	})
}

// catalogInfo is the SkillInfo of folder dir as discoverSkills makes it.
func catalogInfo(dir string, archived bool) SkillInfo {
	cat := path.Dir(dir)
	if cat == "." {
		cat = ""
	}
	if archived {
		cat = strings.TrimPrefix(strings.TrimPrefix(cat, ArchiveDir), "/")
	}
	return SkillInfo{Name: path.Base(dir), Dir: dir, Category: cat, Archived: archived}
}

// clone copies the catalogue's overlay (the base is shared: it is only
// read).
func (c *skillCatalog) clone() *skillCatalog {
	d := *c
	d.gone, d.added = maps.Clone(c.gone), maps.Clone(c.added)
	d.all = slices.Clone(c.all)
	return &d
}

// moveTo brings the catalogue to tree: the skill folders that differ
// between its tree and tree are listed again on both sides, and, when
// persist, the change is appended to the file as a delta.
func (c *skillCatalog) moveTo(store *gitstore.Store, tree Hash, persist bool) error {
	old, came, err := skillChanges(store, c.tree, tree)
	if err != nil {
		return err
	}
	gone := make([]string, len(old))
	for i, si := range old {
		gone[i] = si.Dir
	}
	prev := c.tree
	c.apply(gone, came)
	c.tree = tree
	if persist {
		_ = c.appendDelta(prev, tree, gone, came) // a cache: see catalogAt
	}
	return nil
}

// skillChanges lists the skills that differ between trees from and to:
// those of from in every skill folder the hash-pruned diff names (gone),
// and those of to there (came). A skill in both, changed or not, is in
// both lists.
func skillChanges(store *gitstore.Store, from, to Hash) (gone, came []SkillInfo, err error) {
	read := func(h Hash) (*rawTree, error) {
		b, err := store.RawTree(h)
		return &rawTree{data: b}, err
	}
	var changes []folderChange
	if err := diffSkillFolders(read, from, to, "", 0, &changes); err != nil {
		return nil, nil, err
	}
	for _, ch := range changes {
		old, err := skillsUnder(store, from, ch.Path)
		if err != nil {
			return nil, nil, err
		}
		now, err := skillsUnder(store, to, ch.Path)
		if err != nil {
			return nil, nil, err
		}
		gone = append(gone, old...)
		came = append(came, now...)
	}
	return gone, came, nil
}

// apply records that the folders gone went and came came.
func (c *skillCatalog) apply(gone []string, came []SkillInfo) {
	for _, d := range gone {
		if _, ok := c.added[d]; ok {
			delete(c.added, d)
		} else {
			c.gone[d] = true
		}
	}
	for _, si := range came {
		c.added[si.Dir] = si.Archived
	}
	if c.all != nil {
		goneSet := map[string]bool{}
		for _, d := range gone {
			goneSet[d] = true
		}
		all := make([]SkillInfo, 0, len(c.all)+len(came))
		for _, si := range c.all {
			if !goneSet[si.Dir] {
				all = append(all, si)
			}
		}
		all = append(all, came...)
		sortSkillInfos(all)
		c.all = all
	}
}

// skillsUnder lists the skills of root at or below folder p, as
// discoverSkills would find them there: nothing when p is hidden, inside
// a skill folder, or deeper than skills are looked for.
func skillsUnder(store *gitstore.Store, root Hash, p string) ([]SkillInfo, error) {
	var out []SkillInfo
	if root.IsZero() {
		return nil, nil
	}
	parts := strings.Split(p, "/")
	t, dir, depth, archived := root, "", 0, false
	for i, name := range parts {
		last := i == len(parts)-1
		if name == "" || (strings.HasPrefix(name, ".") && (i > 0 || name != ArchiveDir)) {
			return nil, nil
		}
		e, ok, err := store.Entry(t, name)
		if err != nil {
			return nil, err
		}
		if !ok || e.Mode != gitstore.ModeDir {
			return nil, nil
		}
		if i == 0 && name == ArchiveDir {
			if last {
				err := walkSkills(store, e.Hash, ArchiveDir, 1, true, &out)
				return out, err
			}
			t, dir, depth, archived = e.Hash, ArchiveDir, 1, true
			continue
		}
		sub, err := store.Tree(e.Hash)
		if err != nil {
			return nil, err
		}
		full := path.Join(dir, name)
		if hasSkillFile(sub) {
			if last {
				return []SkillInfo{catalogInfo(full, archived)}, nil
			}
			return nil, nil // inside a skill folder nothing is a skill
		}
		if depth >= 3 {
			return nil, nil
		}
		if last {
			err := walkSkills(store, e.Hash, full, depth+1, archived, &out)
			return out, err
		}
		t, dir, depth = e.Hash, full, depth+1
	}
	return out, nil
}

// The file: magic, base tree, skill count, records' length, the sorted
// name hashes, CRC of all that; the records (per skill: uvarint length,
// folder, archived byte), their CRC; then deltas, each a uint32 length,
// the payload (start tree, end tree, uvarint count and folders gone,
// uvarint count and folder+archived came) and its CRC.

// readCatalog reads the catalogue's base header and deltas; nil when the
// file is missing, damaged or not ours.
func readCatalog(p string) *skillCatalog {
	f, err := boundedread.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() > maxCacheFile {
		return nil
	}
	head := make([]byte, len(catalogMagic)+20+4+8)
	if _, err := io.ReadFull(f, head); err != nil || string(head[:len(catalogMagic)]) != catalogMagic {
		return nil
	}
	c := &skillCatalog{path: p, gone: map[string]bool{}, added: map[string]bool{}}
	b := head[len(catalogMagic):]
	copy(c.baseTree[:], b[:20])
	n := int64(binary.LittleEndian.Uint32(b[20:]))
	c.recLen = int64(binary.LittleEndian.Uint64(b[24:]))
	hashEnd := int64(len(head)) + 8*n
	if hashEnd+4+c.recLen+4 > fi.Size() || c.recLen < 0 {
		return nil
	}
	hb := make([]byte, 8*n+4)
	if _, err := io.ReadFull(f, hb); err != nil {
		return nil
	}
	crc := crc32.Update(crc32.ChecksumIEEE(head), crc32.IEEETable, hb[:8*n])
	if crc != binary.LittleEndian.Uint32(hb[8*n:]) {
		return nil
	}
	c.hashes = make([]uint64, n)
	for i := range c.hashes {
		c.hashes[i] = binary.LittleEndian.Uint64(hb[8*i:])
	}
	c.recOff = hashEnd + 4
	c.deltaOff = c.recOff + c.recLen + 4
	c.tree = c.baseTree
	size := fi.Size() - c.deltaOff
	if size > catalogMaxDeltas {
		c.torn = true
		return c // the base alone; the next change rewrites the file
	}
	c.deltaSize, c.torn = readDeltas(f, c.deltaOff, size, func(payload []byte) bool {
		from, to, gone, came, ok := decodeCatalogDelta(payload)
		if !ok || from != c.tree {
			return false
		}
		c.apply(gone, came)
		c.tree = to
		return true
	})
	return c
}

// readDeltas reads the deltas of a cache file (size bytes from off) and
// hands each frame's payload to apply, in order, until a frame is torn,
// fails its CRC, or apply refuses it. It returns the bytes of the frames
// applied and whether any bytes were left after them.
func readDeltas(f io.ReaderAt, off, size int64, apply func(payload []byte) bool) (int64, bool) {
	deltas := make([]byte, size)
	if _, err := f.ReadAt(deltas, off); err != nil && !errors.Is(err, io.EOF) {
		return 0, true
	}
	var used int64
	for len(deltas) >= 8 {
		n := int(binary.LittleEndian.Uint32(deltas))
		if n > len(deltas)-8 {
			break
		}
		payload := deltas[4 : 4+n]
		if crc32.ChecksumIEEE(payload) != binary.LittleEndian.Uint32(deltas[4+n:]) || !apply(payload) {
			break
		}
		deltas = deltas[8+n:]
		used += int64(8 + n)
	}
	return used, len(deltas) > 0
}

// appendDeltaFrame appends payload, framed, to the cache file at p, whose
// size must still be want (else another process changed it: left alone).
// It returns the frame's size.
func appendDeltaFrame(p string, want int64, payload []byte) (int64, error) {
	frame := binary.LittleEndian.AppendUint32(nil, uint32(len(payload)))
	frame = append(frame, payload...)
	frame = binary.LittleEndian.AppendUint32(frame, crc32.ChecksumIEEE(payload))
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() != want {
		return 0, errors.New("cache file changed meanwhile") // another process's: leave it
	}
	if _, err := f.Write(frame); err != nil {
		return 0, err
	}
	return int64(len(frame)), nil
}

// readRecords reads and checks the base's records.
func (c *skillCatalog) readRecords() ([]SkillInfo, error) {
	f, err := boundedread.Open(c.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, c.recLen+4)
	if _, err := f.ReadAt(b, c.recOff); err != nil {
		return nil, err
	}
	if crc32.ChecksumIEEE(b[:c.recLen]) != binary.LittleEndian.Uint32(b[c.recLen:]) {
		return nil, errors.New("skill catalogue: records damaged")
	}
	b = b[:c.recLen]
	out := make([]SkillInfo, 0, len(c.hashes))
	for len(b) > 0 {
		dir, rest, ok := catalogString(b)
		if !ok || len(rest) < 1 {
			return nil, errors.New("skill catalogue: records damaged")
		}
		out = append(out, catalogInfo(dir, rest[0] == 1))
		b = rest[1:]
	}
	if len(out) != len(c.hashes) {
		return nil, errors.New("skill catalogue: records damaged")
	}
	return out, nil
}

func catalogString(b []byte) (string, []byte, bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return "", nil, false
	}
	return string(b[k : k+int(n)]), b[k+int(n):], true
}

func appendCatalogString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func archivedByte(a bool) byte {
	if a {
		return 1
	}
	return 0
}

// writeBase writes the catalogue as a new base (a temp file renamed
// over the old one). c.all must be set.
func (c *skillCatalog) writeBase() error {
	var recs []byte
	for _, si := range c.all {
		recs = appendCatalogString(recs, si.Dir)
		recs = append(recs, archivedByte(si.Archived))
	}
	hashes := make([]uint64, len(c.all))
	for i, si := range c.all {
		hashes[i] = nameHash(si.Name)
	}
	slices.Sort(hashes)
	b := make([]byte, 0, len(catalogMagic)+32+8*len(hashes)+len(recs)+8)
	b = append(b, catalogMagic...)
	b = append(b, c.tree[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(c.all)))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(recs)))
	for _, h := range hashes {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	c.recOff = int64(len(b))
	b = append(b, recs...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(recs))
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(c.path, b, 0o644, false); err != nil {
		return err
	}
	c.baseTree, c.hashes, c.recLen = c.tree, hashes, int64(len(recs))
	c.deltaOff, c.deltaSize, c.torn = int64(len(b)), 0, false
	c.gone, c.added = map[string]bool{}, map[string]bool{}
	return nil
}

// appendDelta appends the move from tree from to tree to; when the
// deltas have grown past their bound, the base is rewritten instead.
func (c *skillCatalog) appendDelta(from, to Hash, gone []string, came []SkillInfo) error {
	payload := make([]byte, 0, 64)
	payload = append(payload, from[:]...)
	payload = append(payload, to[:]...)
	payload = binary.AppendUvarint(payload, uint64(len(gone)))
	for _, d := range gone {
		payload = appendCatalogString(payload, d)
	}
	payload = binary.AppendUvarint(payload, uint64(len(came)))
	for _, si := range came {
		payload = appendCatalogString(payload, si.Dir)
		payload = append(payload, archivedByte(si.Archived))
	}
	if c.torn || c.deltaSize+int64(len(payload))+8 > catalogMaxDeltas || len(c.gone)+len(c.added) > max(256, len(c.hashes)/8) {
		if _, err := c.skills(); err != nil {
			return err
		}
		return c.writeBase()
	}
	n, err := appendDeltaFrame(c.path, c.deltaOff+c.deltaSize, payload)
	c.deltaSize += n
	return err
}

func decodeCatalogDelta(b []byte) (from, to Hash, gone []string, came []SkillInfo, ok bool) {
	if len(b) < 40 {
		return
	}
	copy(from[:], b[:20])
	copy(to[:], b[20:40])
	b = b[40:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return
	}
	b = b[k:]
	for i := uint64(0); i < n; i++ {
		var d string
		if d, b, ok = catalogString(b); !ok {
			return
		}
		gone = append(gone, d)
	}
	n, k = binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return from, to, nil, nil, false
	}
	b = b[k:]
	for i := uint64(0); i < n; i++ {
		var d string
		if d, b, ok = catalogString(b); !ok || len(b) < 1 {
			return from, to, nil, nil, false
		}
		came = append(came, catalogInfo(d, b[0] == 1))
		b = b[1:]
	}
	return from, to, gone, came, len(b) == 0
}
