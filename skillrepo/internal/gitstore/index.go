package gitstore

// Our own reader and writer of git's index file (.git/index), versions 2,
// 3 and 4. go-git has one, but on a 10,000-entry index it spends ~20 ms
// per write in reflection-based field encoding and collision-detecting
// SHA-1, which alone would exceed our budget for a whole `skill patch`.
//
// A write changes a handful of entries of an index that may hold tens of
// thousands, so the index is not decoded into entries at all: reading it
// records where each entry starts in the file's bytes, a lookup decodes the
// one entry it finds, and writing splices the changed entries between the
// untouched ones, which are copied byte for byte (their stat data, flags
// and padding exactly as git wrote them). A version-4 index (prefix-
// compressed names, which cannot be spliced) is laid out as version 2/3
// when read and compressed again when written, so it stays version 4.
//
// Optional extensions (cache tree, untracked cache, fsmonitor,
// resolve-undo, ...) are dropped on rewrite: git rebuilds them, and a
// stale cache tree would make git commit write wrong trees. A split index
// (the "link" extension) is read and written in splitindex.go; other
// mandatory extensions (sparse index "sdir") are refused rather than
// mangled.

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Index is an index as read, plus the edits of this command. The read
// part (raw, offs) is never modified, so a cached index is shared safely.
type Index struct {
	Version uint32
	// v4: the file was version 4 (path prefix compression); it is kept
	// in the 2/3 layout in memory and written back as version 4, since
	// the user chose it (index.version, feature.manyFiles).
	v4   bool
	raw  []byte   // entries in the version 2/3 layout
	offs []uint32 // where each entry of raw starts; sorted by name, then stage
	// more holds the entries a split index's merge put after a shared
	// index's (its replaced and added entries): the shared index's bytes
	// may be a mapping, which cannot grow. An offset from len(raw) on is
	// more's, at off-len(raw). The last entry of raw may end exactly where
	// more's offsets begin (a shared index has no extensions), so a run of
	// entries is never taken across the two (appendRawRange).
	more []byte
	// edits replaces every entry (all stages) of a path with one stage-0
	// entry, or removes them (nil).
	edits map[string]*indexEntry
	// src is the file the entries were read from (nil: there was none),
	// to tell whether git rewrote it since.
	src os.FileInfo
	// splitOn: the file was a split index (it had a "link" extension), so
	// it is written split again unless core.splitIndex is false; split is
	// its shared index (nil when the link named none).
	splitOn bool
	split   *splitBase
	// ordered: the scan that read raw found every entry in git's order
	// (checkOrder has nothing left to do); noStages: and none with a
	// conflict stage (unmerged has nothing to find). Both false when
	// unknown (a merged split index, a version-4 index).
	ordered, noStages bool
	// cacheTree is the root of the cache-tree extension ("TREE") when git
	// wrote one and it covers the whole index: the tree the index holds,
	// zero when unknown. git checkout and git commit write it; our own
	// writes drop the extension (see the package comment above).
	cacheTree plumbing.Hash
	// mapping owns raw when raw is a mapped file (indexmmap.go): every
	// copy of the Index keeps it, so the mapping lives while any does.
	// Methods that lend out parts of raw (a name, a range to write) keep
	// idx alive until they return (runtime.KeepAlive): a slice of a
	// mapping does not keep the mapping, as a slice of the heap would.
	mapping *indexMapping
}

// indexEntry is one decoded index entry.
type indexEntry struct {
	CtimeS, CtimeN, MtimeS, MtimeN uint32
	Dev, Ino, Mode, UID, GID, Size uint32
	Hash                           plumbing.Hash
	Flags, XFlags                  uint16
	Name                           string
}

const (
	indexEntryFixed   = 62 // stat data, hash and flags
	indexFlagExtended = 0x4000
	indexFlagStage    = 0x3000
	indexFlagNameMask = 0x0fff
	indexXFlagMask    = 0x6000 // skip-worktree, intent-to-add
)

func (e *indexEntry) modTime() time.Time { return time.Unix(int64(e.MtimeS), int64(e.MtimeN)) }

var errIndexCorrupt = errors.New("index file corrupt")

