package history

// The history cache's file format. gob writes a [20]byte hash one byte at
// a time, which made loading the cache of a 2,000-commit library cost more
// than the walk it saved; this is a flat binary encoding instead:
//
//	"skillrepo-history\n" uvarint(version) uvarint(count) record*  crc32
//
// with hashes as 20 raw bytes, integers as (u)varints and strings and
// lists length-prefixed. The trailing CRC-32 (IEEE) covers everything
// before it, so a torn or corrupted file is detected and rebuilt, never
// trusted.

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
)

const historyMagic = "skillrepo-history\n"

// ErrBadCache: a cache file is torn, corrupt or of another version; it is
// rebuilt, never trusted.
var ErrBadCache = errors.New("malformed history cache")

// Writer appends values in the cache encoding; the domain's owners cache,
// kept beside the history cache, is written with it too.
type Writer struct{ B []byte }

// Uvarint appends an unsigned varint.
func (w *Writer) Uvarint(v uint64) { w.B = binary.AppendUvarint(w.B, v) }

// Varint appends a signed varint.
func (w *Writer) Varint(v int64) { w.B = binary.AppendVarint(w.B, v) }

// Hash appends the 20 raw bytes of h.
func (w *Writer) Hash(h Hash) {
	w.B = append(w.B, h[:]...)
}

// Str appends a length-prefixed string.
func (w *Writer) Str(s string) {
	w.Uvarint(uint64(len(s)))
	w.B = append(w.B, s...)
}

// Strs appends a counted list of strings.
func (w *Writer) Strs(ss []string) {
	w.Uvarint(uint64(len(ss)))
	for _, s := range ss {
		w.Str(s)
	}
}

// encodeHistory writes records in the cache format.
func encodeHistory(version int, recs []*Record) []byte {
	w := &Writer{B: make([]byte, 0, 64*len(recs))}
	w.B = append(w.B, historyMagic...)
	w.Uvarint(uint64(version))
	w.Uvarint(uint64(len(recs)))
	for _, r := range recs {
		w.Hash(r.Hash)
		w.Hash(r.Tree)
		w.Uvarint(uint64(len(r.Parents)))
		for _, p := range r.Parents {
			w.Hash(p)
		}
		w.Str(r.AuthorName)
		w.Str(r.AuthorEmail)
		w.Varint(r.AuthorTime)
		w.Varint(int64(r.AuthorTZ))
		w.Varint(r.CommitTime)
		w.Varint(int64(r.CommitTZ))
		for _, s := range []string{r.Subject, r.Action, r.Origin, r.ReviewID, r.SessionID, r.Model, r.CuratorRun} {
			w.Str(s)
		}
		w.Strs(r.Names)
		w.Strs(r.Imported)
		w.Strs(r.From)
		w.Uvarint(uint64(len(r.Changes)))
		for _, list := range r.Changes {
			w.Uvarint(uint64(len(list)))
			for _, c := range list {
				w.Str(c.Path)
				w.Hash(c.Old)
				w.Hash(c.New)
				w.Str(c.From)
			}
		}
	}
	return binary.BigEndian.AppendUint32(w.B, crc32.ChecksumIEEE(w.B))
}

// Reader reads values in the cache encoding from B; the first malformed
// value sets Err to ErrBadCache and empties B.
type Reader struct {
	B   []byte
	Err error
}

func (r *Reader) fail() { r.Err = ErrBadCache; r.B = nil }

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(r.B)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.B = r.B[n:]
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	v, n := binary.Varint(r.B)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.B = r.B[n:]
	return v
}

// Count reads a length and checks it against what is left (each item
// takes at least min bytes), so a corrupt length cannot allocate wildly.
func (r *Reader) Count(min int) int {
	v := r.Uvarint()
	if v > uint64(len(r.B)/min+1) {
		r.fail()
		return 0
	}
	return int(v)
}

// Hash reads 20 raw bytes.
func (r *Reader) Hash() Hash {
	var h Hash
	if len(r.B) < 20 {
		r.fail()
		return h
	}
	copy(h[:], r.B[:20])
	r.B = r.B[20:]
	return h
}

// Str reads a length-prefixed string.
func (r *Reader) Str() string {
	n := r.Uvarint()
	if n > uint64(len(r.B)) {
		r.fail()
		return ""
	}
	s := string(r.B[:n])
	r.B = r.B[n:]
	return s
}

// Strs reads a counted list of strings.
func (r *Reader) Strs() []string {
	n := r.Count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for i := 0; i < n && r.Err == nil; i++ {
		out = append(out, r.Str())
	}
	return out
}

// decodeHistory reads a cache file; an error means "rebuild".
func decodeHistory(version int, data []byte) ([]*Record, error) {
	if len(data) < len(historyMagic)+4 || string(data[:len(historyMagic)]) != historyMagic {
		return nil, ErrBadCache
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, ErrBadCache
	}
	r := &Reader{B: body[len(historyMagic):]}
	if v := r.Uvarint(); r.Err != nil || v != uint64(version) {
		return nil, ErrBadCache
	}
	n := r.Count(40)
	recs := make([]*Record, 0, n)
	for i := 0; i < n && r.Err == nil; i++ {
		rec := &Record{Hash: r.Hash(), Tree: r.Hash()}
		np := r.Count(20)
		for k := 0; k < np && r.Err == nil; k++ {
			rec.Parents = append(rec.Parents, r.Hash())
		}
		rec.AuthorName, rec.AuthorEmail = r.Str(), r.Str()
		rec.AuthorTime, rec.AuthorTZ = r.Varint(), int(r.Varint())
		rec.CommitTime, rec.CommitTZ = r.Varint(), int(r.Varint())
		rec.Subject, rec.Action, rec.Origin = r.Str(), r.Str(), r.Str()
		rec.ReviewID, rec.SessionID, rec.Model, rec.CuratorRun = r.Str(), r.Str(), r.Str(), r.Str()
		rec.Names, rec.Imported, rec.From = r.Strs(), r.Strs(), r.Strs()
		nl := r.Count(1)
		for k := 0; k < nl && r.Err == nil; k++ {
			nc := r.Count(42)
			list := make([]FolderChange, 0, nc)
			for j := 0; j < nc && r.Err == nil; j++ {
				list = append(list, FolderChange{Path: r.Str(), Old: r.Hash(), New: r.Hash(), From: r.Str()})
			}
			rec.Changes = append(rec.Changes, list)
		}
		recs = append(recs, rec)
	}
	if r.Err != nil || len(r.B) != 0 {
		return nil, ErrBadCache
	}
	return recs, nil
}
