// Package catalog is the domain's room for listing skills (docs/architecture.md
// §1): the walk that finds the skill folders of a tree, the hash-pruned
// diff that says which differ between two trees, and the skill catalogue
// kept per clone.
//
// The skill catalogue: the skill folders of one tree, kept per clone in
// .git/skillrepo/cache/skills.bin and brought to any other tree by the
// history index's hash-pruned tree diff (history.SkillFolderChanges), so
// listing the skills of a commit reads the folders that differ from the
// catalogue's tree, not every folder of the library. A write keys its
// usage event with it (the domain's usagekeys.go): a patch on a library of 10,000
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

package catalog

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/deltalog"
	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/skillrepo/history"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

const (
	// Magic starts the file: its format and version.
	Magic = "skillrepo skills 2\n"
	// catalogMaxDeltas bounds the deltas read after the base; more make
	// the next change rewrite the base.
	catalogMaxDeltas = 256 << 10
)

// skillCatalog is the catalogue as read: a base and the changes since.
type skillCatalog struct {
	path string
	// tree is the tree the catalogue describes (base plus deltas).
	tree gitstore.Hash
	// base
	baseTree  gitstore.Hash
	hashes    []uint64 // folder-name hashes of the base's skills, sorted
	recOff    int64    // where the base's records start in the file
	recLen    int64
	deltaOff  int64 // where the deltas start
	deltaSize int64 // the bytes of deltas read and applied
	// torn: bytes after the deltas applied (a torn or foreign frame):
	// the next change rewrites the file.
	torn bool
	// overlay: base folders gone since, folders added since.
	gone  map[string]bool
	added map[string]catalogAdded
	// all is the full list once read (nil until then).
	all []SkillInfo
	// named: the declared name (SKILL.md's frontmatter name as YAML
	// reads it) of every active skill is known; declared holds them by
	// folder once the full list is read.
	named    bool
	declared map[string]string
	// declaredHashes are the base's active skills' declared names'
	// hashes, sorted (named catalogues only).
	declaredHashes []uint64
}

// catalogAdded is a folder added since the base.
type catalogAdded struct {
	archived bool
	declared string
}

// At names a tree to list and where its catalogue is kept: Store reads
// the tree, Path is the catalogue's file, and Persist says the tree is in
// the repository and the clone may be written (a dry run's tree, or a
// read-only library, gets a copy of the catalogue, kept nowhere).
type At struct {
	Store   *gitstore.Store
	Tree    gitstore.Hash
	Path    string
	Persist bool
}

// Cache is a library's catalogue, shared by its snapshots. The zero value
// is ready; it is safe for concurrent use.
type Cache struct {
	mu sync.Mutex
	c  *skillCatalog
}

// at returns the catalogue brought to at.Tree, reading or building it as
// needed. Callers hold k.mu.
func (k *Cache) at(at At) (*skillCatalog, error) {
	c := k.c
	if c == nil {
		c = readCatalog(at.Path)
	}
	if c != nil && c.tree != at.Tree {
		if !at.Persist {
			c = c.clone()
		}
		if err := c.moveTo(at.Store, at.Tree, at.Persist); err != nil {
			c = nil // a tree the store lacks, a damaged file: rebuild
		}
	}
	if c == nil {
		return k.rebuild(at)
	}
	if at.Persist {
		k.c = c
	}
	return c, nil
}

// rebuild lists the skills of the tree by the full walk and makes that
// the catalogue.
func (k *Cache) rebuild(at At) (*skillCatalog, error) {
	all, err := Discover(at.Store, at.Tree)
	if err != nil {
		return nil, err
	}
	c := newCatalog(at.Path, at.Tree, all)
	if at.Persist {
		_ = c.writeBase() // a cache: failing to save costs the next command time only
		k.c = c
	}
	return c, nil
}

// Skills lists the skills of the tree through the catalogue.
func (k *Cache) Skills(at At) ([]SkillInfo, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	c, err := k.at(at)
	if err != nil {
		return nil, err
	}
	all, err := c.skills()
	if err != nil { // damaged records
		if c, err = k.rebuild(at); err != nil {
			return nil, err
		}
		return c.skills()
	}
	return all, nil
}

// FolderNameCount is how many skills of the tree (active and archived)
// have the folder name name. A hash collision can only count too many.
func (k *Cache) FolderNameCount(at At, name string) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	c, err := k.at(at)
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

