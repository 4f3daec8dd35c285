package claudecode

import "path/filepath"

// RunsUnattended: a command that runs `claude -p` (or --print), Claude
// Code's print mode, which a crontab line can run with no person at it.
func (Agent) RunsUnattended(words []string) bool {
	for i, w := range words {
		if filepath.Base(w) != "claude" {
			continue
		}
		for _, a := range words[i+1:] {
			if a == "-p" || a == "--print" {
				return true
			}
		}
	}
	return false
}
