package agentcli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/internal/modelcall"
)

// A run's configuration: our MCP server (its relay, SKILLREPO_IN_REVIEW),
// every tool off but ours as tools and as permissions, in the order whose
// last match wins, and our agent with the task's system prompt.
func TestOpenCodeConfig(t *testing.T) {
	data, err := opencodeConfig("/bin/skillrepo", []string{"mcp", "--relay", "/tmp/s/mcp.sock"}, []string{"skills_list", "skill_manage"}, "be the reviewer")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"tools":{"*":false,"skillrepo_skills_list":true,"skillrepo_skill_manage":true}`,
		`"permission":{"*":"deny","skillrepo_skills_list":"allow","skillrepo_skill_manage":"allow"}`,
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("config %s lacks %s", data, want)
		}
	}
	var cfg struct {
		MCP map[string]struct {
			Type        string            `json:"type"`
			Command     []string          `json:"command"`
			Environment map[string]string `json:"environment"`
		} `json:"mcp"`
		Agent map[string]struct {
			Mode, Prompt string
		} `json:"agent"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	s := cfg.MCP["skillrepo"]
	if s.Type != "local" || strings.Join(s.Command, " ") != "/bin/skillrepo mcp --relay /tmp/s/mcp.sock" || s.Environment[EnvInReview] != "1" {
		t.Errorf("mcp %+v", cfg.MCP)
	}
	if a := cfg.Agent[opencodeAgent]; a.Mode != "primary" || a.Prompt != "be the reviewer" {
		t.Errorf("agent %+v", cfg.Agent)
	}
	// The judge's question: no server, no tool at all.
	data, _ = opencodeConfig("", nil, nil, "judge")
	if strings.Contains(string(data), `"mcp"`) || !strings.Contains(string(data), `"tools":{"*":false}`) {
		t.Errorf("ask config %s", data)
	}
	if got := opencodeArgs("ses_abc", "fake/m"); strings.Join(got, " ") != "run --format json --session=ses_abc --fork --model=fake/m" {
		t.Errorf("fork args %q", got)
	}
	if got := opencodeArgs("", ""); strings.Join(got, " ") != "run --format json --agent "+opencodeAgent {
		t.Errorf("fresh args %q", got)
	}
}

// The events of `opencode run --format json` (1.18.33, recorded against
// internal/fakemodel): the last text is the answer, each tool part a
// call, each finished step's tokens summed; an error event fails with its
// HTTP status; a run that finished no step failed.
func TestParseOpenCode(t *testing.T) {
	run := `{"type":"step_start","timestamp":1,"sessionID":"ses_1","part":{"type":"step-start"}}
{"type":"tool_use","timestamp":2,"sessionID":"ses_1","part":{"type":"tool","tool":"skillrepo_skills_list","state":{"status":"completed"}}}
{"type":"step_finish","timestamp":3,"sessionID":"ses_1","part":{"type":"step-finish","reason":"tool-calls","tokens":{"total":150,"input":140,"output":10,"reasoning":0,"cache":{"write":0,"read":0}}}}
{"type":"step_start","timestamp":4,"sessionID":"ses_1","part":{"type":"step-start"}}
{"type":"text","timestamp":5,"sessionID":"ses_1","part":{"type":"text","text":"Nothing to save."}}
{"type":"step_finish","timestamp":6,"sessionID":"ses_1","part":{"type":"step-finish","reason":"stop","tokens":{"total":142,"input":142,"output":4}}}
`
	o := parseOpenCode(output{stdout: []byte(run)})
	if o.Status != modelcall.StatusCompleted || o.Final != "Nothing to save." || o.Calls != 1 || o.TokensIn != 282 || o.TokensOut != 14 {
		t.Errorf("run: %+v", o)
	}
	failedRun := `{"type":"step_start","part":{"type":"step-start"}}
{"type":"error","sessionID":"ses_1","error":{"name":"APIError","data":{"message":"Too Many Requests","statusCode":429,"isRetryable":true}}}
`
	o = parseOpenCode(output{stdout: []byte(failedRun), exit: 1})
	var se *modelcall.StatusError
	if o.Status != modelcall.StatusFailed || !strings.Contains(o.Reason, "Too Many Requests") || o.Err == nil {
		t.Errorf("error: %+v", o)
	} else if se, _ = o.Err.(*modelcall.StatusError); se == nil || se.Status != 429 {
		t.Errorf("error's status: %+v", o.Err)
	}
	if o := parseOpenCode(output{stdout: []byte("not json\n"), stderr: []byte("Error: unknown model"), exit: 1}); o.Status != modelcall.StatusFailed {
		t.Errorf("no events: %+v", o)
	}
	if o := parseOpenCode(output{}); o.Status != modelcall.StatusFailed {
		t.Errorf("nothing printed, exit 0: %+v", o)
	}
}

