package agents

import (
	"testing"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/curator"
)

// TestRunsUnattended: the command of a crontab line, split as a shell
// splits it, is claimed by the agent it runs unattended, and by no agent
// when it runs one interactively or runs none.
func TestRunsUnattended(t *testing.T) {
	for _, tt := range []struct {
		words []string
		want  agent.Name // "": no agent
	}{
		{[]string{"claude", "-p", "/deploy-check"}, agent.ClaudeCode},
		{[]string{"/home/ada/.local/bin/claude", "--print", "x"}, agent.ClaudeCode},
		{[]string{"claude", "--resume", "weekly"}, ""},
		{[]string{"codex", "exec", "run nightly-report"}, agent.Codex},
		{[]string{"codex", "--model", "o4", "exec", "x"}, agent.Codex},
		{[]string{"codex", "e", "x"}, agent.Codex},
		{[]string{"codex", "resume"}, ""},
		{[]string{"gemini", "-p", "x"}, agent.Gemini},
		{[]string{"gemini", "summarise"}, agent.Gemini}, // cron gives it no terminal
		{[]string{"gemini", "-i", "x"}, ""},
		{[]string{"nice", "hermes", "chat", "-q", "x", "-s", "nightly-report"}, agent.Hermes},
		{[]string{"copilot", "-p", "x"}, agent.Copilot},
		{[]string{"copilot"}, ""},
		{[]string{"opencode", "run", "use /nightly-report"}, agent.OpenCode},
		{[]string{"opencode", "--continue"}, ""},
		{[]string{"/usr/local/bin/backup.sh", "--verify", "backup-verify"}, ""},
	} {
		var got agent.Name
		for _, a := range Implementing[curator.Unattended]() {
			if a.RunsUnattended(tt.words) {
				got = a.(Agent).Name()
				break
			}
		}
		if got != tt.want {
			t.Errorf("%q: claimed by %q, want %q", tt.words, got, tt.want)
		}
	}
}
