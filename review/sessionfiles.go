package review

import (
	"bufio"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Session files found by name, for `skillrepo review --session` (each
// agent's folder knows its own names; these are the shared steps).

// maxSessionHead bounds what is read of a session file to tell whose it
// is: its first line (a Codex rollout's session_meta, a Gemini CLI
// session's header) or its opening bytes.
const maxSessionHead = 1 << 20

// SessionHead is the first line of a session file (at most 1 MiB of it);
// nil when it cannot be read or is no regular file (a FIFO is never
// opened for reading).
func SessionHead(path string) []byte {
	// Opened without following a final link and checked on the open
	// descriptor: a file swapped for a FIFO after a look is not read.
	f, err := boundedread.OpenNoFollow(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(io.LimitReader(f, maxSessionHead), 64<<10).ReadSlice('\n')
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil
	}
	return append([]byte(nil), line...)
}

// SessionFiles are the regular files the glob patterns match, newest
// (last written) first; a pattern that matches nothing adds nothing.
func SessionFiles(patterns ...string) []string {
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	seen := map[string]bool{}
	for _, p := range patterns {
		matches, _ := filepath.Glob(p)
		for _, m := range matches {
			fi, err := os.Lstat(m)
			if err != nil || !fi.Mode().IsRegular() || seen[m] {
				continue
			}
			seen[m] = true
			files = append(files, file{m, fi.ModTime()})
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].mod.After(files[j].mod) })
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.path
	}
	return out
}
