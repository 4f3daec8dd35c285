package gitstore

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// WorktreeFile is a file found in the work tree.
type WorktreeFile struct {
	Path string // slash path relative to the root
	Info os.FileInfo
}

// ScanWorktree lists the work tree's files that git would see: .git is
// skipped, and .gitignore files (plus .git/info/exclude) are honoured as
// the walk descends. It reads no file content. Tracked files are the
// caller's business: git keeps tracking an ignored file that is tracked.
// With a prefix it lists the files under the prefix folder (paths
// relative to it), honouring the project's .gitignore files above it too.
func (l *Repo) ScanWorktree() ([]WorktreeFile, error) {
	var start []string
	if l.Prefix != "" {
		start = strings.Split(l.Prefix, "/")
	}
	return scanFolder(l.Root, l.GitDir, start, nil)
}

// ScanFolder is scanWorktree for any folder (gitDir need not exist),
// with extra root-level ignore lines (the ones init is about to add).
func ScanFolder(root, gitDir string, extraIgnores []string) ([]WorktreeFile, error) {
	return scanFolder(root, gitDir, nil, extraIgnores)
}

// scanFolder scans the folder start (path parts below root), with the
// ignore files of root and of every folder down to start applied; paths
// are relative to start. Extra ignore lines apply at start.
func scanFolder(root, gitDir string, start []string, extraIgnores []string) ([]WorktreeFile, error) {
	var patterns []gitignore.Pattern
	patterns = append(patterns, readIgnoreFile(filepath.Join(gitDir, "info", "exclude"), nil)...)
	for i := range start {
		patterns = append(patterns, readIgnoreFile(filepath.Join(append([]string{root}, start[:i]...)...)+string(filepath.Separator)+".gitignore", start[:i])...)
	}
	for _, line := range extraIgnores {
		patterns = append(patterns, gitignore.ParsePattern(line, start))
	}
	var out []WorktreeFile
	var walk func(dir string, parts []string) error
	walk = func(dir string, parts []string) error {
		patterns = append(patterns, readIgnoreFile(filepath.Join(dir, ".gitignore"), parts)...)
		m := gitignore.NewMatcher(patterns)
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			name := e.Name()
			if len(parts) == len(start) && name == ".git" {
				continue
			}
			child := append(append([]string(nil), parts...), name)
			isDir := e.IsDir()
			if m.Match(child, isDir) {
				continue
			}
			full := filepath.Join(dir, name)
			if isDir {
				saved := len(patterns)
				if err := walk(full, child); err != nil {
					return err
				}
				patterns = patterns[:saved]
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue // vanished during the walk
			}
			if !info.Mode().IsRegular() && info.Mode()&os.ModeSymlink == 0 {
				continue // sockets, fifos: not content
			}
			out = append(out, WorktreeFile{Path: strings.Join(child[len(start):], "/"), Info: info})
		}
		return nil
	}
	if err := walk(filepath.Join(append([]string{root}, start...)...), start); err != nil {
		return nil, err
	}
	return out, nil
}

func readIgnoreFile(path string, domain []string) []gitignore.Pattern {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
