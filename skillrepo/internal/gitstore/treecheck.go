package gitstore

// Trees from elsewhere (a remote's main, a proposal branch fetched from
// one) are checked the way git's fsck checks them before any of their
// paths reaches the work tree or the index (docs/git-format.md §13): a
// tree may hold entry names no checkout should write — ".git" and the
// names a case-insensitive, HFS+ or NTFS file system takes for it, ".",
// "..", an empty name, a name with "/" — and symlinks that later paths
// would follow out of the library. git itself refuses them (fsck's
// hasDotgit, hasDotdot, …; checkout's verify_path); so do we, whatever
// the file system here is, since the same tree reaches every teammate's.

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// UnsafePathError names a path a checkout must not write, and why.
type UnsafePathError struct {
	Path   string
	Reason string
}

func (e *UnsafePathError) Error() string {
	return fmt.Sprintf("unsafe path %q: %s", e.Path, e.Reason)
}

// ErrUnsafePath matches every *UnsafePathError.
var ErrUnsafePath = errors.New("unsafe path")

// Is makes errors.Is(err, ErrUnsafePath) true.
func (e *UnsafePathError) Is(target error) bool { return target == ErrUnsafePath }

// CheckName reports why a tree entry name must not be checked out ("" when
// it may). mode is the entry's: a symlink named like .gitmodules is
// refused as git's fsck refuses it (git would read the file it points to).
func CheckName(name string, mode filemode.FileMode) string {
	switch {
	case name == "":
		return "an empty name"
	case name == ".":
		return `a "." entry`
	case name == "..":
		return `a ".." entry (it would write outside the library)`
	case strings.ContainsRune(name, '/'):
		return "a name holding /"
	case strings.ContainsRune(name, 0):
		return "a name holding a NUL byte"
	case isDotGit(name):
		return "a .git entry (or a name a case-insensitive, HFS+ or NTFS file system takes for .git): it would write into the repository's own folder"
	}
	if mode == filemode.Symlink {
		for _, special := range []string{"gitmodules", "gitattributes", "gitignore", "mailmap"} {
			if isDotFile(name, special) {
				return "." + special + " as a symlink (git would read the file it points to)"
			}
		}
	}
	return ""
}

// VerifyPath checks each folder and file name of a slash path.
func VerifyPath(p string, mode filemode.FileMode) error {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		m := filemode.Dir
		if i == len(parts)-1 {
			m = mode
		}
		if why := CheckName(part, m); why != "" {
			return &UnsafePathError{Path: p, Reason: why}
		}
	}
	return nil
}

