package agents

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agentsession"
)

// TestStopReplies holds each agent's answer to its Stop event to the
// shape its hook contract documents (docs/agents.md): Claude Code blocks
// and takes context as Stop's additionalContext, Codex has no
// hookSpecificOutput on Stop, Gemini CLI denies AfterAgent.
func TestStopReplies(t *testing.T) {
	type in struct {
		block                    bool
		reason, message, context string
	}
	cases := []struct {
		agent agent.Name
		in    in
		want  string
	}{
		{agent.ClaudeCode, in{true, "go on", "", ""}, `{"decision":"block","reason":"go on"}`},
		{agent.ClaudeCode, in{true, "go on", "goal 2/5", ""}, `{"decision":"block","reason":"go on","systemMessage":"goal 2/5"}`},
		{agent.ClaudeCode, in{false, "", "note", ""}, `{"systemMessage":"note"}`},
		{agent.ClaudeCode, in{false, "", "", "ctx"}, `{"hookSpecificOutput":{"additionalContext":"ctx","hookEventName":"Stop"}}`},
		{agent.ClaudeCode, in{false, "", "", ""}, `null`},
		{agent.Codex, in{true, "go on", "goal 2/5", ""}, `{"decision":"block","reason":"go on","systemMessage":"goal 2/5"}`},
		{agent.Codex, in{false, "", "", "ctx"}, `{"systemMessage":"ctx"}`},
		{agent.Codex, in{false, "", "", ""}, `null`},
		{agent.Gemini, in{true, "go on", "", ""}, `{"decision":"deny","reason":"go on"}`},
		{agent.Gemini, in{true, "go on", "", "ctx"}, `{"decision":"deny","reason":"go on","systemMessage":"ctx"}`},
		{agent.Gemini, in{false, "", "note", "ctx"}, `{"systemMessage":"note"}`},
		{agent.Gemini, in{false, "", "", ""}, `null`},
		{agent.Copilot, in{true, "go on", "goal 2/5", "ctx"}, `{"decision":"block","reason":"go on"}`},
		{agent.Copilot, in{false, "", "note", "ctx"}, `null`},
	}
	for _, tc := range cases {
		a, ok := Find[agentsession.Agent](tc.agent)
		if !ok {
			t.Fatalf("%s has no hook runner", tc.agent)
		}
		got, _ := json.Marshal(a.StopReply(tc.in.block, tc.in.reason, tc.in.message, tc.in.context))
		if string(got) != tc.want {
			t.Errorf("%s StopReply%+v = %s, want %s", tc.agent, tc.in, got, tc.want)
		}
	}
}

// TestSkillTools holds how each agent's tool calls load a skill.
func TestSkillTools(t *testing.T) {
	type out struct {
		skill string
		shell bool
		err   bool
	}
	cases := []struct {
		agent       agent.Name
		tool, input string
		want        out
	}{
		{agent.ClaudeCode, "Skill", `{"skill":"pdf"}`, out{"pdf", false, false}},
		{agent.ClaudeCode, "Skill", `{}`, out{"", false, true}},
		{agent.ClaudeCode, "Bash", `{"command":"cat x/SKILL.md"}`, out{"", true, false}},
		{agent.Codex, "Bash", `{"command":"cat x/SKILL.md"}`, out{"", true, false}},
		{agent.Codex, "Skill", `{"skill":"pdf"}`, out{"", true, false}},
		{agent.Gemini, "activate_skill", `{"name":"pdf"}`, out{"pdf", false, false}},
		{agent.Gemini, "activate_skill", `{"name":""}`, out{"", false, true}},
		{agent.Gemini, "read_file", `{"path":"x/SKILL.md"}`, out{"", false, false}},
		{agent.Copilot, "view", `{"path":"x/SKILL.md"}`, out{"", true, false}},
		{agent.Copilot, "Read", `{"path":"x/SKILL.md"}`, out{"", true, false}},
		{agent.Copilot, "Bash", `{"command":"cat x/SKILL.md","description":"read"}`, out{"", true, false}},
		{agent.Copilot, "skill", `{"skill":"ci-debugging"}`, out{"ci-debugging", false, false}},
		{agent.Copilot, "skill", `{"skill":`, out{"", false, true}},
		{agent.Copilot, "bash", `{"command":"cat x/SKILL.md"}`, out{"", true, false}},
		{agent.Copilot, "edit", `{"path":"x/SKILL.md"}`, out{"", false, false}},
	}
	for _, tc := range cases {
		a, _ := Find[agentsession.Agent](tc.agent)
		skill, shell, err := a.SkillTool(tc.tool, json.RawMessage(tc.input))
		if got := (out{skill, shell, err != nil}); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s SkillTool(%s, %s) = %+v (%v), want %+v", tc.agent, tc.tool, tc.input, got, err, tc.want)
		}
	}
	if _, ok := Find[agentsession.Agent](agent.Hermes); ok {
		t.Error("Hermes Agent's hooks run through agentsession.RunHermes, not the Claude-style runner")
	}
}

// TestSessionFinders: the agents whose programs keep session files
// skillrepo reads can be asked for one by id (`skillrepo review
// --session`); the others are not offered.
func TestSessionFinders(t *testing.T) {
	var got []agent.Name
	for _, f := range Implementing[agentsession.SessionFinder]() {
		got = append(got, f.Name())
	}
	if want := []agent.Name{agent.ClaudeCode, agent.Codex, agent.Gemini, agent.Copilot, agent.OpenCode}; !reflect.DeepEqual(got, want) {
		t.Errorf("session finders %v, want %v", got, want)
	}
}

// TestSessionPruners: the agents whose session files are skillrepo's own
// copies prune them at a session start; OpenCode's plugin writes such
// copies, no other agent does.
func TestSessionPruners(t *testing.T) {
	var got []agent.Name
	for _, a := range All() {
		if _, ok := a.(agentsession.SessionPruner); ok {
			got = append(got, a.Name())
		}
	}
	if !reflect.DeepEqual(got, []agent.Name{agent.OpenCode}) {
		t.Errorf("session pruners %v, want OpenCode alone", got)
	}
}