// decodeIndexFile checks an index file's structure and records where its
// entries start. b is kept (not copied): the caller must not modify it
// afterwards.
//
// The trailing SHA-1 is not verified, as git itself does not verify it on
// read (read-cache.c checks it only for git fsck): hashing the 1 MB index
// of a 10,000-skill library costs half a millisecond per command. What a
// damaged entry could do is bounded: its stat data only lets us skip
// hashing a work-tree file, and a wrong hash there makes the file look
// edited (the write is refused), never clean.
//
// For one file of a split index too, it returns the payload of the "link" extension (nil: none), and leaves the
// order of the entries unchecked when there is one, as the replacement
// entries of a split index have empty names (splitindex.go checks the
// merged index).
func decodeIndexFile(b []byte) (*Index, []byte, error) {
	idx, link, err := decodeIndexEntries(b)
	if err == nil && link == nil {
		err = idx.checkOrder()
	}
	if err != nil {
		return nil, nil, err
	}
	return idx, link, nil
}

// decodeIndexEntries is decodeIndexFile without the order check (a shared
// index is checked once merged).
func decodeIndexEntries(b []byte) (*Index, []byte, error) {
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return nil, nil, fmt.Errorf("%w: bad signature", errIndexCorrupt)
	}
	be := binary.BigEndian
	version := be.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return nil, nil, fmt.Errorf("index version %d is not supported", version)
	}
	n := int(be.Uint32(b[8:12]))
	body := b[:len(b)-20]
	if n > len(body)/indexEntryFixed {
		return nil, nil, fmt.Errorf("%w: %d entries cannot fit in %d bytes", errIndexCorrupt, n, len(body))
	}
	var idx *Index
	var end int
	var err error
	if version == 4 {
		idx, end, err = decodeIndexV4(body, n)
		if idx != nil {
			idx.v4 = true
		}
	} else {
		idx, end, err = scanIndexEntries(body, version, n)
	}
	if err != nil {
		return nil, nil, err
	}
	var link []byte
	for off := end; off+8 <= len(body); {
		sig := body[off : off+4]
		size := int(be.Uint32(body[off+4:]))
		if size > len(body)-off-8 {
			return nil, nil, fmt.Errorf("%w: extension %q truncated", errIndexCorrupt, sig)
		}
		switch {
		case string(sig) == "link":
			link = body[off+8 : off+8+size]
		case string(sig) == "TREE":
			idx.cacheTree = cacheTreeRoot(body[off+8 : off+8+size])
		case sig[0] < 'A' || sig[0] > 'Z':
			return nil, nil, fmt.Errorf("the index uses the %q extension (a sparse index, or one newer than skillrepo), which skillrepo cannot update safely; for a sparse index run 'git sparse-checkout disable'", sig)
		}
		off += 8 + size
	}
	return idx, link, nil
}

// cacheTreeRoot reads the root entry of a cache-tree extension: an empty
// path, NUL, the entry count (-1: invalidated), a space, the number of
// subtrees, a newline, then the tree's hash when the count is not -1. It
// returns the zero hash when the root is invalid or malformed.
func cacheTreeRoot(ext []byte) plumbing.Hash {
	if len(ext) == 0 || ext[0] != 0 {
		return plumbing.ZeroHash
	}
	nl := bytes.IndexByte(ext, '\n')
	if nl < 0 || len(ext) < nl+1+20 {
		return plumbing.ZeroHash
	}
	count, _, ok := strings.Cut(string(ext[1:nl]), " ")
	if !ok || strings.HasPrefix(count, "-") {
		return plumbing.ZeroHash
	}
	var h plumbing.Hash
	copy(h[:], ext[nl+1:nl+21])
	return h
}

