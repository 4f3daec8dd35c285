package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/agentcli"
	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/internal/modelcall"
	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/mcpserver"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// fakeClaudeMain is a stand-in for the `claude` program in the tests of
// the agent backend (the real program runs in scripts/agents-e2e.sh): it
// takes the arguments agentcli gives Claude Code, starts the MCP server
// its --mcp-config names exactly as Claude Code does (command, args, env),
// and runs a model loop against the scripted model at
// $FAKEAGENT_BASE_URL (OpenAI chat), calling the server's tools for the
// model, at most --max-turns model calls. It prints a result in the shape
// of `claude -p --output-format json`.
func fakeClaudeMain() {
	fs := flag.NewFlagSet("fakeclaude", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	mcpConfig := fs.String("mcp-config", "", "")
	maxTurns := fs.Int("max-turns", 50, "")
	model := fs.String("model", "", "")
	for _, name := range []string{"output-format", "settings", "tools", "allowedTools", "resume", "system-prompt", "debug-file"} {
		fs.String(name, "", "")
	}
	fs.Bool("p", false, "")
	fs.Bool("no-session-persistence", false, "")
	fs.Bool("strict-mcp-config", false, "")
	fs.Bool("fork-session", false, "")
	if err := fs.Parse(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "fakeclaude:", err)
		os.Exit(2)
	}
	prompt, _ := io.ReadAll(bufio.NewReader(os.Stdin))
	ctx := context.Background()
	var tools []openai.Tool
	var session *mcp.ClientSession
	if *mcpConfig != "" {
		var cfg struct {
			MCPServers map[string]struct {
				Command string            `json:"command"`
				Args    []string          `json:"args"`
				Env     map[string]string `json:"env"`
			} `json:"mcpServers"`
		}
		data, err := os.ReadFile(*mcpConfig)
		if err == nil {
			err = json.Unmarshal(data, &cfg)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakeclaude: mcp config:", err)
			os.Exit(1)
		}
		srv := cfg.MCPServers["skillrepo"]
		cmd := exec.Command(srv.Command, srv.Args...)
		cmd.Env = os.Environ()
		for k, v := range srv.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Stderr = os.Stderr
		session, err = mcp.NewClient(&mcp.Implementation{Name: "fakeclaude", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakeclaude: connect:", err)
			os.Exit(1)
		}
		defer session.Close()
		list, err := session.ListTools(ctx, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakeclaude: list tools:", err)
			os.Exit(1)
		}
		for _, t := range list.Tools {
			schema, _ := json.Marshal(t.InputSchema)
			tools = append(tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: json.RawMessage(schema)}})
		}
	}
	cfg := openai.DefaultConfig("fake")
	cfg.BaseURL = os.Getenv("FAKEAGENT_BASE_URL")
	loop := modelcall.Loop{Caller: modelcall.Caller{Client: openai.NewClientWithConfig(cfg), Retries: -1}, MaxCalls: *maxTurns}
	out := loop.Run(ctx, openai.ChatCompletionRequest{Model: *model, Tools: tools, Messages: []openai.ChatCompletionMessage{{Role: "user", Content: string(prompt)}}},
		func(ctx context.Context, call openai.ToolCall) string {
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: call.Function.Name, Arguments: json.RawMessage(call.Function.Arguments)})
			if err != nil {
				return "<tool_use_error>" + err.Error() + "</tool_use_error>"
			}
			var b strings.Builder
			for _, c := range res.Content {
				if t, ok := c.(*mcp.TextContent); ok {
					b.WriteString(t.Text)
				}
			}
			return b.String()
		})
	subtype := map[string]string{modelcall.StatusCompleted: "success", modelcall.StatusCapped: "error_max_turns", modelcall.StatusFailed: "error_during_execution"}[out.Status]
	json.NewEncoder(os.Stdout).Encode(map[string]any{
		"type": "result", "subtype": subtype, "is_error": out.Status == modelcall.StatusFailed, "num_turns": out.Calls,
		"result": out.Final + out.Reason, "usage": map[string]int{"input_tokens": out.TokensIn, "output_tokens": out.TokensOut},
	})
}

