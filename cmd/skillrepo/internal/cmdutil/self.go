package cmdutil

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/agent"
)

// SelfExecutable is how hooks and the worker call this binary again: the
// path it was started by (so a PATH symlink named skillrepo stays one),
// else the executable's own path.
func SelfExecutable() string {
	a0 := os.Args[0]
	if strings.ContainsRune(a0, filepath.Separator) {
		if abs, err := filepath.Abs(a0); err == nil {
			return abs
		}
	}
	if p, err := exec.LookPath(a0); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return "skillrepo"
}

// AgentHomes are the agents' user folders as the agents find them (HOME,
// CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME).
func AgentHomes(f *Factory) (agent.Homes, error) {
	home := f.Getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return agent.Homes{}, fmt.Errorf("find your home folder: %w", err)
		}
		home = h
	}
	return agent.HomesFrom(home, f.Getenv), nil
}
