package gitstore

// A read-only packfile reader for history walks. go-git resolves a delta
// object and then computes its SHA-1 to key its cache; on a flat
// 10,000-skill library every root tree is half a megabyte, so a history
// walk spent a third of its time hashing trees it had asked for by hash.
// This reader keys its cache by pack offset instead, inflates with reused
// zlib readers and applies deltas into one buffer. It reads version-2 pack
// indexes (what git has written since 1.5.2); anything it cannot find or
// read (loose objects, alternates, a pack written after it was opened)
// falls back to go-git, so it is an accelerator, never the only path.

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"container/list"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// packCacheBytes bounds the resolved objects kept for delta bases.
const packCacheBytes = 24 << 20

type packIndex struct {
	fanout  [256]uint32
	hashes  []byte // n * 20, sorted
	offsets []byte // n * 4
	large   []byte // 8-byte offsets for entries with the MSB set
}

type packFile struct {
	f       *os.File
	data    []byte // the mapped pack, when mmap works; else ReadAt on f
	idx     packIndex
	idxData []byte // the mapped index, when mmap worked (idx points into it)
}

// readAt reads up to len(b) bytes at off.
func (p *packFile) readAt(b []byte, off int64) (int, error) {
	if p.data != nil {
		if off < 0 || off >= int64(len(p.data)) {
			return 0, io.EOF
		}
		n := copy(b, p.data[off:])
		if n < len(b) {
			return n, io.EOF
		}
		return n, nil
	}
	return p.f.ReadAt(b, off)
}

// section is a reader of the pack from off on.
func (p *packFile) section(off int64) io.Reader {
	if p.data != nil {
		if off < 0 || off > int64(len(p.data)) {
			return bytes.NewReader(nil)
		}
		return bytes.NewReader(p.data[off:])
	}
	return io.NewSectionReader(p.f, off, 1<<62)
}

type packObject struct {
	typ  plumbing.ObjectType
	data []byte
}

type packCacheKey struct {
	pack int
	off  int64
}

// packReader reads objects from a repository's packs. Not safe for
// concurrent use.
type packReader struct {
	packs []*packFile
	cache map[packCacheKey]*list.Element
	lru   *list.List
	bytes int
	zr    io.ReadCloser
	br    *bufio.Reader
}

type packCacheEntry struct {
	key packCacheKey
	obj packObject
}

// openPackReader opens every pack of gitDir with a readable v2 index.
// Packs it cannot read are skipped (go-git still reads them).
func openPackReader(gitDir string) *packReader {
	r := &packReader{cache: map[packCacheKey]*list.Element{}, lru: list.New()}
	idxs, _ := filepath.Glob(filepath.Join(gitDir, "objects", "pack", "pack-*.idx"))
	sort.Strings(idxs)
	for _, p := range idxs {
		idx, idxData, err := openPackIndex(p)
		if err != nil {
			continue
		}
		f, err := os.Open(p[:len(p)-len(".idx")] + ".pack")
		if err != nil {
			if idxData != nil {
				unmapFile(idxData)
			}
			continue
		}
		pf := &packFile{f: f, idx: idx, idxData: idxData}
		if data, err := mmapFile(f); err == nil {
			pf.data = data
		}
		r.packs = append(r.packs, pf)
	}
	return r
}

// openPackIndex maps a pack index (a lookup touches a few of its pages;
// reading a 10,000-skill library's 0.9 MB index into the heap cost more
// than the rest of a small write), falling back to reading it. mapped is
// the mapping to release, nil when the file was read.
func openPackIndex(p string) (idx packIndex, mapped []byte, err error) {
	f, err := os.Open(p)
	if err != nil {
		return idx, nil, err
	}
	defer f.Close() // a mapping outlives its descriptor
	b, err := mmapFile(f)
	if err == nil {
		mapped = b
	} else if b, err = io.ReadAll(f); err != nil {
		return idx, nil, err
	}
	if idx, err = parsePackIndex(b); err != nil && mapped != nil {
		unmapFile(mapped)
		mapped = nil
	}
	return idx, mapped, err
}

func (r *packReader) close() {
	for _, p := range r.packs {
		if p.data != nil {
			unmapFile(p.data)
		}
		if p.idxData != nil {
			unmapFile(p.idxData)
		}
		p.f.Close()
	}
	r.packs = nil
}

