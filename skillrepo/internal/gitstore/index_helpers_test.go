package gitstore

import (
	"bytes"
	"fmt"
)

// The tests' views of an index: the engine itself reads an index through
// Repo.loadIndex (split or not) and writes it with writeTo.

func (e *indexEntry) stage() int { return int(e.Flags&indexFlagStage) >> 12 }

// decodeIndex is decodeIndexFile of an index that is not split.
func decodeIndex(b []byte) (*Index, error) {
	idx, link, err := decodeIndexFile(b)
	if err != nil {
		return nil, err
	}
	if link != nil {
		return nil, fmt.Errorf("%w: a split index is read with its shared index (Repo.loadIndex)", errIndexCorrupt)
	}
	return idx, nil
}

// encode is writeTo into memory.
func (idx *Index) encode() []byte {
	var b bytes.Buffer
	idx.writeTo(&b) // a bytes.Buffer does not fail
	return b.Bytes()
}