// scanIndexEntries records the start of each of the n version 2/3 entries
// of body and returns where the entries end. In the same pass it checks
// their order and looks for conflict stages (Index.ordered, noStages):
// each name is compared while it is in the cache, where checkOrder and
// unmerged would read all of a 5 MB index twice more.
func scanIndexEntries(body []byte, version uint32, n int) (*Index, int, error) {
	idx := &Index{Version: version, raw: body, offs: make([]uint32, n)}
	// The loop is nameAt and entryEnd inlined by hand: it runs once per
	// entry of every index read (50,000 in a large project).
	off := 12
	ordered, noStages := true, true
	var prev []byte
	prevStage := -1
	for i := 0; i < n; i++ {
		idx.offs[i] = uint32(off)
		if off+indexEntryFixed > len(body) {
			return nil, 0, fmt.Errorf("%w: entry %d: truncated", errIndexCorrupt, i)
		}
		flags := uint16(body[off+60])<<8 | uint16(body[off+61])
		start := off + indexEntryFixed
		if flags&indexFlagExtended != 0 {
			if version < 3 {
				return nil, 0, fmt.Errorf("%w: entry %d: extended flags in a version 2 index", errIndexCorrupt, i)
			}
			start += 2
		}
		var end int
		if nameLen := int(flags & indexFlagNameMask); nameLen < indexFlagNameMask {
			end = start + nameLen
			if end >= len(body) || body[end] != 0 {
				return nil, 0, fmt.Errorf("%w: entry %d: bad name length", errIndexCorrupt, i)
			}
		} else {
			_, e, err := idx.nameAt(off) // a name of 4095 bytes or more
			if err != nil {
				return nil, 0, fmt.Errorf("%w: entry %d: %v", errIndexCorrupt, i, err)
			}
			end = e
		}
		name, stage := body[start:end], int(flags&indexFlagStage)>>12
		if stage != 0 {
			noStages = false
		}
		if ordered {
			c := bytes.Compare(prev, name)
			ordered = i == 0 || c < 0 || (c == 0 && prevStage < stage)
		}
		prev, prevStage = name, stage
		next := off + ((end-off)/8+1)*8
		if next > len(body) {
			return nil, 0, fmt.Errorf("%w: entry %d: truncated", errIndexCorrupt, i)
		}
		off = next
	}
	idx.ordered, idx.noStages = ordered, noStages
	return idx, off, nil
}

// checkOrder refuses entries out of git's order (by name, then stage), as
// git does: lookups search and writes merge by that order.
func (idx *Index) checkOrder() error {
	if idx.ordered {
		return nil // checked as it was read
	}
	defer runtime.KeepAlive(idx)
	for i := 1; i < len(idx.offs); i++ {
		c := bytes.Compare(idx.rawName(i-1), idx.rawName(i))
		if c > 0 || (c == 0 && idx.rawStage(i-1) >= idx.rawStage(i)) {
			return fmt.Errorf("%w: entries out of order at %q", errIndexCorrupt, idx.rawName(i))
		}
	}
	return nil
}

// seg returns the bytes holding the entry at off (raw, or more) and
// where they start in the offsets' space.
func (idx *Index) seg(off int) (b []byte, base int) {
	if off < len(idx.raw) || idx.more == nil {
		return idx.raw, 0
	}
	return idx.more, len(idx.raw)
}

// nameAt returns where the name of the raw entry at off starts and ends.
func (idx *Index) nameAt(off int) (start, end int, err error) {
	b, base := idx.seg(off)
	start, end, err = idx.nameIn(b, off-base)
	return start + base, end + base, err
}

// nameIn is nameAt within one buffer.
func (idx *Index) nameIn(b []byte, off int) (start, end int, err error) {
	if off+indexEntryFixed > len(b) {
		return 0, 0, errors.New("truncated")
	}
	flags := binary.BigEndian.Uint16(b[off+60:])
	start = off + indexEntryFixed
	if flags&indexFlagExtended != 0 {
		if idx.Version < 3 {
			return 0, 0, errors.New("extended flags in a version 2 index")
		}
		start += 2
	}
	if nameLen := int(flags & indexFlagNameMask); nameLen < indexFlagNameMask {
		end = start + nameLen
		if end >= len(b) || b[end] != 0 {
			return 0, 0, errors.New("bad name length")
		}
		return start, end, nil
	}
	if start > len(b) {
		return 0, 0, errors.New("truncated")
	}
	k := bytes.IndexByte(b[start:], 0) // a name of 4095 bytes or more
	if k < 0 {
		return 0, 0, errors.New("unterminated name")
	}
	return start, start + k, nil
}

