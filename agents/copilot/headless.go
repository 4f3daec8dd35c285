package copilot

import (
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/internal/procinfo"
)

// envCloudPrompt holds the prompt of a Copilot cloud agent job, which
// runs fully non-interactive (GitHub's hooks reference, "Cloud agent
// execution environment").
const envCloudPrompt = "COPILOT_AGENT_PROMPT"

// Headless: Copilot CLI's hook payloads do not say whether a person is
// there, so a cloud agent job is told by COPILOT_AGENT_PROMPT, and a
// `copilot -p` run by the command line of the Copilot CLI process above
// the hook (its parent, or the shell between).
func (Agent) Headless(getenv func(string) string, _ string) (bool, string) {
	if getenv(envCloudPrompt) != "" {
		return true, envCloudPrompt + " is set (a cloud agent job)"
	}
	for _, p := range procinfo.Ancestors(2) {
		args, ok := copilotArgs(p.Args)
		if !ok {
			continue
		}
		for _, a := range args {
			if a == "-p" || a == "--prompt" || strings.HasPrefix(a, "--prompt=") {
				return true, "copilot " + strings.SplitN(a, "=", 2)[0]
			}
		}
		return false, ""
	}
	return false, ""
}

// copilotArgs finds Copilot CLI's program in a command's words (its
// `copilot` launcher, or node running its package's script) and returns
// the words after it.
func copilotArgs(words []string) ([]string, bool) {
	for i, w := range words {
		if filepath.Base(w) == "copilot" || strings.Contains(filepath.ToSlash(w), "/@github/copilot/") {
			return words[i+1:], true
		}
		if i > 0 && !strings.HasPrefix(w, "-") {
			return nil, false
		}
	}
	return nil, false
}

// RunsUnattended: a crontab command that runs `copilot -p`.
func (Agent) RunsUnattended(words []string) bool {
	for i, w := range words {
		if filepath.Base(w) == "copilot" || strings.Contains(filepath.ToSlash(w), "/@github/copilot/") {
			for _, a := range words[i+1:] {
				if a == "-p" || a == "--prompt" || strings.HasPrefix(a, "--prompt=") {
					return true
				}
			}
			return false
		}
	}
	return false
}
