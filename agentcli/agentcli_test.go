package agentcli

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/agenttools"
	"github.com/skillrepo/skillrepo/internal/modelcall"
)

func read(t *testing.T, name string) output {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return output{stdout: data}
}

// TestParse reads what the real programs printed (testdata/SOURCE.md).
func TestParse(t *testing.T) {
	for _, tt := range []struct {
		file      string
		parse     func(output) modelcall.Outcome
		status    string
		final     string
		reason    string
		calls     int
		in, out   int
		retryable bool
		errStatus int
	}{
		{"claude-ok.json", parseClaude, modelcall.StatusCompleted, "Nothing to save.", "", 1, 1200, 5, false, 0},
		{"claude-maxturns.json", parseClaude, modelcall.StatusCapped, "", "cap of model calls", 3, -1, -1, false, 0},
		{"claude-529.json", parseClaude, modelcall.StatusFailed, "", "API Error: 529 Overloaded", 1, -1, -1, true, 529},
		{"codex-tool.jsonl", parseCodex, modelcall.StatusCompleted, "Nothing to save.", "", 2, 1900, 13, false, 0},
		{"codex-429.jsonl", parseCodex, modelcall.StatusFailed, "", "429 Too Many Requests", 0, -1, -1, true, 429},
	} {
		o := tt.parse(read(t, tt.file))
		if o.Status != tt.status || o.Final != tt.final || !strings.Contains(o.Reason, tt.reason) || o.Calls != tt.calls {
			t.Errorf("%s: %s %q final %q calls %d; want %s %q final %q calls %d", tt.file, o.Status, o.Reason, o.Final, o.Calls, tt.status, tt.reason, tt.final, tt.calls)
		}
		if tt.in >= 0 && (o.TokensIn != tt.in || o.TokensOut != tt.out) {
			t.Errorf("%s: tokens %d/%d, want %d/%d", tt.file, o.TokensIn, o.TokensOut, tt.in, tt.out)
		}
		var se *modelcall.StatusError
		if got := o.Err != nil && modelcall.Retryable(o.Err); got != tt.retryable || (tt.errStatus != 0 && (!errors.As(o.Err, &se) || se.Status != tt.errStatus)) {
			t.Errorf("%s: err %v retryable %v, want retryable %v status %d", tt.file, o.Err, got, tt.retryable, tt.errStatus)
		}
	}
	// A program that printed nothing it could report is a failure naming
	// its exit and what it said.
	o := parseClaude(output{stderr: []byte("Error: No conversation found with session ID: abc\n"), exit: 1})
	if o.Status != modelcall.StatusFailed || !strings.Contains(o.Reason, "status 1") || !strings.Contains(o.Reason, "No conversation found") {
		t.Errorf("no result: %+v", o)
	}
	o = parseCodex(output{stdout: []byte(`{"type":"thread.started"}` + "\n"), stderr: []byte("Error: Session not found\n"), exit: 1})
	if o.Status != modelcall.StatusFailed || !strings.Contains(o.Reason, "Session not found") {
		t.Errorf("codex without a turn: %+v", o)
	}
}

