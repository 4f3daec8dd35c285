package gitstore

import (
	"fmt"
	"io"
	"os"
	"runtime"
)

// mmapIndexMin is the size from which .git/index is mapped instead of
// read. A project's index of 50,000 files is 5 MB: reading it copies every
// byte into fresh heap memory, which the kernel must fault in page by page
// (about 20 ms of a 60 ms write, bench/prefix.sh), while a mapping shares
// the page cache's pages. A library's own index (a few hundred KB) is read.
const mmapIndexMin = 512 << 10

// indexMapping owns a read-only mapping of an index file. An Index that
// borrows from the mapping points at it (Index.mapping), and the mapping
// is released by a cleanup once no Index does: indexes are cloned and
// cached (indexCache), so no single owner could say when it is unused.
//
// git replaces .git/index by renaming a new file over it and never writes
// the old one in place, so the mapped bytes do not change under us.
type indexMapping struct {
	b []byte
}

// readIndexBytes returns the size bytes of f: mapped (with the mapping
// that owns them) when the file is large and the platform can map it,
// else read into memory (nil mapping).
func readIndexBytes(f *os.File, size int64) ([]byte, *indexMapping, error) {
	if size >= mmapIndexMin {
		if b, err := mmapFile(f); err == nil {
			if int64(len(b)) != size {
				unmapFile(b)
				return nil, nil, fmt.Errorf("%s changed size while it was read", f.Name())
			}
			m := &indexMapping{b: b}
			runtime.AddCleanup(m, unmapFile, b)
			return b, m, nil
		}
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, err
	}
	return b, nil, nil
}
