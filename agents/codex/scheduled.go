package codex

import (
	"path/filepath"
	"slices"
	"strings"
)

// RunsUnattended: a command that runs `codex exec` (or `codex e`, its
// alias, as the first word that is no option), Codex's non-interactive
// mode; an option's value may stand before exec (`codex -m o4 exec`).
func (Agent) RunsUnattended(words []string) bool {
	for i, w := range words {
		if filepath.Base(w) != "codex" {
			continue
		}
		rest := words[i+1:]
		if slices.Contains(rest, "exec") {
			return true
		}
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") {
				return a == "e"
			}
		}
	}
	return false
}