// entryEnd returns where the raw entry at off ends: entries are
// NUL-padded to a multiple of 8 bytes.
func (idx *Index) entryEnd(off int) (int, error) {
	_, end, err := idx.nameAt(off)
	if err != nil {
		return 0, err
	}
	next := off + ((end-off)/8+1)*8
	if b, base := idx.seg(off); next > base+len(b) {
		return 0, errors.New("truncated")
	}
	return next, nil
}

// rawName is the name of raw entry i, without copying it.
func (idx *Index) rawName(i int) []byte {
	b, base := idx.seg(int(idx.offs[i]))
	s, e, _ := idx.nameIn(b, int(idx.offs[i])-base) // checked by scanIndexEntries
	return b[s:e]
}

func (idx *Index) rawStage(i int) int {
	b, base := idx.seg(int(idx.offs[i]))
	return int(binary.BigEndian.Uint16(b[int(idx.offs[i])-base+60:])&indexFlagStage) >> 12
}

// sameSeg reports whether offsets a and b are in the same buffer (seg).
func (idx *Index) sameSeg(a, b int) bool {
	return idx.more == nil || (a < len(idx.raw)) == (b < len(idx.raw))
}

// rawBytes returns the bytes of the entries from off to end (one buffer's).
func (idx *Index) rawBytes(off, end int) []byte {
	b, base := idx.seg(off)
	return b[off-base : end-base]
}

// rawEntry decodes raw entry i.
func (idx *Index) rawEntry(i int) *indexEntry {
	b, base := idx.seg(int(idx.offs[i]))
	b = b[int(idx.offs[i])-base:]
	e := decodeEntryFixed(b)
	e.Name = string(idx.rawName(i))
	if e.Flags&indexFlagExtended != 0 {
		e.XFlags = binary.BigEndian.Uint16(b[indexEntryFixed:])
	}
	return e
}

// decodeEntryFixed decodes the stat data, hash and flags that start every
// entry (b holds at least indexEntryFixed bytes).
func decodeEntryFixed(b []byte) *indexEntry {
	be := binary.BigEndian
	e := &indexEntry{
		CtimeS: be.Uint32(b), CtimeN: be.Uint32(b[4:]),
		MtimeS: be.Uint32(b[8:]), MtimeN: be.Uint32(b[12:]),
		Dev: be.Uint32(b[16:]), Ino: be.Uint32(b[20:]), Mode: be.Uint32(b[24:]),
		UID: be.Uint32(b[28:]), GID: be.Uint32(b[32:]), Size: be.Uint32(b[36:]),
		Flags: be.Uint16(b[60:]),
	}
	copy(e.Hash[:], b[40:60])
	return e
}

// decodeIndexV4 decodes a version-4 index (each name stored as a suffix
// of the previous one) and re-encodes it in the version 2/3 layout.
func decodeIndexV4(body []byte, n int) (*Index, int, error) {
	be := binary.BigEndian
	entries := make([]*indexEntry, 0, n)
	off := 12
	prev := ""
	for i := 0; i < n; i++ {
		if off+indexEntryFixed > len(body) {
			return nil, 0, fmt.Errorf("%w: entry %d truncated", errIndexCorrupt, i)
		}
		e := decodeEntryFixed(body[off:])
		off += indexEntryFixed
		if e.Flags&indexFlagExtended != 0 {
			if off+2 > len(body) {
				return nil, 0, fmt.Errorf("%w: entry %d truncated", errIndexCorrupt, i)
			}
			e.XFlags = be.Uint16(body[off:])
			off += 2
		}
		strip, k := readIndexVarint(body[off:])
		if k == 0 || strip < 0 || strip > len(prev) {
			return nil, 0, fmt.Errorf("%w: name of entry %d", errIndexCorrupt, i)
		}
		off += k
		end := bytes.IndexByte(body[off:], 0)
		if end < 0 {
			return nil, 0, fmt.Errorf("%w: name of entry %d", errIndexCorrupt, i)
		}
		e.Name = prev[:len(prev)-strip] + string(body[off:off+end])
		off += end + 1
		prev = e.Name
		entries = append(entries, e)
	}
	version := uint32(2)
	for _, e := range entries {
		if e.XFlags&indexXFlagMask != 0 {
			version = 3
		}
	}
	raw := make([]byte, 12)
	copy(raw, "DIRC")
	idx := &Index{Version: version, offs: make([]uint32, 0, n)}
	for _, e := range entries {
		idx.offs = append(idx.offs, uint32(len(raw)))
		raw = appendIndexEntry(raw, e, version)
	}
	idx.raw = raw
	return idx, off, nil
}

