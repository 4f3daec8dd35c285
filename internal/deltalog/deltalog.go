// Package deltalog is the tail of a per-clone cache file: after a base the
// owner writes whole, deltas are appended one framed write each (a length,
// the payload, its CRC), so bringing a cache to the next tree costs one
// small append instead of rewriting it. A frame that is torn or fails its
// CRC ends the chain where it starts, and a frame appended to a file that
// another process replaced meanwhile is not written: a reader trusts the
// frames before the first bad one and rebuilds from there. The skill
// catalogue and the overlap index keep their deltas this way
// (docs/architecture.md §5, the per-clone caches).
package deltalog

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
)

// Read reads the deltas of a cache file (size bytes from off) and hands
// each frame's payload to apply, in order, until a frame is torn, fails
// its CRC, or apply refuses it. It returns the bytes of the frames applied
// and whether any bytes were left after them.
func Read(f io.ReaderAt, off, size int64, apply func(payload []byte) bool) (int64, bool) {
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

// Append appends payload, framed, to the cache file at p, whose size must
// still be want (else another process changed it: left alone). It returns
// the frame's size.
func Append(p string, want int64, payload []byte) (int64, error) {
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

// String reads a string AppendString wrote at the start of b and returns
// the rest; ok is false when b is too short for it.
func String(b []byte) (s string, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return "", nil, false
	}
	return string(b[k : k+int(n)]), b[k+int(n):], true
}

// AppendString appends s, its length first, to b.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}
