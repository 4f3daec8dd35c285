package history

import (
	"errors"
	"reflect"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
)

func testRecords() []*Record {
	h := func(s string) Hash { return gitstore.NewHash(s) }
	return []*Record{
		{
			Hash: h("1111111111111111111111111111111111111111"), Tree: h("2222222222222222222222222222222222222222"),
			AuthorName: "A", AuthorEmail: "a@example.com", AuthorTime: 1700000000, AuthorTZ: 3600,
			CommitTime: 1700000001, CommitTZ: -7200, Subject: "create demo",
			Action: "create", Origin: "user", Names: []string{"demo"},
			Changes: [][]FolderChange{{{Path: "demo", New: h("3333333333333333333333333333333333333333")}}},
		},
		{
			Hash: h("4444444444444444444444444444444444444444"), Tree: h("5555555555555555555555555555555555555555"),
			Parents: []Hash{h("1111111111111111111111111111111111111111")},
			Subject: "move", Action: "move", ReviewID: "r-1", SessionID: "s-1", Model: "m", CuratorRun: "c-1",
			Imported: []string{"x"}, From: []string{"demo"},
			Changes: [][]FolderChange{{
				{Path: "demo", Old: h("3333333333333333333333333333333333333333")},
				{Path: "tools/demo", New: h("3333333333333333333333333333333333333333"), From: "demo"},
			}},
		},
	}
}

// TestCacheCodec: records survive the cache file, and a torn, corrupted
// or older file is refused (the index then rebuilds it), never trusted.
func TestCacheCodec(t *testing.T) {
	recs := testRecords()
	good := encodeHistory(cacheVersion, recs)
	flipped := append([]byte(nil), good...)
	flipped[len(historyMagic)+5] ^= 0x40
	tests := []struct {
		name    string
		data    []byte
		version int
		want    []*Record
	}{
		{"round trip", good, cacheVersion, recs},
		{"no records", encodeHistory(cacheVersion, nil), cacheVersion, []*Record{}},
		{"torn", good[:len(good)-7], cacheVersion, nil},
		{"bit flipped", flipped, cacheVersion, nil},
		{"older version", good, cacheVersion + 1, nil},
		{"not a cache", []byte("skillrepo-owners\n\x01\x00\x00\x00\x00"), cacheVersion, nil},
		{"empty", nil, cacheVersion, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeHistory(tt.version, tt.data)
			if tt.want == nil {
				if !errors.Is(err, ErrBadCache) {
					t.Fatalf("decoded %d records, err %v; want ErrBadCache", len(got), err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// FuzzCacheFile: whatever the history cache holds, decoding it never
// panics (a cache that does not decode is rebuilt).
func FuzzCacheFile(f *testing.F) {
	f.Add([]byte("SRHI"))
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(encodeHistory(cacheVersion, testRecords()))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = decodeHistory(cacheVersion, data)
	})
}