// TestReviewArgs: the review run forks the session with only our tools,
// no built-in tool, no shell, no hooks, no persistence, the session's
// model; without a session it starts afresh.
func TestReviewArgs(t *testing.T) {
	claude := claudeRunArgs("sess-1", "claude-x", "", "/tmp/mcp.json", []string{"skills_list", "skill_manage"}, 16, false)
	for _, want := range [][]string{
		{"-p"}, {"--tools", ""}, {"--strict-mcp-config"}, {"--mcp-config", "/tmp/mcp.json"},
		{"--allowedTools", "mcp__skillrepo__skills_list,mcp__skillrepo__skill_manage"}, {"--no-session-persistence"},
		{"--settings", `{"disableAllHooks":true}`}, {"--model=claude-x"}, {"--resume=sess-1", "--fork-session"}, {"--max-turns", "17"},
	} {
		if !containsRun(claude, want) {
			t.Errorf("claude review args %q lack %q", claude, want)
		}
	}
	if fresh := claudeRunArgs("", "", "be the curator", "/tmp/mcp.json", nil, 0, false); slices.ContainsFunc(fresh, func(a string) bool { return strings.HasPrefix(a, "--resume") || strings.HasPrefix(a, "--model") }) ||
		!containsRun(fresh, []string{"--system-prompt=be the curator"}) {
		t.Errorf("a fresh run resumes, names a model or lacks its system prompt: %q", fresh)
	}
	codex := codexRunArgs("sess-2", "gpt-x", "fake", "/bin/skillrepo", []string{"mcp", "--relay", "/tmp/s/mcp.sock"}, []string{"personal"})
	for _, want := range [][]string{
		{"exec", "fork"}, {"-c", `sandbox_mode="read-only"`}, {"-c", `approval_policy="never"`}, {"--disable", "shell_tool"},
		{"--disable", "unified_exec"}, {"--disable", "hooks"}, {"--ephemeral"}, {"--model=gpt-x"}, {"-c", `model_provider="fake"`},
		{"-c", `mcp_servers.skillrepo.command="/bin/skillrepo"`}, {"-c", `mcp_servers.skillrepo.args=["mcp","--relay","/tmp/s/mcp.sock"]`},
		{"-c", `mcp_servers.skillrepo.env={SKILLREPO_IN_REVIEW="1"}`}, {"--", "sess-2", "-"},
		// A closed toolset: the person's own servers and Codex's own tools off.
		{"-c", "mcp_servers.personal.enabled=false"}, {"--disable", "view_image"}, {"--disable", "goals"},
		{"--disable", "image_generation"}, {"-c", `web_search="disabled"`},
	} {
		if !containsRun(codex, want) {
			t.Errorf("codex review args %q lack %q", codex, want)
		}
	}
	if r := codexResumeArgs("sess-2", "", "", "skillrepo", nil, nil); !containsRun(r, []string{"exec", "resume"}) || !containsRun(r, []string{"--ephemeral"}) || !containsRun(r, []string{"--", "sess-2", "-"}) {
		t.Errorf("the resume fallback: %q", r)
	}
	if !noFork(output{exit: 2, stderr: []byte("error: unrecognized subcommand 'fork'\n")}) || noFork(output{exit: 1, stderr: []byte("Session not found")}) {
		t.Error("noFork")
	}
	if fresh := codexRunArgs("", "", "", "skillrepo", nil, nil); slices.Contains(fresh, "fork") || fresh[len(fresh)-1] != "-" {
		t.Errorf("a fresh codex run: %q", fresh)
	}
}