// The session a run made is read from its events, and only an id is.
func TestOpenCodeRunSession(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{`{"type":"step_start","sessionID":"ses_dacdb193affeQy2OKZSX7EaCYm","part":{}}` + "\n", "ses_dacdb193affeQy2OKZSX7EaCYm"},
		{"noise\n" + `{"type":"text","sessionID":"ses_2"}`, "ses_2"},
		{`{"type":"step_start","sessionID":"--pure"}`, ""},
		{`{"type":"step_start","sessionID":"../x"}`, ""},
		{"", ""},
	} {
		if got := opencodeRunSession(output{stdout: []byte(tc.out)}); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.out, got, tc.want)
		}
	}
}

// Copilot CLI's run: our server's tools alone (its own off, the built-in
// MCP servers and custom instructions too), the judge's question with no
// tool; the events of a run (1.0.102, recorded against internal/fakemodel)
// read into an outcome.
func TestCopilotRun(t *testing.T) {
	cfg, err := copilotMCPConfig("/bin/skillrepo", []string{"mcp", "--relay", "/tmp/s/mcp.sock"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cfg), `"command":"/bin/skillrepo"`) || !strings.Contains(string(cfg), `"SKILLREPO_IN_REVIEW":"1"`) {
		t.Errorf("mcp config %s", cfg)
	}
	run := strings.Join(copilotArgs("fake-model", cfg), " ")
	for _, want := range []string{"-s --output-format json", "--disable-builtin-mcps", "--no-custom-instructions", "--available-tools=skillrepo --allow-tool=skillrepo", "--model=fake-model"} {
		if !strings.Contains(run, want) {
			t.Errorf("run args %q lack %q", run, want)
		}
	}
	if ask := strings.Join(copilotArgs("", nil), " "); !strings.Contains(ask, "--available-tools="+copilotNoTool) || strings.Contains(ask, "mcp-config") {
		t.Errorf("ask args %q", ask)
	}
	events := `{"type":"session.tools_updated","data":{"model":"fake-model"},"ephemeral":true}
{"type":"assistant.message","data":{"content":"","toolRequests":[{"toolCallId":"call_1","name":"skillrepo-skills_list","arguments":{}}]}}
{"type":"tool.execution_start","data":{"toolCallId":"call_1","toolName":"skillrepo-skills_list","arguments":{}}}
{"type":"tool.execution_complete","data":{"toolCallId":"call_1","success":true,"result":{"content":"{}"}}}
{"type":"assistant.message","data":{"content":"Nothing to save.","toolRequests":[]}}
{"type":"result","timestamp":"2026-12-08T01:29:09.003Z","sessionId":"70e4a2b9","exitCode":0,"usage":{"premiumRequests":0}}
`
	if o := parseCopilot(output{stdout: []byte(events)}); o.Status != modelcall.StatusCompleted || o.Final != "Nothing to save." || o.Calls != 1 {
		t.Errorf("run: %+v", o)
	}
	if o := parseCopilot(output{stdout: []byte(`{"type":"session.error","data":{"message":"Model not found"}}` + "\n"), exit: 1}); o.Status != modelcall.StatusFailed || !strings.Contains(o.Reason, "Model not found") {
		t.Errorf("error: %+v", o)
	}
	if o := parseCopilot(output{}); o.Status != modelcall.StatusFailed {
		t.Errorf("nothing: %+v", o)
	}
}
