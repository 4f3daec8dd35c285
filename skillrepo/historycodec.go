package skillrepo

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

var errBadHistoryCache = errors.New("malformed history cache")

type recordWriter struct{ b []byte }

func (w *recordWriter) uvarint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *recordWriter) varint(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *recordWriter) hash(h Hash) {
	w.b = append(w.b, h[:]...)
}
func (w *recordWriter) str(s string) {
	w.uvarint(uint64(len(s)))
	w.b = append(w.b, s...)
}
func (w *recordWriter) strs(ss []string) {
	w.uvarint(uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}

// encodeHistory writes records in the cache format.
func encodeHistory(version int, recs []*commitRecord) []byte {
	w := &recordWriter{b: make([]byte, 0, 64*len(recs))}
	w.b = append(w.b, historyMagic...)
	w.uvarint(uint64(version))
	w.uvarint(uint64(len(recs)))
	for _, r := range recs {
		w.hash(r.Hash)
		w.hash(r.Tree)
		w.uvarint(uint64(len(r.Parents)))
		for _, p := range r.Parents {
			w.hash(p)
		}
		w.str(r.AuthorName)
		w.str(r.AuthorEmail)
		w.varint(r.AuthorTime)
		w.varint(int64(r.AuthorTZ))
		w.varint(r.CommitTime)
		w.varint(int64(r.CommitTZ))
		for _, s := range []string{r.Subject, r.Action, r.Origin, r.ReviewID, r.SessionID, r.Model, r.CuratorRun} {
			w.str(s)
		}
		w.strs(r.Names)
		w.strs(r.Imported)
		w.strs(r.From)
		w.uvarint(uint64(len(r.Changes)))
		for _, list := range r.Changes {
			w.uvarint(uint64(len(list)))
			for _, c := range list {
				w.str(c.Path)
				w.hash(c.Old)
				w.hash(c.New)
				w.str(c.From)
			}
		}
	}
	return binary.BigEndian.AppendUint32(w.b, crc32.ChecksumIEEE(w.b))
}

type recordReader struct {
	b   []byte
	err error
}

func (r *recordReader) fail() { r.err = errBadHistoryCache; r.b = nil }

func (r *recordReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *recordReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a length and checks it against what is left (each item
// takes at least min bytes), so a corrupt length cannot allocate wildly.
func (r *recordReader) count(min int) int {
	v := r.uvarint()
	if v > uint64(len(r.b)/min+1) {
		r.fail()
		return 0
	}
	return int(v)
}

func (r *recordReader) hash() Hash {
	var h Hash
	if len(r.b) < 20 {
		r.fail()
		return h
	}
	copy(h[:], r.b[:20])
	r.b = r.b[20:]
	return h
}

func (r *recordReader) str() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *recordReader) strs() []string {
	n := r.count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		out = append(out, r.str())
	}
	return out
}

// decodeHistory reads a cache file; an error means "rebuild".
func decodeHistory(version int, data []byte) ([]*commitRecord, error) {
	if len(data) < len(historyMagic)+4 || string(data[:len(historyMagic)]) != historyMagic {
		return nil, errBadHistoryCache
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, errBadHistoryCache
	}
	r := &recordReader{b: body[len(historyMagic):]}
	if v := r.uvarint(); r.err != nil || v != uint64(version) {
		return nil, errBadHistoryCache
	}
	n := r.count(40)
	recs := make([]*commitRecord, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		rec := &commitRecord{Hash: r.hash(), Tree: r.hash()}
		np := r.count(20)
		for k := 0; k < np && r.err == nil; k++ {
			rec.Parents = append(rec.Parents, r.hash())
		}
		rec.AuthorName, rec.AuthorEmail = r.str(), r.str()
		rec.AuthorTime, rec.AuthorTZ = r.varint(), int(r.varint())
		rec.CommitTime, rec.CommitTZ = r.varint(), int(r.varint())
		rec.Subject, rec.Action, rec.Origin = r.str(), r.str(), r.str()
		rec.ReviewID, rec.SessionID, rec.Model, rec.CuratorRun = r.str(), r.str(), r.str(), r.str()
		rec.Names, rec.Imported, rec.From = r.strs(), r.strs(), r.strs()
		nl := r.count(1)
		for k := 0; k < nl && r.err == nil; k++ {
			nc := r.count(42)
			list := make([]folderChange, 0, nc)
			for j := 0; j < nc && r.err == nil; j++ {
				list = append(list, folderChange{Path: r.str(), Old: r.hash(), New: r.hash(), From: r.str()})
			}
			rec.Changes = append(rec.Changes, list)
		}
		recs = append(recs, rec)
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, errBadHistoryCache
	}
	return recs, nil
}
