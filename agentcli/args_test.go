package agentcli

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/internal/modelcall"
)

// A program's option parser, as far as our argument lists need: which
// options take the next argument as their value (valued), and which take
// it only when it does not start with "-" (optional: Claude Code's
// --resume).
type parser struct {
	valued, optional []string
}

var (
	claudeParser   = parser{valued: []string{"--output-format", "--settings", "--tools", "--mcp-config", "--allowedTools", "--max-turns", "--model", "--system-prompt"}, optional: []string{"--resume"}}
	codexParser    = parser{valued: []string{"-c", "--config", "--disable", "--enable", "-m", "--model", "-i", "--image"}}
	geminiParser   = parser{valued: []string{"--output-format", "--allowed-mcp-server-names", "-m", "--model", "--session-file"}}
	opencodeParser = parser{valued: []string{"--format", "-s", "--session", "--agent", "-m", "--model", "--title", "-f", "--file"}}
	copilotParser  = parser{valued: []string{"--output-format", "--additional-mcp-config", "--available-tools", "--allow-tool", "--model", "-p", "--prompt", "-r", "--resume"}}
)

// shape is what the parser makes of args: the options it sees, in order,
// and a "pos" for each positional. An input changes the shape only by
// becoming (or swallowing) an option.
func (p parser) shape(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			out = append(out, "--")
			for range args[i+1:] {
				out = append(out, "pos")
			}
			return out
		case len(a) > 1 && a[0] == '-':
			name, _, joined := strings.Cut(a, "=")
			if a[1] != '-' && len(a) > 2 && !joined {
				name = a[:2] // -cVALUE: a short option with its value attached
				joined = true
			}
			out = append(out, name)
			if joined {
				continue
			}
			if slices.Contains(p.valued, name) && i+1 < len(args) {
				i++
			} else if slices.Contains(p.optional, name) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
		case a == "exec" || a == "fork" || a == "resume":
			out = append(out, a)
		default:
			out = append(out, "pos")
		}
	}
	return out
}

// argLists are every argument list we build, from the values that come
// from outside (a hook's session id, a configured model and provider, a
// task's system prompt).
func argLists(session, model, provider, system string) map[string][]string {
	return map[string][]string{
		"claude run":    claudeRunArgs(session, model, system, "/tmp/mcp.json", []string{"skill_manage"}, 16, true),
		"claude fresh":  claudeRunArgs("", model, system, "/tmp/mcp.json", nil, 0, false),
		"claude ask":    claudeAskArgs(model, system),
		"codex fork":    codexRunArgs(session, model, provider, "/bin/skillrepo", []string{"mcp", "--relay", "/tmp/s"}, nil),
		"codex resume":  codexResumeArgs(session, model, provider, "/bin/skillrepo", nil, nil),
		"codex ask":     codexAskArgs(model, provider),
		"gemini run":    geminiArgs(model, "/tmp/run/session.jsonl", true),
		"gemini nofork": geminiArgs(model, "", false),
		"opencode fork": opencodeArgs(session, model),
		"opencode ask":  opencodeArgs("", model),
		"copilot run":   copilotArgs(model, []byte(`{"mcpServers":{}}`)),
		"copilot ask":   copilotArgs(model, nil),
	}
}

func parserOf(name string) parser {
	switch {
	case strings.HasPrefix(name, "claude"):
		return claudeParser
	case strings.HasPrefix(name, "codex"):
		return codexParser
	case strings.HasPrefix(name, "opencode"):
		return opencodeParser
	case strings.HasPrefix(name, "copilot"):
		return copilotParser
	}
	return geminiParser
}

// checkArgs fails when an input changed what a program parses as options:
// the lists built from the inputs must have the shape of the lists built
// from harmless stand-ins.
func checkArgs(t *testing.T, session, model, provider, system string) {
	t.Helper()
	stand := func(s string) string {
		if s == "" {
			return ""
		}
		return "x"
	}
	got := argLists(session, model, provider, system)
	want := argLists(stand(session), stand(model), stand(provider), stand(system))
	for name, args := range got {
		p := parserOf(name)
		if g, w := p.shape(args), p.shape(want[name]); !slices.Equal(g, w) {
			t.Errorf("%s: an input became an option:\n args %q\n parsed %q\n want   %q", name, args, g, w)
		}
	}
}

// TestIdsNeverOptions: the payloads of issue 40 item 4 stay values.
func TestIdsNeverOptions(t *testing.T) {
	for _, session := range []string{
		"--mcp-config=/tmp/pwn.json",
		"-cmcp_servers.pwn.command=/tmp/pwn",
		"--mcp-config=/tmp/pwn.json --fork-session",
		"-", "--", "-m", "--fork-session",
	} {
		checkArgs(t, session, "--dangerously-skip-permissions", "-cx=1", "--append-system-prompt=pwn")
	}
	// Claude Code's --resume: the id joined to the option.
	if args := claudeRunArgs("--mcp-config=/tmp/pwn.json", "", "", "/tmp/mcp.json", nil, 0, false); !slices.Contains(args, "--resume=--mcp-config=/tmp/pwn.json") || slices.Contains(args, "--mcp-config=/tmp/pwn.json") {
		t.Errorf("claude: %q", args)
	}
	// Codex: the id after "--".
	if args := codexRunArgs("-cmcp_servers.pwn.command=/tmp/pwn", "", "", "/bin/skillrepo", nil, nil); !containsRun(args, []string{"--", "-cmcp_servers.pwn.command=/tmp/pwn", "-"}) {
		t.Errorf("codex: %q", args)
	}
}

// FuzzProgramArgs: no input, whatever its bytes, becomes an option of the
// agent's program.
func FuzzProgramArgs(f *testing.F) {
	f.Add("491e126e-1e71-469c-ade2-fcc8af567c74", "claude-sonnet-4", "openai", "be the curator")
	f.Add("--mcp-config=/tmp/pwn.json", "-m", "-cx", "--")
	f.Add("-cmcp_servers.pwn.command=/tmp/pwn", "", "", "")
	f.Add("-", "--model", "", "-p")
	f.Fuzz(func(t *testing.T, session, model, provider, system string) {
		checkArgs(t, session, model, provider, system)
	})
}

// A Backend refuses to fork a session whose id is not an id: the program
// is never started.
func TestBackendRefusesBadSessionID(t *testing.T) {
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	prog := filepath.Join(dir, "claude")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho \"$@\" > "+ran+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{ClaudeCode, Codex, OpenCode, Copilot} {
		for _, id := range []string{"--mcp-config=/tmp/pwn.json", "-cmcp_servers.pwn.command=/tmp/pwn", "../x", "a b"} {
			b := Backend{Program: Program{Agent: agent, Path: prog, Self: "/bin/skillrepo", TempDir: dir}, Serve: func(context.Context, net.Listener, []agenttools.Definition, string, func(context.Context, string, string) (string, bool)) error {
				return nil
			}}
			o := b.Run(context.Background(), modelcall.Task{Resume: id, Prompt: "review"})
			if o.Status != modelcall.StatusFailed || !strings.Contains(o.Reason, "is not an id") {
				t.Errorf("%s %q: %+v", agent, id, o)
			}
			if _, err := os.Stat(ran); err == nil {
				t.Fatalf("%s %q: the program ran", agent, id)
			}
		}
	}
}
