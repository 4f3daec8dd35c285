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
func (l *Repo) ScanWorktree() ([]WorktreeFile, error) {
	return ScanFolder(l.Root, l.GitDir, nil)
}

// ScanFolder is scanWorktree for any folder (gitDir need not exist),
// with extra root-level ignore lines (the ones init is about to add).
func ScanFolder(root, gitDir string, extraIgnores []string) ([]WorktreeFile, error) {
	var patterns []gitignore.Pattern
	patterns = append(patterns, readIgnoreFile(filepath.Join(gitDir, "info", "exclude"), nil)...)
	for _, line := range extraIgnores {
		patterns = append(patterns, gitignore.ParsePattern(line, nil))
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
			if len(parts) == 0 && name == ".git" {
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
			out = append(out, WorktreeFile{Path: strings.Join(child, "/"), Info: info})
		}
		return nil
	}
	if err := walk(root, nil); err != nil {
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