func containsRun(args, run []string) bool {
	for i := 0; i+len(run) <= len(args); i++ {
		if slices.Equal(args[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

func TestChoose(t *testing.T) {
	for _, tt := range []struct {
		name string
		w    Want
		want string // "" = error
		err  string
	}{
		{"an endpoint wins", Want{Agent: ClaudeCode, Program: "/bin/claude", BaseURL: "http://gpu:8000/v1"}, BackendEndpoint, ""},
		{"a model and a key are an endpoint", Want{Agent: Codex, Program: "/bin/codex", Model: "gpt-4o", APIKey: true}, BackendEndpoint, ""},
		{"nothing configured: the agent's program", Want{Agent: ClaudeCode, Program: "/bin/claude"}, BackendAgent, ""},
		{"review.model alone, program there: the agent with that model", Want{Agent: Codex, Program: "/bin/codex", Model: "gpt-5"}, BackendAgent, ""},
		{"review.model alone, no program: the endpoint as before", Want{Agent: ClaudeCode, Model: "qwen"}, BackendEndpoint, ""},
		{"setting endpoint", Want{Setting: BackendEndpoint, Agent: ClaudeCode, Program: "/bin/claude"}, BackendEndpoint, ""},
		{"setting agent over an endpoint", Want{Setting: BackendAgent, Agent: ClaudeCode, Program: "/bin/claude", BaseURL: "http://x/v1"}, BackendAgent, ""},
		{"setting agent without a program", Want{Setting: BackendAgent, Agent: ClaudeCode}, "", "no claude program"},
		{"setting agent for an agent without one", Want{Setting: BackendAgent, Agent: "hermes"}, "", "hermes has no program"},
		{"nothing at all", Want{Agent: ClaudeCode}, "", "no model: no claude program"},
		{"no agent", Want{}, "", "set review.model and review.base_url"},
	} {
		got, err := Choose(tt.w)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: %q %v; want %q %q", tt.name, got, err, tt.want, tt.err)
		}
	}
}

func TestLocal(t *testing.T) {
	for base, want := range map[string]bool{
		"http://127.0.0.1:8080/v1": true, "http://localhost:11434/v1": true, "http://[::1]:1234": true, "http://0.0.0.0:9/v1": true,
		"https://api.openai.com/v1": false, "http://10.0.0.5:8000/v1": false, "": false, "not a url": false,
	} {
		if Local(base) != want {
			t.Errorf("Local(%q) = %v", base, !want)
		}
	}
	if !LocalProvider("ollama") || LocalProvider("openai") {
		t.Error("LocalProvider")
	}
}

// TestRunning finds no agent program among a test's ancestors, and the
// process's own parent by name.
func TestRunning(t *testing.T) {
	if Running(ClaudeCode) != "" || Running("hermes") != "" {
		t.Error("found an agent program where none runs")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	if ppid := parentOf(os.Getpid()); ppid != os.Getppid() {
		t.Errorf("parentOf(self) = %d, want %d", ppid, os.Getppid())
	}
}

// A Gemini CLI run gets a home of its own: the person's sign-in files
// linked, their settings with ours on top (only our tools, by Gemini
// CLI's names; hooks off; their hooks and servers gone), a copy of the
// session to import, the person's history left out.
func TestGeminiRunFiles(t *testing.T) {
	user := t.TempDir()
	for name, content := range map[string]string{
		"settings.json":    "{\n  // mine\n  \"security\": {\"auth\": {\"selectedType\": \"oauth-personal\"}},\n  \"hooks\": {\"AfterAgent\": []},\n  \"mcpServers\": {\"other\": {\"command\": \"x\"}}\n}",
		"oauth_creds.json": `{"token":"t"}`,
	} {
		if err := os.WriteFile(filepath.Join(user, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(user, "tmp", "proj", "chats"), 0o755); err != nil {
		t.Fatal(err)
	}
	session := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(session, []byte(`{"sessionId":"s","projectHash":"h"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	args, env, work, err := geminiRun(dir, user, "/bin/skillrepo", []string{"mcp", "--relay", "/s"}, []string{"memory", "skill_manage"}, "gemini-2.5-flash", session, "")
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if strings.Join(env, " ") != "GEMINI_CLI_HOME="+home || work == "" {
		t.Errorf("env %v work %q", env, work)
	}
	want := "--output-format json --skip-trust --allowed-mcp-server-names skillrepo --model=gemini-2.5-flash --session-file=" + filepath.Join(dir, "session.jsonl")
	if got := strings.Join(args, " "); got != want {
		t.Errorf("args %s\nwant %s", got, want)
	}
	if link, err := os.Readlink(filepath.Join(home, ".gemini", "oauth_creds.json")); err != nil || link != filepath.Join(user, "oauth_creds.json") {
		t.Errorf("sign-in not linked: %q %v", link, err)
	}
	if _, err := os.Lstat(filepath.Join(home, ".gemini", "tmp")); err == nil {
		t.Error("the person's sessions are linked into the run's home")
	}
	data, _ := os.ReadFile(filepath.Join(home, ".gemini", "settings.json"))
	var s struct {
		Security    map[string]any            `json:"security"`
		Hooks       any                       `json:"hooks"`
		HooksConfig map[string]any            `json:"hooksConfig"`
		Tools       map[string][]string       `json:"tools"`
		MCPServers  map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.Security == nil || s.Hooks != nil || s.HooksConfig["enabled"] != false || len(s.MCPServers) != 1 || s.MCPServers["skillrepo"]["trust"] != true {
		t.Errorf("settings: %s", data)
	}
	if strings.Join(s.Tools["core"], ",") != geminiNoTool+",mcp_skillrepo_memory,mcp_skillrepo_skill_manage" {
		t.Errorf("tools.core %v", s.Tools["core"])
	}
}

// Gemini CLI's JSON result: the answer, the model calls and tokens, an
// API error with its status.
func TestParseGemini(t *testing.T) {
	ok := parseGemini(output{stdout: []byte(`{"session_id":"x","response":"Saved.","stats":{"models":{"gemini-2.5-flash":{"api":{"totalRequests":3},"tokens":{"prompt":900,"candidates":20,"input":800}}}}}`)})
	if ok.Status != modelcall.StatusCompleted || ok.Final != "Saved." || ok.Calls != 3 || ok.TokensIn != 800 || ok.TokensOut != 20 {
		t.Errorf("ok: %+v", ok)
	}
	bad := parseGemini(output{stdout: []byte(`{"error":{"type":"ApiError","message":"[API Error: got status 429 Too Many Requests]","code":429}}`), exit: 1})
	var se *modelcall.StatusError
	if bad.Status != modelcall.StatusFailed || !errors.As(bad.Err, &se) || se.Status != 429 {
		t.Errorf("bad: %+v", bad)
	}
	if none := parseGemini(output{stdout: nil, exit: 41}); none.Status != modelcall.StatusFailed {
		t.Errorf("no result: %+v", none)
	}
}

// TestReadProjectArgs: a review that may read the project runs Claude
// Code in the project's folder with exactly its read-only file tools
// (Read, Grep, Glob) beside ours, reads outside the folder blocked and the
// secrets denied; Codex keeps its shell off (its read-only sandbox reads
// the whole disk) and reads through our tools. The argument lists are the
// programs' exact command lines, as a stand-in program recorded them.
func TestReadProjectArgs(t *testing.T) {
	dir, proj := t.TempDir(), t.TempDir()
	rec := filepath.Join(dir, "argv")
	script := "#!/bin/sh\npwd > " + rec + "\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> " + rec + "; done\n" +
		`echo '{"type":"result","subtype":"success","result":"ok","num_turns":1}'` + "\n"
	for _, name := range []string{"claude", "codex"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	serve := func(context.Context, net.Listener, []agenttools.Definition, string, func(context.Context, string, string) (string, bool)) error {
		return nil
	}
	tools := []openai.Tool{{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: "read_file"}}, {Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: "skill_manage"}}}
	run := func(agent string) []string {
		t.Helper()
		os.Remove(rec)
		b := Backend{Program: Program{Agent: agent, Path: filepath.Join(dir, ProgramName(agent)), Self: "/bin/skillrepo", TempDir: dir, Dir: proj, ReadProject: true, Model: "m"}, Serve: serve}
		b.Run(context.Background(), modelcall.Task{Resume: "sess-1", Prompt: "review", MaxCalls: 16, Request: openai.ChatCompletionRequest{Tools: tools}})
		data, err := os.ReadFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if real, _ := filepath.EvalSymlinks(proj); lines[0] != proj && lines[0] != real {
			t.Errorf("%s ran in %s, want the project %s", agent, lines[0], proj)
		}
		return lines[1:]
	}
	claude := run(ClaudeCode)
	mcpConfig := ""
	if i := slices.Index(claude, "--mcp-config"); i > 0 && i+1 < len(claude) {
		mcpConfig = claude[i+1]
	}
	want := []string{"-p", "--output-format", "json", "--no-session-persistence",
		"--settings", `{"disableAllHooks":true,"permissions":{"blockReadsOutsideWorkingDirectories":true,"deny":[` +
			`"Read(**/.git/**)","Read(**/.ssh/**)","Read(**/.gnupg/**)","Read(**/.aws/**)","Read(**/.docker/**)","Read(**/.kube/**)",` +
			`"Read(**/.env*)","Read(**/*.pem)","Read(**/*.key)","Read(**/*.p12)","Read(**/*.pfx)","Read(**/*.keystore)","Read(**/*.jks)",` +
			`"Read(**/id_rsa*)","Read(**/id_dsa*)","Read(**/id_ecdsa*)","Read(**/id_ed25519*)","Read(**/credentials*)",` +
			`"Read(**/.netrc)","Read(**/.npmrc)","Read(**/.pypirc)","Read(**/.pgpass)","Read(**/.git-credentials)"]}}`,
		"--tools", "Read,Grep,Glob",
		"--strict-mcp-config", "--mcp-config", mcpConfig,
		"--allowedTools", "mcp__skillrepo__read_file,mcp__skillrepo__skill_manage,Read,Grep,Glob",
		"--max-turns", "17", "--model=m", "--resume=sess-1", "--fork-session"}
	if !slices.Equal(claude, want) || !strings.HasPrefix(mcpConfig, dir) {
		t.Errorf("claude argv\n %q\nwant\n %q", claude, want)
	}
	// Without the project: no built-in tool at all, hooks off only.
	if args := claudeRunArgs("sess-1", "m", "", "/tmp/mcp.json", []string{"read_file"}, 16, false); !containsRun(args, []string{"--settings", `{"disableAllHooks":true}`, "--tools", ""}) ||
		!containsRun(args, []string{"--allowedTools", "mcp__skillrepo__read_file"}) {
		t.Errorf("claude without the project: %q", args)
	}
	codex := run(Codex)
	var relay []string
	for _, a := range codex {
		if v, ok := strings.CutPrefix(a, "mcp_servers.skillrepo.args="); ok {
			json.Unmarshal([]byte(v), &relay)
		}
	}
	if want := codexRunArgs("sess-1", "m", "", "/bin/skillrepo", relay, nil); !slices.Equal(codex, want) || len(relay) != 3 {
		t.Errorf("codex argv\n %q\nwant\n %q", codex, want)
	}
	for _, off := range [][]string{{"--disable", "shell_tool"}, {"--disable", "unified_exec"}, {"-c", `sandbox_mode="read-only"`}} {
		if !containsRun(codex, off) {
			t.Errorf("codex argv %q lacks %q", codex, off)
		}
	}
}

// The review turns off each MCP server of the person's own Codex
// configuration (Codex merges -c tables, so they are named one by one).
func TestCodexOwnServers(t *testing.T) {
	for _, c := range []struct {
		name, config string
		want         []string
	}{
		{"servers", "model = \"x\"\n[mcp_servers.personal]\ncommand = \"p\"\n[mcp_servers.skillrepo]\ncommand = \"s\"\n[mcp_servers.\"odd.name\"]\ncommand = \"o\"\n[mcp_servers.docs]\nurl = \"http://x\"\n", []string{"docs", "personal"}},
		{"none", "model = \"x\"\n", nil},
		{"broken", "[mcp_servers.personal\n", nil},
		{"no file", "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			if c.config != "" {
				os.WriteFile(filepath.Join(home, "config.toml"), []byte(c.config), 0o600)
			}
			if got := codexOwnServers([]string{"HOME=/nowhere", "CODEX_HOME=" + home}); !slices.Equal(got, c.want) {
				t.Errorf("servers %q, want %q", got, c.want)
			}
		})
	}
}