// Declaring lists the active skills of the tree whose SKILL.md declares
// the name name (its frontmatter, as YAML reads it). The first call on a
// catalogue that does not keep declared names reads every active
// SKILL.md once and keeps them; later calls read only what changed.
func (k *Cache) Declaring(at At, name string) ([]SkillInfo, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	c, err := k.at(at)
	if err != nil {
		return nil, err
	}
	all, err := c.skills()
	if err != nil {
		return nil, err
	}
	if !c.named {
		names, err := declaredNames(at.Store, at.Tree, all)
		if err != nil {
			return nil, err
		}
		c.named, c.declared = true, names
		if at.Persist && c.tree == at.Tree {
			_ = c.writeBase() // a cache: see at
		}
	}
	var out []SkillInfo
	for _, si := range all {
		if !si.Archived && c.declared[si.Dir] == name {
			out = append(out, si)
		}
	}
	return out, nil
}

// SurelyNoneNamed reports, without reading the catalogue's records,
// that the tree holds no skill the domain's findSkill could find by name: no skill folder
// of that name, no .archive/<name> or .archive/<name>-… skill, and no
// active skill declaring it. false means "look" (hash collisions and
// skills taken out since the base only make it look).
func (k *Cache) SurelyNoneNamed(at At, name string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	c, err := k.at(at)
	if err != nil || !c.named || c.all != nil {
		return false // unknown, or the full list is at hand anyway
	}
	h := nameHash(name)
	if _, found := slices.BinarySearch(c.hashes, h); found {
		return false
	}
	if _, found := slices.BinarySearch(c.declaredHashes, h); found {
		return false
	}
	for d, a := range c.added {
		if path.Base(d) == name || (!a.archived && a.declared == name) {
			return false
		}
	}
	arch, ok, err := at.Store.Entry(at.Tree, skill.ArchiveDir)
	if err != nil {
		return false
	}
	if ok && arch.Mode == gitstore.ModeDir {
		entries, err := at.Store.Tree(arch.Hash)
		if err != nil {
			return false
		}
		for _, e := range entries {
			if e.Mode == gitstore.ModeDir && (e.Name == name || strings.HasPrefix(e.Name, name+"-")) {
				return false
			}
		}
	}
	return true
}

func nameHash(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	return h
}

func newCatalog(p string, tree gitstore.Hash, all []SkillInfo) *skillCatalog {
	c := &skillCatalog{path: p, tree: tree, baseTree: tree, all: all, gone: map[string]bool{}, added: map[string]catalogAdded{}}
	c.hashes = make([]uint64, len(all))
	for i, si := range all {
		c.hashes[i] = nameHash(si.Name)
	}
	slices.Sort(c.hashes)
	return c
}

