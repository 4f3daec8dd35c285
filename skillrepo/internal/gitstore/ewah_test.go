package gitstore

import (
	"encoding/binary"
	"math/rand"
	"reflect"
	"testing"
)

// Bit sets round-trip through our encoder and decoder, runs of zero and
// one words longer than one word included, and every set bit at or past
// the limit is refused.
func TestEWAHRoundTrip(t *testing.T) {
	run := func(from, to uint32) []uint32 {
		var s []uint32
		for i := from; i < to; i++ {
			s = append(s, i)
		}
		return s
	}
	cases := map[string][]uint32{
		"empty":            nil,
		"one":              {0},
		"last of a word":   {63},
		"sparse":           {1, 64, 1000, 50000},
		"ones run 3 words": run(64, 64*4),
		"ones then lits":   append(run(0, 200), 300, 301, 5000),
		"dense":            run(5, 130),
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 50; i++ {
		var s []uint32
		for p := uint32(0); p < 3000; p++ {
			if rng.Intn(1+i%5) == 0 || (p/512)%2 == 1 && i%2 == 0 {
				s = append(s, p)
			}
		}
		cases["random"+string(rune('a'+i%26))+string(rune('a'+i/26))] = s
	}
	for name, set := range cases {
		b := appendEWAH(nil, set)
		got, n, err := decodeEWAH(append(b, "trailing"...), 1<<20)
		if err != nil || n != len(b) {
			t.Errorf("%s: decode: %v (took %d of %d bytes)", name, err, n, len(b))
			continue
		}
		if len(set) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, set) {
			t.Errorf("%s: got %v, want %v", name, got, set)
		}
		if len(set) > 0 {
			if _, _, err := decodeEWAH(b, int(set[len(set)-1])); err == nil {
				t.Errorf("%s: a bit at the limit was accepted", name)
			}
		}
	}
	// A run of ones over a word: the encoder makes one marker, not 4
	// literal words.
	if b := appendEWAH(nil, run(0, 256)); binary.BigEndian.Uint32(b[4:]) != 1 {
		t.Errorf("256 ones took %d words, want 1", binary.BigEndian.Uint32(b[4:]))
	}
}

// Hostile bitmaps are errors, never panics, and never allocate more
// positions than the limit.
func TestEWAHHostile(t *testing.T) {
	word := func(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }
	mk := func(bits, nwords uint32, words []byte, rlw uint32) []byte {
		b := binary.BigEndian.AppendUint32(nil, bits)
		b = binary.BigEndian.AppendUint32(b, nwords)
		b = append(b, words...)
		return binary.BigEndian.AppendUint32(b, rlw)
	}
	cases := map[string][]byte{
		"short":             {0, 0, 0},
		"words past end":    mk(0, 1<<30, nil, 0),
		"huge ones run":     mk(0, 1, word(ewahMaxRun<<1|1), 0),
		"literals past end": mk(0, 1, word(5<<33), 0),
		"rlw past end":      mk(0, 1, word(0), 7),
		"bit past limit":    mk(0, 2, append(word(1<<33|20<<1), word(1)...), 0),
	}
	// Many zero runs of 2^32-1 words each, then a set bit: far past
	// any limit, reached without iterating bit by bit.
	var zeros []byte
	for i := 0; i < 400; i++ {
		zeros = append(zeros, word(ewahMaxRun<<1)...)
	}
	cases["zero runs to 2^40"] = mk(0, 400, zeros, 399)
	for name, b := range cases {
		if got, _, err := decodeEWAH(b, 1000); err == nil || len(got) > 1000 {
			t.Errorf("%s: accepted (%d bits)", name, len(got))
		}
	}
}

func FuzzEWAH(f *testing.F) {
	f.Add(appendEWAH(nil, []uint32{1, 2, 3, 64, 65, 700}), 1000)
	f.Add(appendEWAH(nil, nil), 10)
	f.Fuzz(func(t *testing.T, b []byte, limit int) {
		if limit < 0 || limit > 1<<16 {
			return
		}
		set, n, err := decodeEWAH(b, limit)
		if err != nil {
			return
		}
		if n > len(b) || len(set) > limit {
			t.Fatalf("took %d of %d bytes, %d bits under limit %d", n, len(b), len(set), limit)
		}
		for i, p := range set {
			if int(p) >= limit || i > 0 && p <= set[i-1] {
				t.Fatalf("bit %d out of order or past the limit", p)
			}
		}
		again, _, err := decodeEWAH(appendEWAH(nil, set), limit)
		if err != nil || len(again) != len(set) || len(set) > 0 && !reflect.DeepEqual(again, set) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