// parsePackIndex checks a version-2 pack index; idx points into b.
func parsePackIndex(b []byte) (packIndex, error) {
	var idx packIndex
	if len(b) < 8+256*4 || !bytes.Equal(b[:4], []byte{0xff, 't', 'O', 'c'}) || binary.BigEndian.Uint32(b[4:8]) != 2 {
		return idx, errors.New("not a version 2 pack index")
	}
	for i := range idx.fanout {
		idx.fanout[i] = binary.BigEndian.Uint32(b[8+4*i:])
		// A lookup searches between two fanout values: they must not
		// decrease, or a damaged index would send it out of range.
		if i > 0 && idx.fanout[i] < idx.fanout[i-1] {
			return idx, errors.New("damaged pack index fanout")
		}
	}
	n := int(idx.fanout[255])
	pos := 8 + 256*4
	if len(b) < pos+n*(20+4+4)+40 {
		return idx, errors.New("truncated pack index")
	}
	idx.hashes = b[pos : pos+n*20]
	pos += n * 20
	pos += n * 4 // CRC32s
	idx.offsets = b[pos : pos+n*4]
	pos += n * 4
	idx.large = b[pos : len(b)-40]
	return idx, nil
}

// find returns the pack offset of h (ok false when absent).
func (idx *packIndex) find(h plumbing.Hash) (int64, bool) {
	lo := 0
	if h[0] > 0 {
		lo = int(idx.fanout[h[0]-1])
	}
	hi := int(idx.fanout[h[0]])
	for lo < hi {
		mid := (lo + hi) / 2
		switch c := bytes.Compare(idx.hashes[mid*20:mid*20+20], h[:]); {
		case c == 0:
			off := binary.BigEndian.Uint32(idx.offsets[mid*4:])
			if off&0x80000000 == 0 {
				return int64(off), true
			}
			k := int(off & 0x7fffffff)
			if (k+1)*8 > len(idx.large) {
				return 0, false
			}
			return int64(binary.BigEndian.Uint64(idx.large[k*8:])), true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// has reports whether a pack holds h.
func (r *packReader) has(h plumbing.Hash) bool {
	for _, p := range r.packs {
		if _, ok := p.idx.find(h); ok {
			return true
		}
	}
	return false
}

// read returns the object h, ok false when no pack has it.
func (r *packReader) read(h plumbing.Hash) (packObject, bool, error) {
	for i, p := range r.packs {
		if off, ok := p.idx.find(h); ok {
			obj, err := r.at(i, off, 0)
			return obj, err == nil, err
		}
	}
	return packObject{}, false, nil
}

// at resolves the object at an offset of pack i, following delta bases.
func (r *packReader) at(i int, off int64, depth int) (packObject, error) {
	key := packCacheKey{i, off}
	if e, ok := r.cache[key]; ok {
		r.lru.MoveToFront(e)
		return e.Value.(*packCacheEntry).obj, nil
	}
	if depth > 10000 {
		return packObject{}, errors.New("delta chain too deep")
	}
	p := r.packs[i]
	var hdr [32]byte
	n, err := p.readAt(hdr[:], off)
	if err != nil && !(errors.Is(err, io.EOF) && n > 0) {
		return packObject{}, err
	}
	c := hdr[0]
	typ := plumbing.ObjectType((c >> 4) & 7)
	size := int64(c & 15)
	pos, shift := 1, 4
	for c&0x80 != 0 {
		if pos >= n {
			return packObject{}, errors.New("bad object header")
		}
		c = hdr[pos]
		pos++
		size |= int64(c&0x7f) << shift
		shift += 7
	}
	var obj packObject
	switch typ {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
		data, err := r.inflate(p, off+int64(pos), size)
		if err != nil {
			return packObject{}, err
		}
		obj = packObject{typ: typ, data: data}
	case plumbing.OFSDeltaObject, plumbing.REFDeltaObject:
		var base packObject
		if typ == plumbing.OFSDeltaObject {
			if pos >= n {
				return packObject{}, errors.New("bad delta header")
			}
			c = hdr[pos]
			pos++
			rel := int64(c & 0x7f)
			for c&0x80 != 0 {
				if pos >= n {
					return packObject{}, errors.New("bad delta offset")
				}
				c = hdr[pos]
				pos++
				rel = ((rel + 1) << 7) | int64(c&0x7f)
			}
			if base, err = r.at(i, off-rel, depth+1); err != nil {
				return packObject{}, err
			}
		} else {
			if pos+20 > n {
				return packObject{}, errors.New("bad ref delta")
			}
			var bh plumbing.Hash
			copy(bh[:], hdr[pos:pos+20])
			pos += 20
			bo, ok := p.idx.find(bh)
			if !ok {
				return packObject{}, fmt.Errorf("delta base %s is not in the pack", bh)
			}
			if base, err = r.at(i, bo, depth+1); err != nil {
				return packObject{}, err
			}
		}
		delta, err := r.inflate(p, off+int64(pos), size)
		if err != nil {
			return packObject{}, err
		}
		data, err := applyDelta(base.data, delta)
		if err != nil {
			return packObject{}, err
		}
		obj = packObject{typ: base.typ, data: data}
	default:
		return packObject{}, fmt.Errorf("object type %d at offset %d", typ, off)
	}
	r.put(key, obj)
	return obj, nil
}

func (r *packReader) put(key packCacheKey, obj packObject) {
	if len(obj.data) > packCacheBytes/4 {
		return
	}
	r.cache[key] = r.lru.PushFront(&packCacheEntry{key: key, obj: obj})
	r.bytes += len(obj.data)
	for r.bytes > packCacheBytes {
		e := r.lru.Back()
		ce := e.Value.(*packCacheEntry)
		r.lru.Remove(e)
		delete(r.cache, ce.key)
		r.bytes -= len(ce.obj.data)
	}
}

// inflate reads size bytes of zlib data starting at off.
func (r *packReader) inflate(p *packFile, off, size int64) ([]byte, error) {
	var src io.Reader = p.section(off)
	if p.data == nil {
		// flate reads a byte at a time: buffer the file reads (a
		// mapped pack is a bytes.Reader, which needs none).
		if r.br == nil {
			r.br = bufio.NewReaderSize(src, 16<<10)
		} else {
			r.br.Reset(src)
		}
		src = r.br
	}
	var err error
	if r.zr == nil {
		r.zr, err = zlib.NewReader(src)
	} else {
		err = r.zr.(zlib.Resetter).Reset(src, nil)
	}
	if err != nil {
		return nil, err
	}
	out := make([]byte, size)
	if _, err := io.ReadFull(r.zr, out); err != nil {
		return nil, fmt.Errorf("inflate object at %d: %w", off, err)
	}
	return out, nil
}

// applyDelta rebuilds an object from its base and a git delta.
func applyDelta(base, delta []byte) ([]byte, error) {
	varint := func() (int, error) {
		v, shift := 0, 0
		for {
			if len(delta) == 0 {
				return 0, errors.New("truncated delta")
			}
			c := delta[0]
			delta = delta[1:]
			v |= int(c&0x7f) << shift
			shift += 7
			if c&0x80 == 0 {
				return v, nil
			}
		}
	}
	srcSize, err := varint()
	if err != nil {
		return nil, err
	}
	if srcSize != len(base) {
		return nil, errors.New("delta base size mismatch")
	}
	dstSize, err := varint()
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, dstSize)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var offset, size int
			for k := 0; k < 4; k++ {
				if op&(1<<k) != 0 {
					if len(delta) == 0 {
						return nil, errors.New("truncated delta copy")
					}
					offset |= int(delta[0]) << (8 * k)
					delta = delta[1:]
				}
			}
			for k := 0; k < 3; k++ {
				if op&(0x10<<k) != 0 {
					if len(delta) == 0 {
						return nil, errors.New("truncated delta copy")
					}
					size |= int(delta[0]) << (8 * k)
					delta = delta[1:]
				}
			}
			if size == 0 {
				size = 0x10000
			}
			if offset+size > len(base) || offset < 0 {
				return nil, errors.New("delta copy out of range")
			}
			out = append(out, base[offset:offset+size]...)
		case op != 0:
			if int(op) > len(delta) {
				return nil, errors.New("truncated delta insert")
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, errors.New("delta opcode 0")
		}
	}
	if len(out) != dstSize {
		return nil, errors.New("delta result size mismatch")
	}
	return out, nil
}
