package agentsession

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/skillrepo"
)

// LogPath is the hooks log of a library state directory.
func LogPath(stateDir string) string { return filepath.Join(stateDir, "logs", "hooks.log") }

// Log appends lines to the library's hooks log (rotated at 1 MiB, one old
// file kept). It finds the library from dir without opening it; with no
// library it does nothing and reports false.
func Log(dir string, now time.Time, name agent.Name, event string, lines ...string) bool {
	state, ok := skillrepo.StateOf(dir)
	if !ok {
		return false
	}
	p := LogPath(state.Hooks())
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
		fmt.Fprintf(f, "%s %s %s %s\n", now.UTC().Format(time.RFC3339), name, event, l)
	}
	return true
}
