package curator

import (
	"io/fs"
	"sync"
)

// serialFS hands a library snapshot to the linter one read at a time.
// The linter checks skills in parallel, and the engine's loose-object
// reader is shared by the whole library and not safe for concurrent use:
// two skills read at once corrupt each other's read ("malformed loose
// object"). Every read of a snapshot's fs.FS happens in Open, ReadFile or
// ReadDir (files and folders are read whole when opened), so locking
// those three is enough.
type serialFS struct {
	mu   *sync.Mutex
	fsys fs.FS
}

func serial(fsys fs.FS) fs.FS { return serialFS{mu: &sync.Mutex{}, fsys: fsys} }

func (s serialFS) Open(name string) (fs.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fsys.Open(name)
}

func (s serialFS) ReadFile(name string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fs.ReadFile(s.fsys, name)
}

func (s serialFS) ReadDir(name string) ([]fs.DirEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fs.ReadDir(s.fsys, name)
}
