package agentcli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"sync"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/skillrepo/skillrepo/internal/boundedread"
	"github.com/skillrepo/skillrepo/internal/modelcall"
)

// Codex headless (docs/agents.md, "The model backend"): `codex exec fork
// ID -` continues a copy of the finished session with the prompt read
// from standard input, --json prints its events, --ephemeral writes no
// rollout of the run; configuration overrides (-c) add our MCP server,
// a read-only sandbox, no approval prompts, the session's provider; the
// shell tools and hooks are turned off as features.

// tomlString is s as a TOML basic string (JSON's escapes are TOML's).
func tomlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func tomlStrings(list []string) string {
	b, _ := json.Marshal(list)
	return string(b)
}

// codexCommon are the settings of every run.
func codexCommon(model, provider string) []string {
	args := []string{"--json", "--ephemeral", "--skip-git-repo-check",
		"-c", "sandbox_mode=" + tomlString("read-only"),
		"-c", "approval_policy=" + tomlString("never"),
		"--disable", "shell_tool", "--disable", "unified_exec", "--disable", "hooks",
		// No tool beside ours where Codex lets us turn one off (the
		// reference's review whitelist is closed,
		// docs/reference-behaviour.md §2.5): no plugins or apps, images,
		// goals or web search.
		"--disable", "plugins", "--disable", "apps",
		"--disable", "view_image", "--disable", "image_generation", "--disable", "goals",
		"-c", "web_search=" + tomlString("disabled"),
	}
	if model != "" {
		args = append(args, "--model="+model)
	}
	if provider != "" {
		args = append(args, "-c", "model_provider="+tomlString(provider))
	}
	return args
}

// codexRunArgs are the arguments of a pass: forking session when it is
// set, else a fresh session given the conversation as text; the prompt
// comes on standard input.
func codexRunArgs(session, model, provider, command string, mcpArgs, others []string) []string {
	return codexArgs("fork", session, model, provider, command, mcpArgs, others)
}

// codexResumeArgs are codexRunArgs with `exec resume` for a Codex that
// has no `exec fork`: --ephemeral keeps the run out of the session's
// rollout all the same.
func codexResumeArgs(session, model, provider, command string, mcpArgs, others []string) []string {
	return codexArgs("resume", session, model, provider, command, mcpArgs, others)
}

// noFork reports a Codex too old for `exec fork`: its argument parser
// refuses the subcommand, or takes "fork" for the prompt and refuses the
// session id after it. (Checked against 0.169's parser only; older
// releases are not at hand.)
func noFork(out output) bool {
	return out.exit != 0 && (bytes.Contains(out.stderr, []byte("unrecognized subcommand 'fork'")) || bytes.Contains(out.stderr, []byte("unexpected argument")))
}

// codexArgs are a pass's arguments; others are the MCP servers of the
// person's Codex configuration, turned off (codexOwnServers).
func codexArgs(verb, session, model, provider, command string, mcpArgs, others []string) []string {
	args := []string{"exec"}
	if session != "" {
		args = append(args, verb)
	}
	args = append(args, codexCommon(model, provider)...)
	prefix := "mcp_servers." + mcpServerName + "."
	args = append(args,
		"-c", prefix+"command="+tomlString(command),
		"-c", prefix+"args="+tomlStrings(mcpArgs),
		"-c", prefix+"env={"+EnvInReview+"="+tomlString("1")+"}",
		"-c", prefix+"startup_timeout_sec=30",
		// Our tools' guards are the review's; Codex would otherwise ask a
		// person to approve each write, and a headless run has none.
		"-c", prefix+"default_tools_approval_mode="+tomlString("approve"),
	)
	// The person's own MCP servers are off in the review: its tools are
	// ours only (Codex merges -c tables, so each is turned off by name).
	for _, name := range others {
		args = append(args, "-c", "mcp_servers."+name+".enabled=false")
	}
	// The positionals after "--": a session id is never read as an
	// option (`-cmcp_servers.x.command=…` would add a server).
	args = append(args, "--")
	if session != "" {
		args = append(args, session)
	}
	return append(args, "-")
}

// codexOwnServers are the MCP servers of the person's Codex configuration
// in env ($CODEX_HOME/config.toml, else ~/.codex/config.toml) other than
// ours, sorted: the review turns each off. A name that is not a bare TOML
// key is left out (it cannot be named in -c); so is everything when the
// file cannot be read or parsed (Codex then reads no servers from it
// either).
func codexOwnServers(env []string) []string {
	home := envGet(env, "CODEX_HOME")
	if home == "" {
		if h := envGet(env, "HOME"); h != "" {
			home = filepath.Join(h, ".codex")
		}
	}
	if home == "" {
		return nil
	}
	data, err := boundedread.ReadFile(filepath.Join(home, "config.toml"), 4<<20)
	if err != nil {
		return nil
	}
	var cfg struct {
		MCPServers map[string]any `toml:"mcp_servers"`
	}
	if toml.Unmarshal(data, &cfg) != nil {
		return nil
	}
	var out []string
	for name := range cfg.MCPServers {
		if name != mcpServerName && bareKey(name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// bareKey reports a TOML bare key of at most 64 characters:
// ^[A-Za-z0-9_-]{1,64}$ (a loop: the regexp's bounded repetition compiled
// into 64 states in every command's start-up).
func bareKey(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// codexAskArgs are the arguments of one question without our tools.
func codexAskArgs(model, provider string) []string {
	return append(append([]string{"exec"}, codexCommon(model, provider)...), "--", "-")
}

// codexEvent is one line of `codex exec --json`.
type codexEvent struct {
	Type string `json:"type"`
	Item struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"item"`
	Usage struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
	Error struct {
		Message string `json:"message"`
	} `json:"error"`
	Message string `json:"message"`
}

var statusRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:status|HTTP)[: ]+([1-5][0-9]{2})\b`) })

// parseCodex reads the run's events into an outcome. Codex reports no
// count of model calls: each tool call took one, and the answer one more.
func parseCodex(out output) modelcall.Outcome {
	var o modelcall.Outcome
	var failure string
	completed := false
	for ev := range jsonLines[codexEvent](out.stdout) {
		switch ev.Type {
		case "item.completed":
			switch ev.Item.Type {
			case "agent_message":
				o.Final = ev.Item.Text
			case "mcp_tool_call":
				o.Calls++
			}
		case "turn.completed":
			o.TokensIn += ev.Usage.InputTokens
			o.TokensOut += ev.Usage.OutputTokens
			completed = true
		case "turn.failed":
			failure = cmp.Or(ev.Error.Message, "the turn failed")
		case "error":
			failure = cmp.Or(ev.Message, ev.Error.Message, failure)
		}
	}
	switch {
	case failure != "":
		o.Status, o.Reason = modelcall.StatusFailed, "model call failed: codex: "+failure
		if m := statusRE().FindStringSubmatch(failure); m != nil {
			n, _ := strconv.Atoi(m[1])
			o.Err = &modelcall.StatusError{Status: n, Msg: o.Reason}
		}
	case !completed:
		return failed(fmt.Sprintf("codex exited with status %d before its turn completed", out.exit), out)
	default:
		o.Status = modelcall.StatusCompleted
		o.Calls++ // the answer
	}
	return o
}
