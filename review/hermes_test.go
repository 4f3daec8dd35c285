package review

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/hermeshome"
)

// TestReadsHermesTrace: a Hermes session exported with `hermes sessions
// export --format trace` (Claude Code JSON Lines; the fixture's is Hermes'
// own export) is a transcript review reads, recognised on its own, with
// the user's words, the tool calls and their results.
func TestReadsHermesTrace(t *testing.T) {
	data, err := hermeshome.ReadFile("session-exports/" + hermeshome.SessionID + ".trace.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Read(bytes.NewReader(data), "trace.jsonl", FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatClaudeCode {
		t.Errorf("format %s, want claude-code", tr.Format)
	}
	var text strings.Builder
	tools := 0
	for _, m := range tr.Messages {
		text.WriteString(m.Content + "\n")
		tools += len(m.ToolCalls)
	}
	for _, want := range []string{"The CI job for main failed again", "always clear the cache key", "I updated the ci-debugging skill"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, text.String())
		}
	}
	if tools != 3 {
		t.Errorf("%d tool calls, want 3 (skill_view, terminal, skill_manage)", tools)
	}
}