func readIndexVarint(b []byte) (int, int) {
	if len(b) == 0 {
		return 0, 0
	}
	i := 0
	c := b[i]
	v := int(c & 0x7f)
	for c&0x80 != 0 {
		i++
		if i >= len(b) || i > 8 {
			return 0, 0
		}
		c = b[i]
		v = ((v + 1) << 7) | int(c&0x7f)
	}
	return v, i + 1
}

// appendIndexEntry appends e in the version 2/3 layout.
func appendIndexEntry(b []byte, e *indexEntry, version uint32) []byte {
	be := binary.BigEndian
	var fixed [indexEntryFixed + 2]byte
	for i, v := range []uint32{e.CtimeS, e.CtimeN, e.MtimeS, e.MtimeN, e.Dev, e.Ino, e.Mode, e.UID, e.GID, e.Size} {
		be.PutUint32(fixed[i*4:], v)
	}
	copy(fixed[40:60], e.Hash[:])
	nameLen := len(e.Name)
	if nameLen > indexFlagNameMask {
		nameLen = indexFlagNameMask
	}
	flags := e.Flags&(indexFlagStage|0x8000) | uint16(nameLen)
	xflags := e.XFlags & indexXFlagMask
	if version >= 3 && xflags != 0 {
		flags |= indexFlagExtended
	}
	be.PutUint16(fixed[60:], flags)
	n := indexEntryFixed
	if flags&indexFlagExtended != 0 {
		be.PutUint16(fixed[62:], xflags)
		n += 2
	}
	start := len(b)
	b = append(b, fixed[:n]...)
	b = append(b, e.Name...)
	pad := 8 - (len(b)-start)%8
	return append(b, make([]byte, pad)...)
}

// writeTo writes the index in its version without extensions, followed by
// its SHA-1: runs of untouched entries are written straight from the bytes
// read, the edited entries at their sorted places. Nothing index-sized is
// allocated, except for a version-4 index, which is laid out as 2/3 first
// and then compressed (writeV4).
func (idx *Index) writeTo(w io.Writer) error {
	defer runtime.KeepAlive(idx)
	if idx.v4 {
		return idx.writeV4(w)
	}
	return idx.writeV23(w)
}

// writeV4 writes the index as version 4: each entry's name is the number
// of bytes to drop from the end of the previous name (git's offset varint)
// and the suffix to append, NUL-terminated, with no padding.
func (idx *Index) writeV4(w io.Writer) error {
	var flat bytes.Buffer
	if err := idx.writeV23(&flat); err != nil {
		return err
	}
	b := flat.Bytes()
	return compressV4(w, b[:len(b)-20], nil)
}

// compressV4 writes body (a header and entries in the version 2/3 layout)
// as version 4, then the extensions ext (already encoded) and the SHA-1.
func compressV4(w io.Writer, body, ext []byte) error {
	n := int(binary.BigEndian.Uint32(body[8:12]))
	laid, _, err := scanIndexEntries(body, binary.BigEndian.Uint32(body[4:8]), n)
	if err != nil {
		return fmt.Errorf("re-read the index to compress it: %w", err)
	}
	sum := sha1.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, sum), 64<<10)
	var header [12]byte
	copy(header[:], "DIRC")
	binary.BigEndian.PutUint32(header[4:], 4)
	binary.BigEndian.PutUint32(header[8:], uint32(n))
	bw.Write(header[:])
	var prev []byte
	var varint [16]byte
	for i := range laid.offs {
		start := int(laid.offs[i])
		fixed := indexEntryFixed
		if binary.BigEndian.Uint16(body[start+60:])&indexFlagExtended != 0 {
			fixed += 2
		}
		name := laid.rawName(i)
		common := 0
		for common < len(prev) && common < len(name) && prev[common] == name[common] {
			common++
		}
		bw.Write(body[start : start+fixed])
		bw.Write(appendIndexVarint(varint[:0], uint64(len(prev)-common)))
		bw.Write(name[common:])
		bw.WriteByte(0)
		prev = name
	}
	bw.Write(ext)
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err = w.Write(sum.Sum(nil))
	return err
}

