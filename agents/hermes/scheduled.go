package hermes

import "path/filepath"

// RunsUnattended: a command that runs the `hermes` program. A crontab
// line runs it with no person at it (`hermes chat -q …`, with its skills
// preloaded by -s/--skills); Hermes' own scheduler keeps its jobs in its
// home instead (package hermes, CronJobs).
func (Agent) RunsUnattended(words []string) bool {
	for _, w := range words {
		if filepath.Base(w) == "hermes" {
			return true
		}
	}
	return false
}
