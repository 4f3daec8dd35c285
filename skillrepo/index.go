package skillrepo

// Our own reader and writer of git's index file (.git/index), versions 2,
// 3 and 4. go-git has one, but on a 10,000-entry index it spends ~20 ms
// per write in reflection-based field encoding and collision-detecting
// SHA-1, which alone would exceed our budget for a whole `skill patch`;
// this codec does the same work in about 1 ms. Entries we do not touch
// round-trip byte for byte (their stat data is kept raw). Optional
// extensions (cache tree, untracked cache, fsmonitor, resolve-undo, ...)
// are dropped on rewrite: git rebuilds them, and a stale cache tree would
// make git commit write wrong trees. Mandatory extensions (split index
// "link", sparse index "sdir") are refused rather than mangled.

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// gitIndex is a decoded index.
type gitIndex struct {
	Version uint32
	Entries []*indexEntry // sorted by name, then stage
}

// indexEntry is one index entry with its stat data kept raw.
type indexEntry struct {
	CtimeS, CtimeN, MtimeS, MtimeN uint32
	Dev, Ino, Mode, UID, GID, Size uint32
	Hash                           plumbing.Hash
	Flags, XFlags                  uint16
	Name                           string
}

const (
	indexFlagExtended = 0x4000
	indexFlagStage    = 0x3000
	indexXFlagMask    = 0x6000 // skip-worktree, intent-to-add
)

func (e *indexEntry) stage() int { return int(e.Flags&indexFlagStage) >> 12 }

func (e *indexEntry) modTime() time.Time { return time.Unix(int64(e.MtimeS), int64(e.MtimeN)) }

func (e *indexEntry) fileMode() filemode.FileMode { return filemode.FileMode(e.Mode) }

var errIndexCorrupt = errors.New("index file corrupt")

func decodeIndex(b []byte) (*gitIndex, error) {
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return nil, fmt.Errorf("%w: bad signature", errIndexCorrupt)
	}
	sum := sha1.Sum(b[:len(b)-20])
	if !bytes.Equal(sum[:], b[len(b)-20:]) {
		return nil, fmt.Errorf("%w: bad checksum", errIndexCorrupt)
	}
	be := binary.BigEndian
	idx := &gitIndex{Version: be.Uint32(b[4:8])}
	if idx.Version < 2 || idx.Version > 4 {
		return nil, fmt.Errorf("index version %d is not supported", idx.Version)
	}
	n := int(be.Uint32(b[8:12]))
	body := b[:len(b)-20]
	off := 12
	idx.Entries = make([]*indexEntry, 0, n)
	// One backing array and one string for all names: an index of 11,000
	// entries is otherwise 22,000 allocations per command.
	backing := make([]indexEntry, n)
	all := string(body)
	prev := ""
	for i := 0; i < n; i++ {
		if off+62 > len(body) {
			return nil, fmt.Errorf("%w: entry %d truncated", errIndexCorrupt, i)
		}
		start := off
		e := &backing[i]
		*e = indexEntry{
			CtimeS: be.Uint32(b[off:]), CtimeN: be.Uint32(b[off+4:]),
			MtimeS: be.Uint32(b[off+8:]), MtimeN: be.Uint32(b[off+12:]),
			Dev: be.Uint32(b[off+16:]), Ino: be.Uint32(b[off+20:]), Mode: be.Uint32(b[off+24:]),
			UID: be.Uint32(b[off+28:]), GID: be.Uint32(b[off+32:]), Size: be.Uint32(b[off+36:]),
		}
		copy(e.Hash[:], b[off+40:off+60])
		e.Flags = be.Uint16(b[off+60:])
		off += 62
		if e.Flags&indexFlagExtended != 0 {
			if idx.Version < 3 || off+2 > len(body) {
				return nil, fmt.Errorf("%w: extended flags in entry %d", errIndexCorrupt, i)
			}
			e.XFlags = be.Uint16(b[off:])
			off += 2
		}
		if idx.Version == 4 {
			strip, k := readIndexVarint(body[off:])
			if k == 0 || strip > len(prev) {
				return nil, fmt.Errorf("%w: name of entry %d", errIndexCorrupt, i)
			}
			off += k
			end := bytes.IndexByte(body[off:], 0)
			if end < 0 {
				return nil, fmt.Errorf("%w: name of entry %d", errIndexCorrupt, i)
			}
			e.Name = prev[:len(prev)-strip] + string(body[off:off+end])
			off += end + 1
		} else {
			end := bytes.IndexByte(body[off:], 0)
			if end < 0 {
				return nil, fmt.Errorf("%w: name of entry %d", errIndexCorrupt, i)
			}
			e.Name = all[off : off+end]
			// Entries are NUL-padded to a multiple of 8 bytes.
			off = start + ((off+end-start)/8+1)*8
			if off > len(body) {
				return nil, fmt.Errorf("%w: entry %d truncated", errIndexCorrupt, i)
			}
		}
		prev = e.Name
		idx.Entries = append(idx.Entries, e)
	}
	for off+8 <= len(body) {
		sig := body[off : off+4]
		size := int(be.Uint32(body[off+4:]))
		if sig[0] < 'A' || sig[0] > 'Z' {
			return nil, fmt.Errorf("the index uses the %q extension (split or sparse index), which skillrepo cannot update safely; run 'git update-index --no-split-index' or 'git sparse-checkout disable'", sig)
		}
		off += 8 + size
	}
	return idx, nil
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