// appendIndexVarint appends v in git's offset varint (varint.c), the
// inverse of readIndexVarint: big-endian groups of 7 bits, each but the
// last with the high bit set, and each continuation biased by one so that
// every number has a single encoding.
func appendIndexVarint(b []byte, v uint64) []byte {
	var buf [10]byte
	pos := len(buf) - 1
	buf[pos] = byte(v & 0x7f)
	for v >>= 7; v != 0; v >>= 7 {
		v--
		pos--
		buf[pos] = 0x80 | byte(v&0x7f)
	}
	return append(b, buf[pos:]...)
}

// writeV23 is writeTo for versions 2 and 3.
func (idx *Index) writeV23(w io.Writer) error {
	version := idx.Version
	if version < 2 || version > 3 {
		version = 2
	}
	names := make([]string, 0, len(idx.edits))
	count := len(idx.offs)
	for p, e := range idx.edits {
		names = append(names, p)
		for i := idx.search(p); i < len(idx.offs) && string(idx.rawName(i)) == p; i++ {
			count-- // every stage of an edited path is replaced
		}
		if e != nil {
			count++
		}
	}
	sort.Strings(names)
	header := make([]byte, 12)
	copy(header, "DIRC")
	binary.BigEndian.PutUint32(header[4:], version)
	binary.BigEndian.PutUint32(header[8:], uint32(count))
	parts := make([][]byte, 1, 2*len(names)+2)
	parts[0] = header
	// Between edits, the untouched entries are copied as whole ranges of
	// the bytes read: each edit's place is found by binary search, so a
	// write of a few paths into 50,000 entries decodes no other entry.
	next := 0 // first raw entry not yet written or skipped
	for _, p := range names {
		lo := idx.search(p)
		hi := lo
		for hi < len(idx.offs) && string(idx.rawName(hi)) == p {
			hi++ // every stage of an edited path is replaced
		}
		parts = idx.appendRawRange(parts, next, lo)
		if e := idx.edits[p]; e != nil {
			parts = append(parts, appendIndexEntry(nil, e, version))
		}
		next = hi
	}
	parts = idx.appendRawRange(parts, next, len(idx.offs))
	return writeHashed(w, parts)
}

// appendRawRange appends raw entries i..j-1 as read to parts: one slice
// of raw when they lie there in order (always, unless merged from a split
// index).
func (idx *Index) appendRawRange(parts [][]byte, i, j int) [][]byte {
	for i < j {
		start := int(idx.offs[i])
		end, _ := idx.entryEnd(start) // checked by decodeIndex
		k := i + 1
		if idx.split == nil {
			k = j // read from one file: entries are contiguous
			end, _ = idx.entryEnd(int(idx.offs[j-1]))
		}
		for ; k < j && int(idx.offs[k]) == end && idx.sameSeg(start, end); k++ {
			end, _ = idx.entryEnd(end)
		}
		parts = append(parts, idx.rawBytes(start, end))
		i = k
	}
	return parts
}

// writeHashed writes parts to w, then their SHA-1 (git's index trailer).
// The hash is computed beside the writes, in a goroutine: on a project's
// 5 MB index the two each cost about 3 ms (bench/prefix.sh), and one need
// not wait for the other. parts may borrow from a mapped index: the
// goroutine is always waited for before writeHashed returns, so the
// caller's runtime.KeepAlive covers it.
func writeHashed(w io.Writer, parts [][]byte) error {
	sums := make(chan [sha1.Size]byte, 1)
	go func() {
		h := sha1.New()
		for _, p := range parts {
			h.Write(p)
		}
		var sum [sha1.Size]byte
		h.Sum(sum[:0])
		sums <- sum
	}()
	// Large parts pass through bufio unbuffered; small ones (the header,
	// edited entries) are gathered into few writes.
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	for _, p := range parts {
		if _, err = bw.Write(p); err != nil {
			break
		}
	}
	if err == nil {
		err = bw.Flush()
	}
	sum := <-sums
	if err != nil {
		return err
	}
	_, err = w.Write(sum[:])
	return err
}

