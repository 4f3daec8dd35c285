package skillrepo

import (
	"bytes"
	"io/fs"
	"sync"
	"testing"
)

// A snapshot's fs.FS is read by several goroutines at once (lint checks
// skills in parallel inside the write gate). Every reader must get the
// object's own bytes: the library's reused zlib readers once handed one
// goroutine another's stream ("malformed loose object").
func TestSnapshotFSConcurrentReads(t *testing.T) {
	l, _ := newTestLibrary(t)
	snap, err := l.Snapshot(l.MainBranch())
	if err != nil {
		t.Fatal(err)
	}
	fsys := snap.FS()
	want := map[string][]byte{}
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		want[p] = b
		return err
	})
	if err != nil || len(want) < 5 {
		t.Fatalf("walk: %v (%d files)", err, len(want))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				for p, w := range want {
					b, err := fs.ReadFile(fsys, p)
					if err != nil || !bytes.Equal(b, w) {
						select {
						case errs <- p + ": " + errString(err):
						default:
						}
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func errString(err error) string {
	if err == nil {
		return "content differs"
	}
	return err.Error()
}