// encode writes the index as version 2 (3 when an entry needs extended
// flags), without extensions, followed by its SHA-1.
func (idx *gitIndex) encode() []byte {
	version := uint32(2)
	for _, e := range idx.Entries {
		if e.XFlags&indexXFlagMask != 0 {
			version = 3
			break
		}
	}
	size := 12 + 20
	for _, e := range idx.Entries {
		size += 72 + len(e.Name)
	}
	b := make([]byte, 12, size)
	copy(b, "DIRC")
	be := binary.BigEndian
	be.PutUint32(b[4:], version)
	be.PutUint32(b[8:], uint32(len(idx.Entries)))
	var fixed [64]byte
	for _, e := range idx.Entries {
		for i, v := range []uint32{e.CtimeS, e.CtimeN, e.MtimeS, e.MtimeN, e.Dev, e.Ino, e.Mode, e.UID, e.GID, e.Size} {
			be.PutUint32(fixed[i*4:], v)
		}
		copy(fixed[40:60], e.Hash[:])
		nameLen := len(e.Name)
		if nameLen > 0xfff {
			nameLen = 0xfff
		}
		flags := e.Flags&(indexFlagStage|0x8000) | uint16(nameLen)
		xflags := e.XFlags & indexXFlagMask
		if version >= 3 && xflags != 0 {
			flags |= indexFlagExtended
		}
		be.PutUint16(fixed[60:], flags)
		n := 62
		if flags&indexFlagExtended != 0 {
			be.PutUint16(fixed[62:], xflags)
			n = 64
		}
		start := len(b)
		b = append(b, fixed[:n]...)
		b = append(b, e.Name...)
		pad := 8 - (len(b)-start)%8
		for i := 0; i < pad; i++ {
			b = append(b, 0)
		}
	}
	sum := sha1.Sum(b)
	return append(b, sum[:]...)
}

// indexCache is a decoded index and the stat data it was read with.
type indexCache struct {
	idx   *gitIndex
	mtime time.Time
	size  int64
}

// clone copies the entry list (entries themselves are never modified in
// place, only replaced).
func (idx *gitIndex) clone() *gitIndex {
	return &gitIndex{Version: idx.Version, Entries: append([]*indexEntry(nil), idx.Entries...)}
}

// find returns the position of the stage-0 entry named p.
func (idx *gitIndex) find(p string) (int, bool) {
	i := sort.Search(len(idx.Entries), func(i int) bool { return idx.Entries[i].Name >= p })
	for j := i; j < len(idx.Entries) && idx.Entries[j].Name == p; j++ {
		if idx.Entries[j].stage() == 0 {
			return j, true
		}
	}
	return i, false
}

// sortEntries orders entries as git requires: by name bytes, then stage.
func (idx *gitIndex) sortEntries() {
	sort.Slice(idx.Entries, func(i, j int) bool {
		a, b := idx.Entries[i], idx.Entries[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.stage() < b.stage()
	})
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
