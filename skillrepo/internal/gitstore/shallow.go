package gitstore

// A shallow clone (git clone --depth N) lists in .git/shallow the commits
// whose parents it does not have. git treats them as root commits (a
// graft), and so does every commit read here: their parent lines are
// dropped, so a history walk stops at the boundary instead of failing on
// a missing object. Callers that must not guess (ownership) check
// IsShallow and refuse.

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// loadShallow reads .git/shallow once per Repo (a fetch that deepens the
// clone runs in another process; the next command sees it).
func (l *Repo) loadShallow() map[plumbing.Hash]bool {
	l.shallowOnce.Do(func() {
		f, err := os.Open(filepath.Join(l.GitDir, "shallow"))
		if err != nil {
			return
		}
		defer f.Close()
		l.shallow = map[plumbing.Hash]bool{}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if s := strings.TrimSpace(sc.Text()); plumbing.IsHash(s) {
				l.shallow[plumbing.NewHash(s)] = true
			}
		}
	})
	return l.shallow
}

// IsShallowRepo reports whether the repository is a shallow clone.
func (l *Repo) IsShallowRepo() bool { return len(l.loadShallow()) > 0 }

// IsShallow reports whether commit h is a shallow boundary: its parents
// are not in this clone, and history read here stops at it.
func (l *Repo) IsShallow(h plumbing.Hash) bool { return l.loadShallow()[h] }

// graft drops the parent lines of a shallow commit's raw content (a new
// slice; data may be shared with a cache).
func (l *Repo) graft(typ plumbing.ObjectType, h plumbing.Hash, data []byte) []byte {
	if typ != plumbing.CommitObject || !l.IsShallow(h) {
		return data
	}
	head, body, _ := bytes.Cut(data, []byte("\n\n"))
	var out []byte
	for _, line := range bytes.Split(head, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("parent ")) {
			continue
		}
		out = append(append(out, line...), '\n')
	}
	if bytes.Contains(data, []byte("\n\n")) {
		out = append(append(out, '\n'), body...)
	}
	return out
}
