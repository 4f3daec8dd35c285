package gitstore

// git's EWAH bitmaps (the compressed bitmaps of its split index "link"
// extension; docs/git-format.md §4). Serialized: the number of bits
// (32-bit), the number of 64-bit words (32-bit), the words, and the
// position of the last marker word (32-bit), all big-endian. The words are
// groups: a marker word (bit 0: the bit value of a run; bits 1-32: the
// run's length in words; bits 33-63: how many literal words follow), then
// that many literal words, whose bit k is the bitmap's bit 64*word+k.
//
// The bitmaps come from a file anyone can write, so decoding is bounded:
// a set bit at or past limit is an error (no bitmap we use may address an
// entry the shared index does not have), so the positions returned never
// outnumber limit, and no size read from the input is allocated before it
// is checked against the input's length.

import (
	"encoding/binary"
	"errors"
	"fmt"
)

const (
	ewahRunBits     = 32
	ewahLiteralBits = 31
	ewahMaxRun      = 1<<ewahRunBits - 1
	ewahMaxLiteral  = 1<<ewahLiteralBits - 1
)

var errEWAH = errors.New("corrupt EWAH bitmap")

// decodeEWAH reads one serialized bitmap from the start of b and returns
// its set bits in increasing order and the bytes it took. A set bit at or
// past limit is an error.
func decodeEWAH(b []byte, limit int) ([]uint32, int, error) {
	be := binary.BigEndian
	if len(b) < 12 {
		return nil, 0, fmt.Errorf("%w: truncated", errEWAH)
	}
	nwords := uint64(be.Uint32(b[4:]))
	if nwords > uint64(len(b)-12)/8 {
		return nil, 0, fmt.Errorf("%w: %d words do not fit in %d bytes", errEWAH, nwords, len(b))
	}
	words := b[8 : 8+8*nwords]
	used := 8 + 8*int(nwords) + 4
	if rlw := uint64(be.Uint32(b[used-4:])); nwords > 0 && rlw >= nwords {
		return nil, 0, fmt.Errorf("%w: marker position %d past %d words", errEWAH, rlw, nwords)
	}
	var out []uint32
	var pos uint64 // bit position of the next word
	lim := uint64(limit)
	for w := uint64(0); w < nwords; {
		marker := be.Uint64(words[8*w:])
		w++
		run := (marker >> 1) & ewahMaxRun
		lits := marker >> (1 + ewahRunBits)
		if marker&1 != 0 && run > 0 {
			if pos+run*64 > lim {
				return nil, 0, fmt.Errorf("%w: bit %d set, past %d entries", errEWAH, pos+run*64-1, limit)
			}
			for k := uint64(0); k < run*64; k++ {
				out = append(out, uint32(pos+k))
			}
		}
		pos += run * 64
		if lits > nwords-w {
			return nil, 0, fmt.Errorf("%w: %d literal words, %d left", errEWAH, lits, nwords-w)
		}
		for ; lits > 0; lits-- {
			lit := be.Uint64(words[8*w:])
			w++
			for k := uint64(0); lit != 0; k++ {
				if lit&1 != 0 {
					if pos+k >= lim {
						return nil, 0, fmt.Errorf("%w: bit %d set, past %d entries", errEWAH, pos+k, limit)
					}
					out = append(out, uint32(pos+k))
				}
				lit >>= 1
			}
			pos += 64
		}
		if pos > 1<<40 { // far past any index: a hostile run, stop counting
			return nil, 0, fmt.Errorf("%w: runs past 2^40 bits", errEWAH)
		}
	}
	return out, used, nil
}

// appendEWAH appends the serialized bitmap whose set bits are set (in
// increasing order, no repeats). Words all zero or all one become runs, as
// in git's own bitmaps; the bit count is one past the highest set bit.
func appendEWAH(b []byte, set []uint32) []byte {
	be := binary.BigEndian
	var bits uint32
	var dense []uint64
	if len(set) > 0 {
		bits = set[len(set)-1] + 1
		dense = make([]uint64, (int(bits)+63)/64)
		for _, p := range set {
			dense[p/64] |= 1 << (p % 64)
		}
	}
	var words []uint64
	rlw := 0
	for i := 0; i < len(dense) || len(words) == 0; {
		var marker uint64
		rlw = len(words)
		words = append(words, 0)
		if i < len(dense) && (dense[i] == 0 || dense[i] == ^uint64(0)) {
			fill := dense[i]
			run := uint64(0)
			for i < len(dense) && dense[i] == fill && run < ewahMaxRun {
				run++
				i++
			}
			marker = run << 1
			if fill != 0 {
				marker |= 1
			}
		}
		lits := uint64(0)
		for i < len(dense) && dense[i] != 0 && dense[i] != ^uint64(0) && lits < ewahMaxLiteral {
			words = append(words, dense[i])
			lits++
			i++
		}
		words[rlw] = marker | lits<<(1+ewahRunBits)
	}
	b = be.AppendUint32(b, bits)
	b = be.AppendUint32(b, uint32(len(words)))
	for _, w := range words {
		b = be.AppendUint64(b, w)
	}
	return be.AppendUint32(b, uint32(rlw))
}
