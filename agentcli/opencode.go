package agentcli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/agentid"
	"github.com/skillrepo/skillrepo/internal/modelcall"
)

// OpenCode headless (docs/agents.md, "The model backend"): `opencode run
// --format json` reads the prompt on standard input and prints its events
// as JSON lines. A pass that continues a session forks it (`--session ID
// --fork`: a copy, the person's session is not changed); a fresh pass runs
// an agent of ours whose prompt is the task's system prompt. The run's
// configuration comes in OPENCODE_CONFIG_CONTENT, merged over the
// person's: our MCP server, every tool off but ours (tools is a map of
// patterns, the last match winning, so "*": false then ours), and our
// agent. skillrepo's own plugin does nothing in the run
// (SKILLREPO_IN_REVIEW).

// OpenCode is the agent name of OpenCode.
const OpenCode = string(agent.OpenCode)

// opencodeAgent is the agent a fresh pass runs.
const opencodeAgent = "skillrepo-review"

// opencodeToolName is an MCP tool's name in OpenCode (<server>_<tool>).
func opencodeToolName(tool string) string { return mcpServerName + "_" + tool }

// opencodeConfig is a run's OPENCODE_CONFIG_CONTENT: our MCP server
// (when self is set) with the tools named on, every other tool off, and
// our agent with system as its prompt.
func opencodeConfig(self string, relay, tools []string, system string) ([]byte, error) {
	// Both "tools" and "permission": OpenCode turns tools into
	// permissions under the person's own, so a person's "bash": "allow"
	// would outlive our tools map; in permission, where the last matching
	// rule wins, ours come after theirs.
	on := rules{{"*", false}}
	for _, t := range tools {
		on = append(on, rule{opencodeToolName(t), true})
	}
	cfg := map[string]any{
		"tools":      on,
		"permission": permissions(on),
		"share":      "disabled",
		"snapshot":   false,
		"agent": map[string]any{opencodeAgent: map[string]any{
			"mode": "primary", "prompt": system, "description": "skillrepo's review (docs/agents.md)",
		}},
	}
	if self != "" {
		cfg["mcp"] = map[string]any{mcpServerName: map[string]any{
			"type": "local", "command": append([]string{self}, relay...), "enabled": true,
			"environment": map[string]string{EnvInReview: "1"},
		}}
	}
	return json.Marshal(cfg)
}

// opencodeArgs are a run's arguments: forking session when it is set,
// else our agent; the prompt comes on standard input. The session id
// comes as --session=ID, never read as an option.
func opencodeArgs(session, model string) []string {
	args := []string{"run", "--format", "json"}
	if session != "" {
		args = append(args, "--session="+session, "--fork")
	} else {
		args = append(args, "--agent", opencodeAgent)
	}
	if model != "" {
		args = append(args, "--model="+model)
	}
	return args
}

// opencodeRunSession is the session a run wrote its events under (the
// fork, or the fresh pass's session): "" when none, or not an id.
func opencodeRunSession(out output) string {
	type event struct {
		SessionID string `json:"sessionID"`
	}
	for ev := range jsonLines[event](out.stdout) {
		if ev.SessionID != "" {
			if agentid.Valid(ev.SessionID) {
				return ev.SessionID
			}
			return ""
		}
	}
	return ""
}

// opencodeForget deletes the session a run made (`opencode session
// delete`), so a review leaves nothing in the person's OpenCode history,
// as --no-session-persistence does for Claude Code; a failure only leaves
// the session there.
func (p Program) opencodeForget(ctx context.Context, out output) {
	id := opencodeRunSession(out)
	if id == "" {
		return
	}
	p.Timeout = 30 * time.Second
	_, _ = p.run(ctx, []string{"session", "delete", id}, "")
}

// opencodeEvent is one line of `opencode run --format json`.
type opencodeEvent struct {
	Type string `json:"type"`
	Part struct {
		Type   string `json:"type"`
		Text   string `json:"text"`
		Tokens struct {
			Input  int `json:"input"`
			Output int `json:"output"`
		} `json:"tokens"`
	} `json:"part"`
	Error *struct {
		Name string `json:"name"`
		Data struct {
			Message    string `json:"message"`
			StatusCode int    `json:"statusCode"`
		} `json:"data"`
	} `json:"error"`
}

// parseOpenCode reads the run's events into an outcome: the last text
// part is the answer, each tool part a call, each finished step's tokens
// counted.
func parseOpenCode(out output) modelcall.Outcome {
	var o modelcall.Outcome
	steps := 0
	for ev := range jsonLines[opencodeEvent](out.stdout) {
		switch ev.Type {
		case "text":
			if ev.Part.Text != "" {
				o.Final = ev.Part.Text
			}
		case "tool_use":
			o.Calls++
		case "step_finish":
			steps++
			o.TokensIn += ev.Part.Tokens.Input
			o.TokensOut += ev.Part.Tokens.Output
		case "error":
			if ev.Error == nil {
				continue
			}
			o.Status = modelcall.StatusFailed
			o.Reason = "model call failed: opencode: " + cmp.Or(ev.Error.Data.Message, ev.Error.Name, "an error")
			if ev.Error.Data.StatusCode >= 400 {
				o.Err = &modelcall.StatusError{Status: ev.Error.Data.StatusCode, Msg: o.Reason}
			}
		}
	}
	switch {
	case o.Status == modelcall.StatusFailed:
		return o
	case out.exit != 0:
		return failed(fmt.Sprintf("opencode exited with status %d", out.exit), out)
	case steps == 0:
		return failed("opencode printed no finished step", out)
	}
	o.Status = modelcall.StatusCompleted
	return o
}

// rules are OpenCode's tool rules, a JSON object whose keys keep their
// order (the last matching rule wins).
type rules []rule

type rule struct {
	name string
	on   bool
}

// permissions are the same rules as permissions: allow, deny.
type permissions rules

func (r rules) MarshalJSON() ([]byte, error) {
	return object(r, func(on bool) any { return on })
}

func (p permissions) MarshalJSON() ([]byte, error) {
	return object(rules(p), func(on bool) any {
		if on {
			return "allow"
		}
		return "deny"
	})
}

func object(r rules, value func(bool) any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range r {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.name)
		v, _ := json.Marshal(value(e.on))
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
