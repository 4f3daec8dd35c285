package agentsession

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/agents/claudecode"
	"github.com/skillrepo/skillrepo/agents/codex"
	"github.com/skillrepo/skillrepo/agents/copilot"
	"github.com/skillrepo/skillrepo/agents/gemini"
	"github.com/skillrepo/skillrepo/internal/testenv"
	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

type hookFixture struct {
	t   *testing.T
	lib *skillrepo.Library
	env map[string]string
	now time.Time
}

func newHookFixture(t *testing.T) *hookFixture {
	t.Helper()
	lib, env := testlib.ExampleLibrary(t)
	// An endpoint is configured: a session start has nothing to warn of.
	env["OPENAI_BASE_URL"] = "http://127.0.0.1:9/v1"
	// The tests' transcripts are in temp folders and in review's testdata,
	// not in the agent's own folders (TestTranscriptOnlyFromTheAgentsFolders
	// checks the refusal without this).
	testdata, err := filepath.Abs("../review/testdata")
	if err != nil {
		t.Fatal(err)
	}
	env[EnvTranscriptDirs] = os.TempDir() + string(filepath.ListSeparator) + testdata
	return &hookFixture{t: t, lib: lib, env: env, now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
}

func (f *hookFixture) run(agent agent.Name, event string, in map[string]any) (string, *Report) {
	f.t.Helper()
	data, _ := json.Marshal(in)
	var out bytes.Buffer
	rep, err := Run(context.Background(), Options{Agent: sessionAgent(agent), Event: event, Library: f.lib.Root,
		In: bytes.NewReader(data), Out: &out, Getenv: func(k string) string { return f.env[k] }, Now: func() time.Time { return f.now }})
	if err != nil {
		f.t.Fatalf("%s %s: %v", agent, event, err)
	}
	return out.String(), rep
}

func (f *hookFixture) uses(name string) (use, view int) {
	f.t.Helper()
	recs, err := f.lib.Usage().Load()
	if err != nil {
		f.t.Fatal(err)
	}
	if r := recs[name]; r != nil {
		return r.UseCount, r.ViewCount
	}
	return 0, 0
}

// Codex has no Skill tool: a shell command that reads a library SKILL.md
// counts as a view, once per tool call, whatever the path's spelling.
func TestCodexShellReadCountsAView(t *testing.T) {
	f := newHookFixture(t)
	cwd := filepath.Dir(f.lib.Root)
	for _, tc := range []struct {
		id      string
		command any
	}{
		{"c1", "cat " + filepath.Join(f.lib.Root, "ci-debugging", "SKILL.md")},
		{"c1", "cat " + filepath.Join(f.lib.Root, "ci-debugging", "SKILL.md")}, // the same call again
		{"c2", []string{"bash", "-lc", "sed -n 1,80p '" + filepath.Base(f.lib.Root) + "/ci-debugging/SKILL.md'"}},
		{"c3", "cat /elsewhere/ci-debugging/SKILL.md && ls"}, // not this library
		{"c4", "ls " + f.lib.Root}, // no SKILL.md read
	} {
		f.run(agent.Codex, "PostToolUse", map[string]any{"session_id": "s", "cwd": cwd, "tool_name": "Bash", "tool_use_id": tc.id,
			"tool_input": map[string]any{"command": tc.command}})
	}
	if use, view := f.uses("ci-debugging"); use != 2 || view != 2 {
		t.Errorf("ci-debugging: %d uses, %d views; want 2 and 2", use, view)
	}
	// Each counted view is a load in the usage history, with its session.
	evs, err := f.lib.UsageHistory().Read(usage.HistoryFilter{})
	if err != nil || len(evs) != 2 {
		t.Fatalf("usage history: %+v, %v; want 2 loads", evs, err)
	}
	for _, e := range evs {
		if e.Kind != usage.HistoryLoad || e.Skill != "ci-debugging" || e.Session != "s" || !e.Time.Equal(f.now) {
			t.Errorf("history event %+v", e)
		}
	}
}

// SessionStart hands over the memory snapshot and asks for a skill
// re-scan only when main moved since the session (or the last session)
// saw it; Codex gets no reloadSkills, which its schema lacks.
func TestSessionStartMemoryAndReload(t *testing.T) {
	f := newHookFixture(t)
	// The first start tells the person when reviews come (welcome.go)
	// and hands over nothing: memory is empty, main has not moved.
	out, _ := f.run(agent.ClaudeCode, "session-start", map[string]any{"session_id": "a", "source": "startup"})
	if !strings.Contains(out, `"systemMessage"`) || strings.Contains(out, "hookSpecificOutput") {
		t.Errorf("first start printed %q", out)
	}
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).ChangeMemory(context.Background(), skillrepo.MemoryOptions{Target: "user", Action: "add", Content: "Prefers short answers."}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		agent   agent.Name
		session string
		source  string
		reload  bool
	}{
		{agent.ClaudeCode, "a", "compact", true}, // main moved since session a saw it
		{agent.ClaudeCode, "a", "clear", false},  // and a has seen it now
		{agent.Codex, "b", "resume", false},      // never reloadSkills for Codex; b was never seen
	} {
		out, _ := f.run(tc.agent, "SessionStart", map[string]any{"session_id": tc.session, "source": tc.source})
		var got struct {
			Out map[string]any `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s %s: %q: %v", tc.agent, tc.session, out, err)
		}
		ctx, _ := got.Out["additionalContext"].(string)
		if !strings.Contains(ctx, "USER PROFILE (who the user is)") || !strings.Contains(ctx, "Prefers short answers.") {
			t.Errorf("%s %s: context %q", tc.agent, tc.session, ctx)
		}
		if reload, _ := got.Out["reloadSkills"].(bool); reload != tc.reload {
			t.Errorf("%s %s: reloadSkills = %v, want %v", tc.agent, tc.session, reload, tc.reload)
		}
	}
	// A resumed session's conversation holds the memory it was given:
	// resuming it (codex exec resume, claude --resume) gives none again.
	for _, a := range []agent.Name{agent.Codex, agent.ClaudeCode} {
		session := map[agent.Name]string{agent.Codex: "b", agent.ClaudeCode: "a"}[a]
		out, rep := f.run(a, "SessionStart", map[string]any{"session_id": session, "source": "resume"})
		if strings.Contains(out, "Prefers short answers.") || !strings.Contains(strings.Join(rep.Notes, " "), "resumed session") {
			t.Errorf("%s resume: printed %q, notes %q", a, out, rep.Notes)
		}
	}
}

// The first session start seeds the curator's clock; once an interval
// has passed, a session start queues a curator run (one, however many
// sessions start).
func TestSessionStartQueuesCurator(t *testing.T) {
	f := newHookFixture(t)
	f.run(agent.ClaudeCode, "SessionStart", map[string]any{"session_id": "a"})
	store := queue.New(f.lib.State().Queue())
	if all, _ := store.List(); len(all) != 0 {
		t.Fatalf("queued on first sight: %+v", all)
	}
	f.now = f.now.Add(8 * 24 * time.Hour)
	f.run(agent.ClaudeCode, "SessionStart", map[string]any{"session_id": "b"})
	f.run(agent.Codex, "SessionStart", map[string]any{"session_id": "c"})
	all, _ := store.List()
	if len(all) != 1 || all[0].Kind != queue.KindCurator || all[0].State != queue.Queued {
		t.Fatalf("queue = %+v", all)
	}
}

// The Stop judge is asked first; its decision is the only output, and
// the nudge counters still move.
func TestStopJudgeFirst(t *testing.T) {
	f := newHookFixture(t)
	tr := filepath.Join(t.TempDir(), "chat.json")
	os.WriteFile(tr, []byte(`[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]`), 0o644)
	var asked bool
	judge := func(ctx context.Context, a agent.Name, in *Input, lib *skillrepo.Library) (*StopDecision, error) {
		asked = true
		if n, _ := queue.New(lib.State().Queue()).List(); len(n) != 0 {
			t.Error("the judge was asked after the counters moved")
		}
		return &StopDecision{Block: true, Reason: "keep going: the tests are not green"}, nil
	}
	data, _ := json.Marshal(map[string]any{"session_id": "s", "transcript_path": tr, "last_assistant_message": "hello"})
	var out bytes.Buffer
	_, err := Run(context.Background(), Options{Agent: sessionAgent(agent.Codex), Event: "Stop", Library: f.lib.Root, In: bytes.NewReader(data), Out: &out,
		Getenv: func(k string) string { return f.env[k] }, StopJudge: judge})
	if err != nil || !asked {
		t.Fatalf("err %v, asked %v", err, asked)
	}
	if strings.TrimSpace(out.String()) != `{"decision":"block","reason":"keep going: the tests are not green"}` {
		t.Errorf("output %q", out.String())
	}
	c, err := os.ReadFile(filepath.Join(f.lib.State().ReviewSessions(), "s.json"))
	if err != nil || !strings.Contains(string(c), `"turns_seen": 1`) {
		t.Errorf("counters did not move: %s %v", c, err)
	}
}

// Stop reads only what a Claude Code transcript gained since the last
// Stop; the counters come out as if the whole file had been read at once,
// and a rewritten file is read whole again.
func TestStopCountsTranscriptIncrementally(t *testing.T) {
	data, err := os.ReadFile("../review/testdata/claude-code/subagent.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	first := bytes.Join(lines[:70], nil) // the second user turn is line 71
	counters := func(f *hookFixture, session string) map[string]any {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(f.lib.State().ReviewSessions(), session+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.Unmarshal(b, &m)
		return map[string]any{"turns": m["turns_seen"], "iters": m["iterations_seen"], "since_skill": m["iterations_since_skill"], "since_memory": m["turns_since_memory"]}
	}
	f := newHookFixture(t)
	f.env["HOME"] = t.TempDir()
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	grown := filepath.Join(dir, "grown.jsonl")
	os.WriteFile(whole, data, 0o644)
	os.WriteFile(grown, first, 0o644)
	stop := func(session, path string) {
		f.run(agent.ClaudeCode, "Stop", map[string]any{"session_id": session, "transcript_path": path, "last_assistant_message": "ok"})
	}
	stop("whole", whole)
	stop("grown", grown)
	os.WriteFile(grown, data, 0o644)
	stop("grown", grown)
	if a, b := counters(f, "whole"), counters(f, "grown"); !reflect.DeepEqual(a, b) {
		t.Errorf("counted in two parts %v, at once %v", b, a)
	}
	h := &hookRun{lib: f.lib, in: &Input{SessionID: "grown"}}
	mark, err := h.markStore("grown").Read()
	if err != nil || mark.Offset != int64(len(data)) || mark.Path != grown {
		t.Errorf("mark after the second Stop: %+v %v, want offset %d", mark, err, len(data))
	}
	// A file rewritten under the mark is read whole: nothing is counted
	// twice.
	before := counters(f, "grown")
	os.WriteFile(grown, append([]byte(`{"type":"summary","summary":"rewritten"}`+"\n"), data...), 0o644)
	stop("grown", grown)
	if after := counters(f, "grown"); after["turns"] != before["turns"] || after["iters"] != before["iters"] {
		t.Errorf("after a rewrite: %v, before %v", after, before)
	}
}

// A SessionEnd that queues the final review starts one worker, not two:
// the worker it started takes its lock only a moment later, so asking
// again within the same hook must not start another.
func TestSessionEndStartsOneWorker(t *testing.T) {
	f := newHookFixture(t)
	// The third turn fires the memory nudge: SessionEnd queues its review.
	f.setReview("memory_interval: 3")
	transcript := filepath.Join(t.TempDir(), "s.jsonl")
	var lines []string
	for i := range 3 {
		lines = append(lines, fmt.Sprintf(`{"type":"user","message":{"role":"user","content":"turn %d"},"uuid":"u%d"}`, i, i),
			fmt.Sprintf(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"answer %d"}]},"uuid":"a%d"}`, i, i))
	}
	if err := os.WriteFile(transcript, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	started := 0
	data, _ := json.Marshal(map[string]any{"session_id": "s1", "transcript_path": transcript, "reason": "prompt_input_exit"})
	rep, err := Run(context.Background(), Options{Agent: sessionAgent(agent.ClaudeCode), Event: "SessionEnd", Library: f.lib.Root,
		In: bytes.NewReader(data), Out: &bytes.Buffer{}, Getenv: func(k string) string { return f.env[k] }, Now: func() time.Time { return f.now },
		StartWorker: func(*skillrepo.Library) error { started++; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := queue.New(f.lib.State().Queue()).List()
	if len(entries) != 1 {
		t.Fatalf("queue: %+v (notes %q)", entries, rep.Notes)
	}
	if started != 1 {
		t.Errorf("SessionEnd started %d workers, want 1 (notes %q)", started, rep.Notes)
	}
}

// A hook reads, queues and sends to the review model only a transcript
// inside the agent's own transcript folders (Claude Code: ~/.claude/
// projects), a regular file, not through a final link: /etc/passwd, a
// file elsewhere, a FIFO (which would hang Stop and SessionEnd), a link
// to one and a link out of the folder are ignored by both events, and the
// hooks log says why.
func TestTranscriptOnlyFromTheAgentsFolders(t *testing.T) {
	f := newHookFixture(t)
	delete(f.env, EnvTranscriptDirs)
	f.setReview("memory_interval: 1", "skill_interval: 1")
	projects := filepath.Join(f.env["HOME"], ".claude", "projects", "p")
	if err := os.MkdirAll(projects, 0o755); err != nil {
		t.Fatal(err)
	}
	chat, err := os.ReadFile("../review/testdata/claude-code/short.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(projects, "good.jsonl")
	os.WriteFile(good, chat, 0o644)
	elsewhere := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(elsewhere, chat, 0o644)
	fifo := filepath.Join(projects, "fifo.jsonl")
	if err := testenv.Mkfifo(fifo); err != nil {
		t.Skip(err)
	}
	link := filepath.Join(projects, "link.jsonl")
	os.Symlink(elsewhere, link)
	linkToFifo := filepath.Join(projects, "fifo-link.jsonl")
	os.Symlink(fifo, linkToFifo)
	for _, tc := range []struct {
		path string
		ok   bool
	}{{good, true}, {"/etc/passwd", false}, {elsewhere, false}, {fifo, false}, {link, false}, {linkToFifo, false}} {
		events := []string{"Stop"}
		if !tc.ok {
			// SessionEnd has no time budget of the agent's: a refused
			// path must not be opened there either.
			events = append(events, "SessionEnd")
		}
		for _, ev := range events {
			done := make(chan *Report, 1)
			go func() {
				_, rep := f.run(agent.ClaudeCode, ev, map[string]any{"session_id": "s-" + filepath.Base(tc.path), "transcript_path": tc.path, "last_assistant_message": "done"})
				done <- rep
			}()
			select {
			case rep := <-done:
				ignored := strings.Contains(notes(rep), "transcript ignored")
				if ignored == tc.ok {
					t.Errorf("%s %s: ignored = %v; log %q", ev, tc.path, ignored, notes(rep))
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("%s: the %s hook hangs", tc.path, ev)
			}
		}
	}
	for _, e := range f.queued() {
		if e.Transcript != good {
			t.Errorf("queued a review of %s", e.Transcript)
		}
	}
}

// An agent's first session names a transcript in folders the agent has
// not made yet (Claude Code's ~/.claude/projects/<project>/ before its
// first write): the path is inside the agent's folders, so the hook says
// there is nothing to count, not that it ignored the transcript; a
// missing folder elsewhere is still refused.
func TestFirstSessionTranscriptFolderNotMadeYet(t *testing.T) {
	f := newHookFixture(t)
	delete(f.env, EnvTranscriptDirs)
	projects := filepath.Join(f.env["HOME"], ".claude", "projects")
	if _, err := os.Stat(projects); !os.IsNotExist(err) {
		t.Fatalf("the fixture's home has %s already (%v)", projects, err)
	}
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{filepath.Join(projects, "-work-new-project", "s1.jsonl"), true},
		{filepath.Join(t.TempDir(), "not", "made", "s1.jsonl"), false},
		{filepath.Join(projects, "..", "elsewhere", "s1.jsonl"), false},
	} {
		for _, event := range []string{"SessionStart", "Stop"} {
			_, rep := f.run(agent.ClaudeCode, event, map[string]any{"session_id": "s1", "transcript_path": tc.path, "last_assistant_message": "done"})
			if ignored := strings.Contains(notes(rep), "transcript ignored"); ignored == tc.ok {
				t.Errorf("%s %s: ignored = %v; log %q", event, tc.path, ignored, notes(rep))
			}
		}
	}
	if _, err := os.Stat(projects); !os.IsNotExist(err) {
		t.Errorf("the check made %s (%v)", projects, err)
	}
}

// Gemini CLI keeps a session's transcript in the chats/ folder of the
// project's folder under ~/.gemini/tmp (or $GEMINI_CLI_HOME/.gemini/tmp):
// a file there is read; its other files (logs.json beside chats/) and
// the tmp folder itself are not, nor ~/.gemini/tmp once GEMINI_CLI_HOME
// moves the agent's home.
func TestGeminiTranscriptFolders(t *testing.T) {
	f := newHookFixture(t)
	delete(f.env, EnvTranscriptDirs)
	home := f.env["HOME"]
	cliHome := t.TempDir()
	write := func(p string) string {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`{"sessionId":"s","messages":[]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	chat := write(filepath.Join(home, ".gemini", "tmp", "0f1e2d", "chats", "session-2026-12-03T10-00-abc.json"))
	logs := write(filepath.Join(home, ".gemini", "tmp", "0f1e2d", "logs.json"))
	loose := write(filepath.Join(home, ".gemini", "tmp", "session.json"))
	sandboxed := write(filepath.Join(home, ".cache", ".gemini", "tmp", "0f1e2d", "chats", "session-x.json"))
	moved := write(filepath.Join(cliHome, ".gemini", "tmp", "myproject", "chats", "session-y.json"))
	for i, tc := range []struct {
		cliHome string
		path    string
		ok      bool
	}{
		{"", chat, true}, {"", sandboxed, true}, {"", logs, false}, {"", loose, false}, {"", moved, false},
		{cliHome, moved, true}, {cliHome, chat, false},
	} {
		f.env["GEMINI_CLI_HOME"] = tc.cliHome
		_, rep := f.run(agent.Gemini, "AfterTool", map[string]any{"session_id": fmt.Sprintf("g%d", i), "transcript_path": tc.path, "tool_name": "read_file", "cwd": home})
		if ignored := strings.Contains(notes(rep), "transcript ignored"); ignored == tc.ok {
			t.Errorf("GEMINI_CLI_HOME=%q %s: ignored = %v; log %q", tc.cliHome, tc.path, ignored, notes(rep))
		}
	}
}

// Codex numbers its calls from call_0 in every session: the count-once
// key is the call within its session, so two sessions count twice. A
// read through the command's own cd, or in the call's workdir, counts.
func TestCodexCountsPerSessionAndFollowsCd(t *testing.T) {
	f := newHookFixture(t)
	outside := t.TempDir()
	skillDir := filepath.Join(f.lib.Root, "ci-debugging")
	for _, tc := range []struct {
		session string
		input   map[string]any
	}{
		{"s1", map[string]any{"command": "cat " + filepath.Join(skillDir, "SKILL.md")}},
		{"s2", map[string]any{"command": "cat " + filepath.Join(skillDir, "SKILL.md")}}, // another session, the same call id
		{"s3", map[string]any{"command": []string{"bash", "-lc", "cd " + skillDir + " && cat SKILL.md"}}},
		{"s4", map[string]any{"cmd": "sed -n 1,40p SKILL.md", "workdir": skillDir}},
		{"s5", map[string]any{"command": "cd /tmp; cd " + f.lib.Root + "/ci-debugging; head SKILL.md"}},
		{"s6", map[string]any{"command": "cd " + outside + " && cat SKILL.md"}}, // not a skill of the library
	} {
		f.run(agent.Codex, "PostToolUse", map[string]any{"session_id": tc.session, "cwd": outside, "tool_name": "Bash", "tool_use_id": "call_0",
			"tool_input": tc.input})
	}
	if use, view := f.uses("ci-debugging"); view != 5 || use != 5 {
		t.Errorf("ci-debugging: %d uses, %d views; want 5 and 5", use, view)
	}
	// The same call delivered again in its own session counts once.
	f.run(agent.Codex, "PostToolUse", map[string]any{"session_id": "s1", "cwd": outside, "tool_name": "Bash", "tool_use_id": "call_0",
		"tool_input": map[string]any{"command": "cat " + filepath.Join(skillDir, "SKILL.md")}})
	if _, view := f.uses("ci-debugging"); view != 5 {
		t.Errorf("a repeated delivery counted: %d views", view)
	}
}

// A session that ends before its first exchange (an empty TUI session)
// logs that there is nothing to count, not an error.
func TestEmptySessionIsNoError(t *testing.T) {
	f := newHookFixture(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "rollout.jsonl")
	if err := os.WriteFile(empty, []byte(`{"timestamp":"2026-12-01T00:00:00Z","type":"session_meta","payload":{"id":"s-empty","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.169.1"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{empty, filepath.Join(dir, "never-written.jsonl")} {
		for _, ev := range []string{"Stop", "SessionEnd"} {
			_, rep := f.run(agent.Codex, ev, map[string]any{"session_id": "s-empty", "transcript_path": path, "cwd": dir})
			if !strings.Contains(strings.Join(rep.Notes, "\n"), "nothing to count") {
				t.Errorf("%s on %s: notes %q", ev, filepath.Base(path), rep.Notes)
			}
		}
	}
}

// A config with a problem: the event's reads go on (the memory reaches
// the agent), its write (the session start's sync of an outside edit) is
// refused, and both go to the hooks log, never to the agent.
func TestBrokenConfigAtSessionStart(t *testing.T) {
	f := newHookFixture(t)
	if _, err := testlib.Policy(t, f.lib, skillrepo.Writer{}).ChangeMemory(context.Background(), skillrepo.MemoryOptions{Target: "user", Action: "add", Content: "Prefers short answers."}); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(f.lib.Root, ".skillrepo", "config.yaml")
	good, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, []byte(strings.Replace(string(good), "  skill_interval: 10", "  skill_intervall: 10", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	// An edit made outside skillrepo, which the sync would record.
	md := filepath.Join(f.lib.Root, "ci-debugging", "SKILL.md")
	data, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(md, append(data, "\nOne more line.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	head := testlib.Git(t, f.lib.Root, f.env, "rev-parse", "main")
	out, rep := f.run(agent.ClaudeCode, "SessionStart", map[string]any{"session_id": "a", "source": "startup"})
	if !strings.Contains(out, "Prefers short answers.") {
		t.Errorf("the memory did not reach the agent: %q", out)
	}
	notes := strings.Join(rep.Notes, "\n")
	if !strings.Contains(notes, "warning: "+cfgPath+":") || !strings.Contains(notes, "review.skill_intervall: unknown key") {
		t.Errorf("notes lack the config's problem:\n%s", notes)
	}
	if !strings.Contains(notes, "sync skipped: ") || !strings.Contains(notes, "nothing was written: the library's config has problems") {
		t.Errorf("notes lack the refused sync:\n%s", notes)
	}
	if testlib.Git(t, f.lib.Root, f.env, "rev-parse", "main") != head {
		t.Error("the sync committed under a broken config")
	}
}

// One review per turn: Claude Code writes a turn's last text block after
// the Stop hook ran, so SessionEnd counts one more model iteration of the
// turn Stop's review took; with every turn worth a review (intervals 1)
// that must not queue a second review, whether the first waits (the
// final transcript goes to it), runs or is done. A new user turn after
// it still gets its final review.
func TestOneReviewPerTurn(t *testing.T) {
	turn := func(i int) []string {
		return []string{
			fmt.Sprintf(`{"type":"user","message":{"role":"user","content":"fix test %d"},"uuid":"u%d"}`, i, i),
			fmt.Sprintf(`{"type":"assistant","message":{"id":"m%d","role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"go test"}}]},"uuid":"a%d"}`, i, i, i),
			fmt.Sprintf(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"ok"}]},"uuid":"r%d"}`, i, i),
		}
	}
	final := func(i int) string {
		return fmt.Sprintf(`{"type":"assistant","message":{"id":"f%d","role":"assistant","content":[{"type":"text","text":"fixed %d"}]},"uuid":"f%d"}`, i, i, i)
	}
	for _, tc := range []struct {
		name    string
		state   queue.State // the Stop review's state at SessionEnd
		newTurn bool        // a second turn after the Stop review, no Stop of its own
		want    int         // queue entries after SessionEnd
	}{
		{"waiting", queue.Queued, false, 1},
		{"running", queue.Running, false, 1},
		{"done", queue.Done, false, 1},
		{"a turn after it", queue.Done, true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newHookFixture(t)
			f.setReview("memory_interval: 1", "skill_interval: 1")
			p := filepath.Join(t.TempDir(), "s.jsonl")
			write := func(lines []string) {
				if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			lines := turn(1)
			write(lines) // Stop runs before the turn's last text block is written
			_, rep := f.run(agent.ClaudeCode, "Stop", map[string]any{"session_id": "s1", "transcript_path": p, "last_assistant_message": "fixed 1"})
			q := queue.New(f.lib.State().Queue())
			entries, _ := q.List()
			if len(entries) != 1 {
				t.Fatalf("Stop queued %d reviews (notes %q)", len(entries), rep.Notes)
			}
			if tc.state != queue.Queued {
				if _, err := q.Claim(entries[0].ID, "r-1"); err != nil {
					t.Fatal(err)
				}
			}
			if tc.state == queue.Done {
				if _, err := q.Update(entries[0].ID, func(e *queue.Entry) error { e.State = queue.Done; return nil }); err != nil {
					t.Fatal(err)
				}
			}
			lines = append(lines, final(1))
			if tc.newTurn {
				lines = append(append(lines, turn(2)...), final(2))
			}
			write(lines)
			_, rep = f.run(agent.ClaudeCode, "SessionEnd", map[string]any{"session_id": "s1", "transcript_path": p, "reason": "other"})
			entries, _ = q.List()
			if len(entries) != tc.want {
				t.Fatalf("%d queue entries after SessionEnd, want %d (notes %q)", len(entries), tc.want, rep.Notes)
			}
			notes := strings.Join(rep.Notes, "\n")
			switch {
			case tc.newTurn:
				if !strings.Contains(notes, "a nudge fired with the last turn") {
					t.Errorf("notes %q", notes)
				}
			case tc.state == queue.Queued:
				if !entries[0].Due.Final || !strings.Contains(notes, "merged into queued review") {
					t.Errorf("the waiting review does not take the final transcript: %+v, notes %q", entries[0], notes)
				}
			default:
				if want := "no final review: review " + entries[0].ID + " took every turn of the session (1)"; !strings.Contains(notes, want) {
					t.Errorf("notes %q, want %q", notes, want)
				}
			}
		})
	}
}

// An event whose ids are not ids (issue 40's payloads: a session id that
// is an option of the agent's program) ends before it opens the library:
// nothing is queued, no marker file is named after it.
func TestOptionShapedIDsRefused(t *testing.T) {
	f := newHookFixture(t)
	transcript := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(transcript, []byte(`{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		agent agent.Name
		in    map[string]any
		field string
	}{
		{agent.ClaudeCode, map[string]any{"session_id": "--mcp-config=/tmp/pwn.json", "transcript_path": transcript}, "session_id"},
		{agent.Codex, map[string]any{"session_id": "-cmcp_servers.pwn.command=/tmp/pwn", "transcript_path": transcript}, "session_id"},
		{agent.ClaudeCode, map[string]any{"session_id": "../../x", "transcript_path": transcript}, "session_id"},
		{agent.ClaudeCode, map[string]any{"session_id": "s1", "tool_use_id": "-x\nSkill-Origin: user", "tool_name": "Read"}, "tool_use_id"},
	} {
		for _, event := range []string{"Stop", "SessionEnd", "PostToolUse"} {
			data, _ := json.Marshal(tt.in)
			_, err := Run(context.Background(), Options{Agent: sessionAgent(tt.agent), Event: event, Library: f.lib.Root,
				In: bytes.NewReader(data), Out: &bytes.Buffer{}, Getenv: func(k string) string { return f.env[k] }, Now: func() time.Time { return f.now }})
			if err == nil || !strings.Contains(err.Error(), tt.field) || !strings.Contains(err.Error(), "is not an id") {
				t.Errorf("%s %s %v: %v", tt.agent, event, tt.in, err)
			}
		}
	}
	if entries, _ := queue.New(f.lib.State().Queue()).List(); len(entries) != 0 {
		t.Errorf("queued: %+v", entries)
	}
}

// sessionAgent is the hook runner's view of an agent, from the agent's
// folder (as the command hands it in from the registry).
func sessionAgent(n agent.Name) Agent {
	return map[agent.Name]Agent{agent.ClaudeCode: claudecode.Agent{}, agent.Codex: codex.Agent{}, agent.Gemini: gemini.Agent{}, copilot.Name: copilot.Agent{}}[n]
}