// indexCache is a read index and the stat data it was read with.
type indexCache struct {
	idx *Index // idx.src is the file's stat data
}

// clone returns an index sharing the read entries, with its own edits.
func (idx *Index) clone() *Index {
	c := *idx
	c.edits = make(map[string]*indexEntry, len(idx.edits))
	for p, e := range idx.edits {
		c.edits[p] = e
	}
	return &c
}

// lookup returns the stage-0 entry of p.
func (idx *Index) lookup(p string) (*indexEntry, bool) {
	defer runtime.KeepAlive(idx)
	if e, ok := idx.edits[p]; ok {
		return e, e != nil
	}
	for i := idx.search(p); i < len(idx.offs) && string(idx.rawName(i)) == p; i++ {
		if idx.rawStage(i) == 0 {
			return idx.rawEntry(i), true
		}
	}
	return nil, false
}

// IndexEntry is what the index records for a path (its stage-0 entry).
type IndexEntry struct {
	Hash Hash
	Mode FileMode
	// AssumeUnchanged and SkipWorktree are git's flags ('git update-index
	// --assume-unchanged' / '--skip-worktree', or a path outside a sparse
	// checkout): git add -A leaves such a path as the index records it,
	// whatever the work tree holds.
	AssumeUnchanged, SkipWorktree bool
}

const (
	indexFlagValid         = 0x8000 // assume-unchanged (CE_VALID)
	indexXFlagSkipWorktree = 0x4000
)

// Entry returns the index's stage-0 entry for p (a repository path).
func (idx *Index) Entry(p string) (IndexEntry, bool) {
	e, ok := idx.lookup(p)
	if !ok {
		return IndexEntry{}, false
	}
	return IndexEntry{
		Hash: e.Hash, Mode: FileMode(e.Mode),
		AssumeUnchanged: e.Flags&indexFlagValid != 0,
		SkipWorktree:    e.Flags&indexFlagExtended != 0 && e.XFlags&indexXFlagSkipWorktree != 0,
	}, true
}

// search returns the position of the first raw entry named p or after.
func (idx *Index) search(p string) int {
	return sort.Search(len(idx.offs), func(i int) bool { return string(idx.rawName(i)) >= p })
}

// set makes e the only entry of its path.
func (idx *Index) set(e *indexEntry) {
	if idx.edits == nil {
		idx.edits = map[string]*indexEntry{}
	}
	idx.edits[e.Name] = e
}

// remove drops every entry of p.
func (idx *Index) remove(p string) {
	if idx.edits == nil {
		idx.edits = map[string]*indexEntry{}
	}
	idx.edits[p] = nil
}

// EachName calls fn with the name of every entry that starts with prefix
// ("": every entry), edited entries last, in no particular order. The
// names under a prefix are one run of the sorted entries, found by binary
// search: a library at .claude/skills of a project reads its own few
// thousand names, not the project's 50,000. The slice is only valid
// during the call.
func (idx *Index) EachName(prefix string, fn func(name []byte)) {
	defer runtime.KeepAlive(idx)
	for i := idx.search(prefix); i < len(idx.offs); i++ {
		name := idx.rawName(i)
		if !bytes.HasPrefix(name, []byte(prefix)) {
			break
		}
		if _, edited := idx.edits[string(name)]; !edited {
			fn(name)
		}
	}
	for p, e := range idx.edits {
		if e != nil && strings.HasPrefix(p, prefix) {
			fn([]byte(p))
		}
	}
}

// newIndexEntry makes a stage-0 entry with the stat data of fi.
func newIndexEntry(name string, h plumbing.Hash, mode filemode.FileMode, fi os.FileInfo) *indexEntry {
	e := &indexEntry{Name: name, Hash: h, Mode: uint32(mode)}
	if fi == nil {
		return e
	}
	mt := fi.ModTime()
	e.MtimeS, e.MtimeN = uint32(mt.Unix()), uint32(mt.Nanosecond())
	e.Size = uint32(fi.Size())
	fillPlatformStat(e, fi)
	return e
}
