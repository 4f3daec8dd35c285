package gitstore

import (
	"bytes"
	"errors"
	"os"
	"strings"

	"github.com/go-git/go-billy/v5"
)

// idxBufferedFS is the .git directory as go-git's storage sees it, with
// one change: pack index files (.idx) are read into memory in one read.
// go-git decodes them through an unbuffered reader, 4 bytes per read(2):
// on a 10,000-skill library that was 13,000 system calls, a third of a
// whole `skill patch`.
type idxBufferedFS struct {
	billy.Filesystem
}

func (f idxBufferedFS) Open(name string) (billy.File, error) {
	if name == "config" {
		// go-git refuses extensions.worktreeConfig (and misspells its
		// check); the engine reads config.worktree itself (sparse.go).
		b, err := os.ReadFile(f.Join(f.Root(), name))
		if err != nil {
			return nil, err
		}
		return &memFile{name: name, Reader: bytes.NewReader(withoutWorktreeConfig(b))}, nil
	}
	if strings.HasSuffix(name, ".idx") {
		b, err := os.ReadFile(f.Join(f.Root(), name))
		if err != nil {
			return nil, err
		}
		return &memFile{name: name, Reader: bytes.NewReader(b)}, nil
	}
	return f.Filesystem.Open(name)
}

func (f idxBufferedFS) Capabilities() billy.Capability { return billy.Capabilities(f.Filesystem) }

// memFile is a read-only billy.File over bytes.
type memFile struct {
	name string
	*bytes.Reader
}

var errReadOnly = errors.New("read-only file")

func (m *memFile) Name() string              { return m.name }
func (m *memFile) Write([]byte) (int, error) { return 0, errReadOnly }
func (m *memFile) Close() error              { return nil }
func (m *memFile) Lock() error               { return nil }
func (m *memFile) Unlock() error             { return nil }
func (m *memFile) Truncate(int64) error      { return errReadOnly }

// withoutWorktreeConfig drops the worktreeConfig line of the [extensions]
// section from a git config file's bytes.
func withoutWorktreeConfig(b []byte) []byte {
	var out []byte
	inExt := false
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		t := strings.ToLower(strings.TrimSpace(string(line)))
		if strings.HasPrefix(t, "[") {
			inExt = strings.HasPrefix(t, "[extensions]")
		}
		if inExt && strings.HasPrefix(strings.ReplaceAll(t, " ", ""), "worktreeconfig") {
			continue
		}
		out = append(out, line...)
	}
	return out
}
