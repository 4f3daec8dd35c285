package gitstore

// Sparse checkouts (git sparse-checkout) and per-worktree configuration
// (extensions.worktreeConfig, which 'git sparse-checkout set' turns on).
//
// go-git refuses to open a repository with extensions.worktreeConfig, so
// its view of .git/config leaves that one extension out (gitfs.go); any
// other extension still makes it refuse, and so the engine refuses what
// it does not know. The engine reads config.worktree itself.
//
// With core.sparseCheckout on, files outside the patterns of
// .git/info/sparse-checkout are not in the work tree (their index entries
// carry the skip-worktree bit). A write whose paths are all inside the
// patterns is done as usual: entries of other paths, bits included, are
// kept as they were. A write touching a path outside the patterns is
// refused before anything is written: materialising it would be wrong,
// and recording it index-only is not done yet.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// gitConfigBool reads a boolean from git's configuration (gitconfig.go),
// false when unset or unreadable.
func (l *Repo) gitConfigBool(section, key string) bool {
	entries, _ := l.readGitConfig()
	want := strings.ToLower(section + "." + key)
	val := ""
	for _, e := range entries {
		if e.key == want {
			val = e.value
		}
	}
	return isTrue(val)
}

func isTrue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}

// SparseCheckout reports whether the work tree is a sparse checkout
// (core.sparseCheckout).
func (l *Repo) SparseCheckout() bool { return l.gitConfigBool("core", "sparseCheckout") }

// sparseMatcher returns whether a path is inside the sparse checkout, or
// nil when the work tree is not sparse.
func (l *Repo) sparseMatcher() func(p string) bool {
	if !l.gitConfigBool("core", "sparseCheckout") {
		return nil
	}
	f, err := os.Open(filepath.Join(l.GitDir, "info", "sparse-checkout"))
	if err != nil {
		return func(string) bool { return false } // git: nothing checked out
	}
	defer f.Close()
	var patterns []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		patterns = append(patterns, gitignore.ParsePattern(line, nil))
	}
	m := gitignore.NewMatcher(patterns)
	// The patterns read as .gitignore ones, meaning "in the checkout":
	// a file is in when it, or a folder above it, matches last.
	return func(p string) bool {
		parts := strings.Split(p, "/")
		for i := 1; i < len(parts); i++ {
			if m.Match(parts[:i], true) {
				return true
			}
		}
		return m.Match(parts, false)
	}
}

// checkSparse refuses a write to the checked-out branch that touches a
// path outside the sparse checkout.
func (l *Repo) checkSparse(paths []string) error {
	in := l.sparseMatcher()
	if in == nil {
		return nil
	}
	for _, p := range paths {
		if !in(p) {
			return &StateError{
				State: fmt.Sprintf("%s is outside the sparse checkout (git sparse-checkout): writing it would put a file where git keeps none", p),
				Fix:   fmt.Sprintf("add its folder with 'git sparse-checkout add %s', or write on a branch that is not checked out, then retry", filepath.ToSlash(filepath.Dir(p))),
			}
		}
	}
	return nil
}