// equivLibrary is the example library with one skill an earlier review
// made (so it is curator-managed and may be patched).
func equivLibrary(t *testing.T) (*skillrepo.Library, map[string]string) {
	t.Helper()
	lib, env := testlib.ExampleLibrary(t)
	content := "---\nname: deploy-checklist\ndescription: Use when deploying an app to staging or production.\n---\n# Deploy checklist\n\n1. Run the tests.\n2. Deploy.\n"
	testlib.Write(t, lib, skillrepo.Writer{Provenance: skillrepo.Provenance{Origin: skillrepo.OriginBackgroundReview, ReviewID: "r-seed"}},
		skillrepo.Op{Action: "create", Name: "deploy-checklist", Content: &content})
	return lib, env
}

// landedSince is what a review left on main after base, for comparing two
// reviews: per commit, its subject, trailers and tree.
func landedSince(t *testing.T, lib *skillrepo.Library, env map[string]string, base string) string {
	t.Helper()
	return testlib.Git(t, lib.Root, env, "log", "--format=%s%n%(trailers)tree %T%n--", base+"..main")
}

func equivScript(t *testing.T) *fakemodel.Script {
	t.Helper()
	s, err := fakemodel.ParseScript([]byte(`[
		{"tool_calls": [{"name": "skills_list", "arguments": {}}]},
		{"tool_calls": [{"name": "skill_view", "arguments": {"name": "deploy-checklist"}}]},
		{"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "patch", "name": "deploy-checklist", "old_string": "1. Run the tests.", "new_string": "1. Run the tests and the linter."}]}}]},
		{"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "patch", "name": "ci-debugging", "old_string": "a", "new_string": "b"}]}}]},
		{"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "create", "name": "flaky-test-triage", "category": "testing", "content": "---\nname: flaky-test-triage\ndescription: Use when a test fails only sometimes.\n---\n# Flaky test triage\n\n1. Re-run the test 50 times and count the failures.\n"}]}}]},
		{"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "create", "name": "token-leak", "content": "---\nname: token-leak\ndescription: Use when deploying.\n---\n# Deploy\n\nexport GITHUB_TOKEN=ghp_R7kq2ZxW9mLp4Tn8Vb3Yc6Hd1Fs5Jg0Qw2Er\n"}]}}]},
		{"content": "Patched deploy-checklist, created flaky-test-triage."}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReviewBackendsLandTheSameCommits: the same model replies through
// the in-process loop (an OpenAI-compatible endpoint) and through an
// agent's own program (calling the review's tools over MCP, through
// `skillrepo mcp --relay`) land
// the same commits — subjects, every trailer, trees — and report the same
// outcome, refusals included: the guards, provenance and landing are the
// review's in both.
func TestReviewBackendsLandTheSameCommits(t *testing.T) {
	self, err := exec.LookPath("skillrepo")
	if err != nil {
		t.Skip("skillrepo test binary not on PATH")
	}
	fake, err := exec.LookPath("fakeclaude")
	if err != nil {
		t.Skip("fakeclaude test binary not on PATH")
	}
	tr := readClaudeTranscript(t)
	for _, tt := range []struct {
		name     string
		script   func(*testing.T) *fakemodel.Script
		maxCalls int
		status   string
		project  bool
	}{
		{"guards and writes", equivScript, 0, review.StatusCompleted, false},
		{"the cap", func(t *testing.T) *fakemodel.Script {
			s := equivScript(t)
			s.Replies = append([]fakemodel.Reply{}, s.Replies[:6]...) // no answer: the cap stops it
			return s
		}, 3, review.StatusCapped, false},
		{"the project read", projectScript, 0, review.StatusCompleted, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got [2]string
			var sums [2]*review.Summary
			for i, viaAgent := range []bool{false, true} {
				lib, env := equivLibrary(t)
				base := testlib.Git(t, lib.Root, env, "rev-parse", "main")
				srv := fakemodel.Start(tt.script(t), nil)
				opts := review.Options{Transcript: tr, Memory: true, Skills: true, SessionID: "s-equiv", ReviewID: "r-equiv-1",
					Model: "m-equiv", MaxCalls: tt.maxCalls, Retries: -1}
				dir := lib.Root
				if tt.project {
					opts.Project = shopProject(t)
					dir = opts.Project
				}
				if viaAgent {
					environ := []string{"PATH=" + os.Getenv("PATH"), "FAKEAGENT_BASE_URL=" + srv.BaseURL()}
					for k, v := range env {
						environ = append(environ, k+"="+v)
					}
					opts.Backend, opts.Resume = agentcli.Backend{Serve: mcpserver.ServeSession, Program: agentcli.Program{
						Agent: agentcli.ClaudeCode, Path: fake, Env: environ, Dir: dir, Model: "m-equiv", ReadProject: tt.project,
						Self: self, Timeout: time.Minute,
					}}, "s-equiv"
				} else {
					cfg := openai.DefaultConfig("k")
					cfg.BaseURL = srv.BaseURL()
					opts.Client = openai.NewClientWithConfig(cfg)
				}
				sum, err := review.Run(context.Background(), review.Open(lib), opts)
				srv.Close()
				if err != nil {
					t.Fatal(err)
				}
				got[i], sums[i] = landedSince(t, lib, env, base), sum
				if tt.project && !strings.Contains(testlib.Git(t, lib.Root, env, "show", "main:shop-releases/SKILL.md"), shopLine) {
					t.Errorf("backend %d: the skill does not quote the project's README", i)
				}
			}
			if got[0] != got[1] {
				t.Errorf("the endpoint landed:\n%s\nthe agent's program landed:\n%s", got[0], got[1])
			}
			for i, s := range sums {
				if s.Status != tt.status || !s.Merged {
					t.Errorf("backend %d: status %s (%s), merged %v; want %s, merged", i, s.Status, s.Reason, s.Merged, tt.status)
				}
			}
			a, b := sums[0], sums[1]
			if a.Brief() != b.Brief() || fmt.Sprint(a.Refused) != fmt.Sprint(b.Refused) || len(a.Applied) != len(b.Applied) {
				t.Errorf("outcomes differ:\n endpoint %q %v\n agent    %q %v", a.Brief(), a.Refused, b.Brief(), b.Refused)
			}
			if tt.maxCalls == 0 && !tt.project && (len(a.Refused) != 2 || !strings.Contains(got[0], "Skill-Name: flaky-test-triage") || !strings.Contains(got[0], "Session-Id: s-equiv")) {
				t.Errorf("the script's story did not happen: refused %v\n%s", a.Refused, got[0])
			}
			if tt.project && (len(a.Refused) != 2 || !strings.Contains(got[0], "Skill-Name: shop-releases")) {
				t.Errorf("the project story did not happen: refused %v\n%s", a.Refused, got[0])
			}
			if tt.maxCalls == 3 && strings.Contains(got[0], "flaky-test-triage") {
				t.Errorf("a write past the cap landed:\n%s", got[0])
			}
		})
	}
}

// shopLine is the line of the project's README a review quotes into a
// skill.
const shopLine = "Release: run `make ship VERSION=x.y.z` from a clean tree; it tags and deploys."

// shopProject is a session's project: the README, a .env beside it.
func shopProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{"README.md": "# Shop\n\n" + shopLine + "\n", ".env": "STRIPE_KEY=sk_live_123\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// projectScript reads the project's README and its .env (refused), then
// quotes the README's line into a new skill.
func projectScript(t *testing.T) *fakemodel.Script {
	t.Helper()
	content, _ := json.Marshal("---\nname: shop-releases\ndescription: Use when releasing the shop.\n---\n# Shop releases\n\n" + shopLine + "\n")
	s, err := fakemodel.ParseScript([]byte(`[
		{"tool_calls": [{"name": "read_file", "arguments": {"path": "README.md", "scope": "project"}}]},
		{"tool_calls": [{"name": "read_file", "arguments": {"path": ".env", "scope": "project"}}]},
		{"tool_calls": [{"name": "read_file", "arguments": {"path": "../x", "scope": "project"}}]},
		{"tool_calls": [{"name": "skill_manage", "arguments": {"operations": [{"action": "create", "name": "shop-releases", "content": ` + string(content) + `}]}}]},
		{"content": "Created shop-releases."}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func readClaudeTranscript(t *testing.T) *review.Transcript {
	t.Helper()
	p := claudeTranscript(t)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := review.Read(f, filepath.Base(p), review.FormatClaudeCode)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestGoalJudgeThroughTheAgentsProgram: with no endpoint configured, the
// Stop hook's goal judge asks the agent's own program (found on the
// session's PATH), and its verdict counts as an endpoint's would.
func TestGoalJudgeThroughTheAgentsProgram(t *testing.T) {
	fake, err := exec.LookPath("fakeclaude")
	if err != nil {
		t.Skip("fakeclaude test binary not on PATH")
	}
	srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{{Content: `{"verdict": "done", "reason": "the tests pass, output shown"}`}}}, nil)
	defer srv.Close()
	// A program named claude (the test binary dispatches on its own name,
	// so a script runs it as fakeclaude).
	agentBin := t.TempDir()
	if err := os.WriteFile(filepath.Join(agentBin, "claude"), []byte("#!/bin/sh\nexec '"+fake+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := newAgentSim(t, "PATH="+agentBin+string(os.PathListSeparator)+os.Getenv("PATH"), "FAKEAGENT_BASE_URL="+srv.BaseURL(),
		"OPENAI_BASE_URL=", "SKILLREPO_MODEL=", "OPENAI_API_KEY=", "SKILLREPO_WORKER=off")
	s.run("init", "--example", s.library)
	s.run("hooks", "install", "--claude-code")
	s.loadCommands()
	s.run("-C", s.library, "goal", "set", "the tests pass", "--session", e2eSession)
	out, _ := s.hook("Stop", map[string]any{"cwd": s.project, "last_assistant_message": "All 14 tests pass: ok ./pkg 0.3s"})
	if !strings.Contains(out, "Goal achieved: the tests pass, output shown") {
		t.Fatalf("Stop printed %q", out)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "All 14 tests pass") {
		t.Errorf("the program asked the model %d times", len(reqs))
	}
}

// TestConsolidationThroughTheAgentsProgram: with no endpoint configured,
// `curator run --consolidate` holds the model pass through an agent's own
// program, which calls the curator's tools (served by this process, over
// `skillrepo mcp --relay`).
func TestConsolidationThroughTheAgentsProgram(t *testing.T) {
	fake, err := exec.LookPath("fakeclaude")
	if err != nil {
		t.Skip("fakeclaude test binary not on PATH")
	}
	srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{
		{ToolCalls: []fakemodel.ToolCall{{Name: "skill_view", Arguments: json.RawMessage(`{"name": "deploy-checklist"}`)}}},
		{Content: "Nothing to merge.\n\n```yaml\nconsolidated: []\npruned: []\n```"},
	}}, nil)
	defer srv.Close()
	agentBin := t.TempDir()
	if err := os.WriteFile(filepath.Join(agentBin, "claude"), []byte("#!/bin/sh\nexec '"+fake+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	lib, env := equivLibrary(t)
	used := time.Now().UTC().Format(time.RFC3339)
	if err := lib.Usage().Update(func(recs map[string]*usage.Record) error {
		recs["deploy-checklist"] = &usage.Record{State: usage.StateActive, LastUsedAt: &used, UseCount: 2}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("skillrepo", "-C", lib.Root, "curator", "run", "--consolidate", "--force", "--json")
	cmd.Env = []string{"PATH=" + agentBin + string(os.PathListSeparator) + os.Getenv("PATH"), "FAKEAGENT_BASE_URL=" + srv.BaseURL()}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("curator run: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `"llm_final"`) || !strings.Contains(string(out), "Nothing to merge.") {
		t.Errorf("the pass's record does not hold the program's answer:\n%s", out)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[0].Body), "You are tidying an agent's skills library") ||
		!strings.Contains(string(reqs[1].Body), "Deploy checklist") {
		t.Errorf("%d requests; the program did not get the curator's prompt, or the skill it viewed", len(reqs))
	}
}