// isDotGit reports a name git refuses as .git: any case, HFS+'s ignored
// code points anywhere, NTFS's trailing dots and spaces, its short name
// GIT~1, an alternate data stream (".git::$INDEX_ALLOCATION"), and each
// backslash-separated part (a folder separator on Windows).
func isDotGit(name string) bool {
	if hfsEqualFold(name, ".git") {
		return true
	}
	for part := range strings.SplitSeq(name, `\`) {
		if ntfsDotName(part, ".git", "git~1") {
			return true
		}
	}
	return false
}

// isDotFile reports a name a file system takes for ".<base>" (base is one
// of git's own files: gitmodules, …), by the same rules, and NTFS's short
// names of it (the first six letters, "~" and a digit).
func isDotFile(name, base string) bool {
	if hfsEqualFold(name, "."+base) {
		return true
	}
	short := base
	if len(short) > 6 {
		short = short[:6]
	}
	for part := range strings.SplitSeq(name, `\`) {
		if ntfsDotName(part, "."+base, "") {
			return true
		}
		if len(part) >= len(short)+2 && strings.EqualFold(part[:len(short)], short) && part[len(short)] == '~' &&
			part[len(short)+1] >= '1' && part[len(short)+1] <= '9' && onlyDotsSpaces(part[len(short)+2:]) {
			return true
		}
	}
	return false
}

// ntfsDotName reports whether part is want (or short, when set) in any
// case, followed by nothing but dots and spaces, up to the end or a ":"
// (an alternate data stream).
func ntfsDotName(part, want, short string) bool {
	for _, w := range []string{want, short} {
		if w == "" || len(part) < len(w) || !strings.EqualFold(part[:len(w)], w) {
			continue
		}
		rest := part[len(w):]
		if i := strings.IndexByte(rest, ':'); i >= 0 {
			rest = rest[:i]
		}
		if onlyDotsSpaces(rest) {
			return true
		}
	}
	return false
}

func onlyDotsSpaces(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '.' && s[i] != ' ' {
			return false
		}
	}
	return true
}

// hfsEqualFold compares name to an ASCII want as HFS+ does: the code
// points it ignores are skipped, ASCII letters compare in any case.
// Invalid UTF-8 never matches.
func hfsEqualFold(name, want string) bool {
	i := 0
	for _, r := range name {
		switch {
		case r == utf8.RuneError:
			return false
		case hfsIgnored(r):
			continue
		case i >= len(want) || r >= utf8.RuneSelf || !strings.EqualFold(string(r), want[i:i+1]):
			return false
		}
		i++
	}
	return i == len(want)
}

// hfsIgnored are the code points HFS+ leaves out of a name's comparison
// (zero-width joiners, direction marks, the byte order mark).
func hfsIgnored(r rune) bool {
	return r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff
}

// TreeChecker checks trees from elsewhere, remembering the subtrees it
// found clean, so checking each commit of a series costs only its new
// trees.
type TreeChecker struct {
	store *Store
	clean map[treeAt]bool
}

// treeAt is a tree checked at a depth: whether a symlink's target leaves
// the library depends on how deep the link is.
type treeAt struct {
	hash  plumbing.Hash
	depth int
}

// NewTreeChecker returns a checker reading store.
func (store *Store) NewTreeChecker() *TreeChecker {
	return &TreeChecker{store: store, clean: map[treeAt]bool{}}
}

// Check walks tree and returns an *UnsafePathError for its first entry a
// checkout must not write: a name CheckName refuses, two entries of one
// name, or a symlink whose target is absolute, leaves the library or
// goes through a .git folder.
func (c *TreeChecker) Check(tree plumbing.Hash) error {
	return c.check(tree, "")
}

func (c *TreeChecker) check(tree plumbing.Hash, dir string) error {
	depth := 0
	if dir != "" {
		depth = strings.Count(dir, "/") + 1
	}
	key := treeAt{tree, depth}
	if c.clean[key] {
		return nil
	}
	entries, err := c.store.Tree(tree)
	if err != nil {
		return fmt.Errorf("read tree %s of %q: %w", ShortHash(tree), dir, err)
	}
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		p := e.Name
		if dir != "" {
			p = dir + "/" + e.Name
		}
		if why := CheckName(e.Name, e.Mode); why != "" {
			return &UnsafePathError{Path: p, Reason: why}
		}
		if seen[e.Name] {
			return &UnsafePathError{Path: p, Reason: "two entries of the same name"}
		}
		seen[e.Name] = true
		switch e.Mode {
		case filemode.Dir:
			if err := c.check(e.Hash, p); err != nil {
				return err
			}
		case filemode.Symlink:
			target, err := c.store.Blob(e.Hash)
			if err != nil {
				return fmt.Errorf("read the symlink %q: %w", p, err)
			}
			if why := CheckSymlink(p, string(target)); why != "" {
				return &UnsafePathError{Path: p, Reason: why}
			}
		}
	}
	c.clean[key] = true
	return nil
}

// CheckSymlink reports why a symlink at slash path p with target must not
// be checked out ("" when it may): an absolute target, one that climbs
// out of the library, one through a .git folder. A later path through
// such a link (or a read of it) would reach outside the library.
func CheckSymlink(p, target string) string {
	switch {
	case target == "":
		return "a symlink with an empty target"
	case strings.HasPrefix(target, "/") || strings.HasPrefix(target, `\`) || (len(target) > 1 && target[1] == ':'):
		return fmt.Sprintf("a symlink to the absolute path %q (outside the library)", target)
	case strings.ContainsRune(target, 0):
		return "a symlink target holding a NUL byte"
	}
	depth := strings.Count(p, "/") // folders above the link
	for part := range strings.SplitSeq(strings.ReplaceAll(target, `\`, "/"), "/") {
		switch {
		case part == "" || part == ".":
		case part == "..":
			if depth == 0 {
				return fmt.Sprintf("a symlink to %q, outside the library", target)
			}
			depth--
		case isDotGit(part):
			return fmt.Sprintf("a symlink to %q, into a .git folder", target)
		default:
			depth++
		}
	}
	return ""
}
