package agentsession

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// LogPath is the hooks log of a library state directory.
func LogPath(stateDir string) string { return filepath.Join(stateDir, "logs", "hooks.log") }

// Log appends lines to the library's hooks log (rotated at 1 MiB, one old
// file kept). It finds the library from dir without opening it; with no
// library it does nothing and reports false.
func Log(dir string, now time.Time, agent hooks.Agent, event string, lines ...string) bool {
	root, libRoot := dir, ""
	for {
		if libRoot == "" {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(skillrepo.ConfigPath))); err == nil {
				libRoot = root
			}
		}
		if fi, err := os.Stat(filepath.Join(root, ".git")); err == nil && fi.IsDir() {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return false
		}
		root = parent
	}
	state := filepath.Join(root, ".git", "skillrepo")
	if rel, err := filepath.Rel(root, libRoot); libRoot != "" && err == nil && rel != "." {
		// A library in a folder of a project's repository logs with the
		// rest of its state (docs/project-libraries.md).
		state = filepath.Join(state, skillrepo.PrefixStateName(filepath.ToSlash(rel)))
	}
	p := LogPath(state)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return false
	}
	if fi, err := os.Stat(p); err == nil && fi.Size() > 1<<20 {
		_ = os.Rename(p, p+".1")
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, l := range lines {
		fmt.Fprintf(f, "%s %s %s %s\n", now.UTC().Format(time.RFC3339), agent, event, l)
	}
	return true
}
