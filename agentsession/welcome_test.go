package agentsession

import (
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// The first session start after set-up tells the person, once per clone
// and whichever agent comes first, when a session is reviewed and how to
// change it; review.notify: off says nothing.
func TestWelcomeOnce(t *testing.T) {
	f := newHookFixture(t)
	start := func(a agent.Name, session string) string {
		out, _ := f.run(a, "SessionStart", map[string]any{"session_id": session, "source": "startup"})
		return systemMessage(t, out)
	}
	got := start(agent.Codex, "s1")
	for _, want := range []string{"versioned in " + f.lib.Root, "10 messages (memory) or the agent has taken 10 steps (skills)", "review.memory_interval", "skillrepo status"} {
		if !strings.Contains(got, want) {
			t.Errorf("first start says %q, want it to hold %q", got, want)
		}
	}
	if got := start(agent.ClaudeCode, "s2"); got != "" {
		t.Errorf("second start says %q, want nothing", got)
	}
}

func TestWelcomeNotifyOff(t *testing.T) {
	f := newHookFixture(t)
	f.lib.Config.Review.Notify = config.NotifyOff
	h := &hookRun{lib: f.lib, rep: &Report{}, now: f.now}
	if got := h.welcomeLine(); got != "" {
		t.Errorf("review.notify off, yet: %q", got)
	}
}

func TestReviewCadence(t *testing.T) {
	for _, tc := range []struct {
		memory, skill int
		want          string
	}{
		{10, 10, "once you have sent 10 messages (memory) or the agent has taken 10 steps (skills); shorter sessions are not."},
		{3, 0, "once you have sent 3 messages (memory); skill reviews are off."},
		{0, 5, "once the agent has taken 5 steps (skills); memory reviews are off."},
		{0, 0, "Reviews by turn count are off."},
	} {
		got := ReviewCadence(config.Review{MemoryInterval: tc.memory, SkillInterval: tc.skill})
		if !strings.HasSuffix(got, tc.want) {
			t.Errorf("intervals %d/%d: %q, want it to end %q", tc.memory, tc.skill, got, tc.want)
		}
	}
}