// skills is the full list, sorted as Discover sorts it.
func (c *skillCatalog) skills() ([]SkillInfo, error) {
	if c.all != nil {
		return c.all, nil
	}
	recs, declared, err := c.readRecords()
	if err != nil {
		return nil, err
	}
	out := make([]SkillInfo, 0, len(recs)+len(c.added))
	for _, si := range recs {
		if !c.gone[si.Dir] {
			out = append(out, si)
		} else {
			delete(declared, si.Dir)
		}
	}
	for d, a := range c.added {
		out = append(out, catalogInfo(d, a.archived))
		if c.named && !a.archived {
			declared[d] = a.declared
		}
	}
	sortSkillInfos(out)
	c.all = out
	if c.named {
		c.declared = declared
	}
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

// catalogInfo is the SkillInfo of folder dir as Discover makes it.
func catalogInfo(dir string, archived bool) SkillInfo {
	cat := path.Dir(dir)
	if cat == "." {
		cat = ""
	}
	if archived {
		cat = strings.TrimPrefix(strings.TrimPrefix(cat, skill.ArchiveDir), "/")
	}
	return SkillInfo{Name: path.Base(dir), Dir: dir, Category: cat, Archived: archived}
}

// clone copies the catalogue's overlay (the base is shared: it is only
// read).
func (c *skillCatalog) clone() *skillCatalog {
	d := *c
	d.gone, d.added = maps.Clone(c.gone), maps.Clone(c.added)
	d.all, d.declared = slices.Clone(c.all), maps.Clone(c.declared)
	return &d
}

// moveTo brings the catalogue to tree: the skill folders that differ
// between its tree and tree are listed again on both sides, and, when
// persist, the change is appended to the file as a delta.
func (c *skillCatalog) moveTo(store *gitstore.Store, tree gitstore.Hash, persist bool) error {
	old, came, err := Changes(store, c.tree, tree)
	if err != nil {
		return err
	}
	gone := make([]string, len(old))
	for i, si := range old {
		gone[i] = si.Dir
	}
	var names map[string]string
	if c.named {
		if names, err = declaredNames(store, tree, came); err != nil {
			return err
		}
	}
	prev := c.tree
	c.apply(gone, came, names)
	c.tree = tree
	if persist {
		_ = c.appendDelta(prev, tree, gone, came, names) // a cache: see catalogAt
	}
	return nil
}

// Changes lists the skills that differ between trees from and to:
// those of from in every skill folder the hash-pruned diff names (gone),
// and those of to there (came). A skill in both, changed or not, is in
// both lists.
func Changes(store *gitstore.Store, from, to gitstore.Hash) (gone, came []SkillInfo, err error) {
	changes, err := history.SkillFolderChanges(store.RawTree, from, to)
	if err != nil {
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

// declaredNames reads the declared names of the active skills of skills
// in tree.
func declaredNames(store *gitstore.Store, tree gitstore.Hash, skills []SkillInfo) (map[string]string, error) {
	out := map[string]string{}
	for _, si := range skills {
		if si.Archived {
			continue
		}
		h, _ := store.LookupPath(tree, si.Dir+"/"+skill.FileName)
		if h.IsZero() {
			out[si.Dir] = ""
			continue
		}
		data, err := store.Blob(h)
		if err != nil {
			return nil, err
		}
		out[si.Dir] = DeclaredName(data)
	}
	return out, nil
}

// DeclaredName is the name a SKILL.md's frontmatter gives, as YAML reads
// it; "" for none or a broken file.
func DeclaredName(data []byte) string {
	doc, err := skill.Parse(data)
	if err != nil {
		return "" // a broken SKILL.md names nothing
	}
	n, _ := doc.Fields["name"].(string)
	return strings.TrimSpace(n)
}

// apply records that the folders gone went and came came (with their
// declared names when the catalogue keeps them).
func (c *skillCatalog) apply(gone []string, came []SkillInfo, names map[string]string) {
	for _, d := range gone {
		if _, ok := c.added[d]; ok {
			delete(c.added, d)
		} else {
			c.gone[d] = true
		}
		delete(c.declared, d)
	}
	for _, si := range came {
		c.added[si.Dir] = catalogAdded{archived: si.Archived, declared: names[si.Dir]}
		if c.declared != nil && !si.Archived {
			c.declared[si.Dir] = names[si.Dir]
		}
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
// Discover would find them there: nothing when p is hidden, inside
// a skill folder, or deeper than skills are looked for.
func skillsUnder(store *gitstore.Store, root gitstore.Hash, p string) ([]SkillInfo, error) {
	var out []SkillInfo
	if root.IsZero() {
		return nil, nil
	}
	parts := strings.Split(p, "/")
	t, dir, depth, archived := root, "", 0, false
	for i, name := range parts {
		last := i == len(parts)-1
		if name == "" || (strings.HasPrefix(name, ".") && (i > 0 || name != skill.ArchiveDir)) {
			return nil, nil
		}
		e, ok, err := store.Entry(t, name)
		if err != nil {
			return nil, err
		}
		if !ok || e.Mode != gitstore.ModeDir {
			return nil, nil
		}
		if i == 0 && name == skill.ArchiveDir {
			if last {
				err := walkSkills(store, e.Hash, skill.ArchiveDir, 1, true, &out)
				return out, err
			}
			t, dir, depth, archived = e.Hash, skill.ArchiveDir, 1, true
			continue
		}
		sub, err := store.Tree(e.Hash)
		if err != nil {
			return nil, err
		}
		full := path.Join(dir, name)
		if HasSkillFile(sub) {
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

// Readable reports whether the file at p is a catalogue this package
// trusts: its base and every delta check out (a damaged file is rebuilt
// by the next listing; the domain's tests ask whether it was).
func Readable(p string) bool { return readCatalog(p) != nil }

// readCatalog reads the catalogue's base header and deltas; nil when the
// file is missing, damaged or not ours.
func readCatalog(p string) *skillCatalog {
	f, err := boundedread.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() > maxFile {
		return nil
	}
	head := make([]byte, len(Magic)+20+4+8+1)
	if _, err := io.ReadFull(f, head); err != nil || string(head[:len(Magic)]) != Magic {
		return nil
	}
	c := &skillCatalog{path: p, gone: map[string]bool{}, added: map[string]catalogAdded{}}
	b := head[len(Magic):]
	copy(c.baseTree[:], b[:20])
	n := int64(binary.LittleEndian.Uint32(b[20:]))
	c.recLen = int64(binary.LittleEndian.Uint64(b[24:]))
	c.named = b[32] == 1
	hashEnd := int64(len(head)) + 8*n
	if hashEnd+4+c.recLen+4 > fi.Size() || c.recLen < 0 {
		return nil
	}
	hb := make([]byte, 8*n)
	if _, err := io.ReadFull(f, hb); err != nil {
		return nil
	}
	crc := crc32.Update(crc32.ChecksumIEEE(head), crc32.IEEETable, hb)
	c.hashes = make([]uint64, n)
	for i := range c.hashes {
		c.hashes[i] = binary.LittleEndian.Uint64(hb[8*i:])
	}
	if c.named {
		mb := make([]byte, 4)
		if _, err := io.ReadFull(f, mb); err != nil {
			return nil
		}
		m := int64(binary.LittleEndian.Uint32(mb))
		if m > n || hashEnd+4+8*m+4+c.recLen+4 > fi.Size() {
			return nil
		}
		db := make([]byte, 8*m)
		if _, err := io.ReadFull(f, db); err != nil {
			return nil
		}
		crc = crc32.Update(crc32.Update(crc, crc32.IEEETable, mb), crc32.IEEETable, db)
		c.declaredHashes = make([]uint64, m)
		for i := range c.declaredHashes {
			c.declaredHashes[i] = binary.LittleEndian.Uint64(db[8*i:])
		}
		hashEnd += 4 + 8*m
	}
	cb := make([]byte, 4)
	if _, err := io.ReadFull(f, cb); err != nil || crc != binary.LittleEndian.Uint32(cb) {
		return nil
	}
	c.recOff = hashEnd + 4
	c.deltaOff = c.recOff + c.recLen + 4
	c.tree = c.baseTree
	size := fi.Size() - c.deltaOff
	if size > catalogMaxDeltas {
		c.torn = true
		return c // the base alone; the next change rewrites the file
	}
	c.deltaSize, c.torn = deltalog.Read(f, c.deltaOff, size, func(payload []byte) bool {
		from, to, gone, came, names, ok := decodeCatalogDelta(payload)
		if !ok || from != c.tree || c.named != (names != nil) {
			return false
		}
		c.apply(gone, came, names)
		c.tree = to
		return true
	})
	return c
}

// readRecords reads and checks the base's records, and the declared
// names of its active skills when the catalogue keeps them.
func (c *skillCatalog) readRecords() ([]SkillInfo, map[string]string, error) {
	damaged := errors.New("skill catalogue: records damaged")
	f, err := boundedread.Open(c.path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	b := make([]byte, c.recLen+4)
	if _, err := f.ReadAt(b, c.recOff); err != nil {
		return nil, nil, err
	}
	if crc32.ChecksumIEEE(b[:c.recLen]) != binary.LittleEndian.Uint32(b[c.recLen:]) {
		return nil, nil, damaged
	}
	b = b[:c.recLen]
	out := make([]SkillInfo, 0, len(c.hashes))
	declared := map[string]string{}
	for len(b) > 0 {
		si, name, rest, ok := decodeCatalogEntry(b, c.named)
		if !ok {
			return nil, nil, damaged
		}
		out = append(out, si)
		if c.named && !si.Archived {
			declared[si.Dir] = name
		}
		b = rest
	}
	if len(out) != len(c.hashes) {
		return nil, nil, damaged
	}
	return out, declared, nil
}

// An entry: the folder, a byte (1: archived), and, in a catalogue that
// keeps declared names, the name of an active skill.
func appendCatalogEntry(b []byte, si SkillInfo, named bool, declared string) []byte {
	b = deltalog.AppendString(b, si.Dir)
	b = append(b, archivedByte(si.Archived))
	if named && !si.Archived {
		b = deltalog.AppendString(b, declared)
	}
	return b
}

func decodeCatalogEntry(b []byte, named bool) (SkillInfo, string, []byte, bool) {
	dir, b, ok := deltalog.String(b)
	if !ok || len(b) < 1 || b[0] > 1 {
		return SkillInfo{}, "", nil, false
	}
	si := catalogInfo(dir, b[0] == 1)
	b = b[1:]
	var name string
	if named && !si.Archived {
		if name, b, ok = deltalog.String(b); !ok {
			return SkillInfo{}, "", nil, false
		}
	}
	return si, name, b, true
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
		recs = appendCatalogEntry(recs, si, c.named, c.declared[si.Dir])
	}
	hashes := make([]uint64, len(c.all))
	for i, si := range c.all {
		hashes[i] = nameHash(si.Name)
	}
	slices.Sort(hashes)
	b := make([]byte, 0, len(Magic)+32+8*len(hashes)+len(recs)+8)
	b = append(b, Magic...)
	b = append(b, c.tree[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(c.all)))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(recs)))
	b = append(b, archivedByte(c.named))
	for _, h := range hashes {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	var declared []uint64
	if c.named {
		for _, si := range c.all {
			if !si.Archived {
				declared = append(declared, nameHash(c.declared[si.Dir]))
			}
		}
		slices.Sort(declared)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(declared)))
		for _, h := range declared {
			b = binary.LittleEndian.AppendUint64(b, h)
		}
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	c.recOff = int64(len(b))
	b = append(b, recs...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(recs))
	if err := statefile.WriteFile(c.path, b, 0o644, false); err != nil {
		return err
	}
	c.baseTree, c.hashes, c.declaredHashes, c.recLen = c.tree, hashes, declared, int64(len(recs))
	c.deltaOff, c.deltaSize, c.torn = int64(len(b)), 0, false
	c.gone, c.added = map[string]bool{}, map[string]catalogAdded{}
	return nil
}

// appendDelta appends the move from tree from to tree to; when the
// deltas have grown past their bound, the base is rewritten instead.
func (c *skillCatalog) appendDelta(from, to gitstore.Hash, gone []string, came []SkillInfo, names map[string]string) error {
	payload := make([]byte, 0, 64)
	payload = append(payload, from[:]...)
	payload = append(payload, to[:]...)
	payload = binary.AppendUvarint(payload, uint64(len(gone)))
	for _, d := range gone {
		payload = deltalog.AppendString(payload, d)
	}
	payload = append(payload, archivedByte(c.named))
	payload = binary.AppendUvarint(payload, uint64(len(came)))
	for _, si := range came {
		payload = appendCatalogEntry(payload, si, c.named, names[si.Dir])
	}
	if c.torn || c.deltaSize+int64(len(payload))+8 > catalogMaxDeltas || len(c.gone)+len(c.added) > max(256, len(c.hashes)/8) {
		if _, err := c.skills(); err != nil {
			return err
		}
		return c.writeBase()
	}
	n, err := deltalog.Append(c.path, c.deltaOff+c.deltaSize, payload)
	c.deltaSize += n
	return err
}

// decodeCatalogDelta decodes a delta; names is nil unless it carries
// declared names.
func decodeCatalogDelta(b []byte) (from, to gitstore.Hash, gone []string, came []SkillInfo, names map[string]string, ok bool) {
	if len(b) < 40 {
		return
	}
	copy(from[:], b[:20])
	copy(to[:], b[20:40])
	b = b[40:]
	fail := func() (gitstore.Hash, gitstore.Hash, []string, []SkillInfo, map[string]string, bool) {
		return from, to, nil, nil, nil, false
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return fail()
	}
	b = b[k:]
	for i := uint64(0); i < n; i++ {
		var d string
		if d, b, ok = deltalog.String(b); !ok {
			return fail()
		}
		gone = append(gone, d)
	}
	if len(b) < 1 || b[0] > 1 {
		return fail()
	}
	named := b[0] == 1
	if named {
		names = map[string]string{}
	}
	b = b[1:]
	n, k = binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return fail()
	}
	b = b[k:]
	for i := uint64(0); i < n; i++ {
		var si SkillInfo
		var name string
		if si, name, b, ok = decodeCatalogEntry(b, named); !ok {
			return fail()
		}
		came = append(came, si)
		if named && !si.Archived {
			names[si.Dir] = name
		}
	}
	if len(b) != 0 {
		return fail()
	}
	return from, to, gone, came, names, true
}

// maxFile bounds the catalogue's file, read as a regular file only: over
// it, the catalogue is rebuilt.
const maxFile = 256 << 20
