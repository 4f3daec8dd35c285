package goals

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/internal/fakemodel"
)

func TestParseVerdict(t *testing.T) {
	cases := []struct {
		name, in    string
		want        string
		wantPID     int
		wantSeconds float64
		wantErr     bool
	}{
		{"plain", `{"verdict":"done","reason":"tests pass"}`, VerdictDone, 0, 0, false},
		{"fenced", "```json\n{\"verdict\": \"continue\", \"reason\": \"x\"}\n```", VerdictContinue, 0, 0, false},
		{"prose around", `I think: {"verdict":"done","reason":"a {brace} in text"} that's it`, VerdictDone, 0, 0, false},
		{"legacy done", `{"done": true}`, VerdictDone, 0, 0, false},
		{"legacy not done", `{"done": false, "reason": "r"}`, VerdictContinue, 0, 0, false},
		{"upper case", `{"verdict":"DONE"}`, VerdictDone, 0, 0, false},
		{"unknown verdict continues", `{"verdict":"maybe"}`, VerdictContinue, 0, 0, false},
		{"wait on pid", `{"verdict":"wait","wait_on_pid":4242,"reason":"build"}`, VerdictWait, 4242, 0, false},
		{"wait seconds as string", `{"verdict":"wait","wait_for_seconds":"90"}`, VerdictWait, 0, 90, false},
		{"wait on nothing continues", `{"verdict":"wait"}`, VerdictContinue, 0, 0, false},
		{"empty", "  ", "", 0, 0, true},
		{"no json", "The goal is met.", "", 0, 0, true},
		{"no verdict field", `{"reason":"x"}`, "", 0, 0, true},
		{"unbalanced", `{"verdict":"done"`, "", 0, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := ParseVerdict(c.in)
			if c.wantErr {
				if !errors.Is(err, ErrUnparsable) {
					t.Fatalf("err = %v, want ErrUnparsable", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v.Verdict != c.want || v.WaitPID != c.wantPID || v.WaitFor != c.wantSeconds {
				t.Fatalf("got %+v, want %s pid %d seconds %g", v, c.want, c.wantPID, c.wantSeconds)
			}
		})
	}
}

func TestStoreRoundTripAndBind(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	st, err := NewState("all tests pass", 0, now)
	if err != nil {
		t.Fatal(err)
	}
	st.Contract = &Contract{Outcome: "green CI", Verification: "go test ./... exits 0"}
	st.Subgoals = []string{"PR description written"}
	if err := s.Save(st); err != nil { // no session: pending
		t.Fatal(err)
	}
	if s.HasGoal("sess-1") {
		t.Fatal("a pending goal must not count as the session's before it is bound")
	}
	bound, err := s.BindPending("sess-1", now)
	if err != nil || !bound {
		t.Fatalf("bind = %v, %v", bound, err)
	}
	if _, err := s.Load(""); !errors.Is(err, ErrNoGoal) {
		t.Fatalf("pending goal still there after binding: %v", err)
	}
	got, err := s.Load("sess-1")
	if err != nil {
		t.Fatal(err)
	}
	st.Session = "sess-1"
	st.Version = stateVersion
	a, _ := json.Marshal(st)
	b, _ := json.Marshal(got)
	if string(a) != string(b) {
		t.Fatalf("round trip changed the state:\n%s\n%s", a, b)
	}
	// A second session start binds nothing.
	if bound, err := s.BindPending("sess-2", now); err != nil || bound {
		t.Fatalf("second bind = %v, %v", bound, err)
	}
}

func TestBindKeepsTheSessionsOwnGoal(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	now := time.Now()
	own, _ := NewState("own goal", 5, now)
	own.Session = "s"
	pending, _ := NewState("pending goal", 5, now)
	for _, st := range []State{own, pending} {
		if err := s.Save(st); err != nil {
			t.Fatal(err)
		}
	}
	if bound, err := s.BindPending("s", now); err != nil || bound {
		t.Fatalf("bind over an active goal = %v, %v", bound, err)
	}
	got, _ := s.Load("s")
	if got.Goal != "own goal" {
		t.Fatalf("goal = %q", got.Goal)
	}
}

func TestCorruptStateSetAside(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	p := filepath.Join(s.Dir, "sess.json")
	if err := os.WriteFile(p, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := s.Load("sess")
	var ce *CorruptError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *CorruptError", err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatal("corrupt file left in place")
	}
	data, err := os.ReadFile(ce.SetAside)
	if err != nil || string(data) != "{not json" {
		t.Fatalf("set-aside copy: %q %v", data, err)
	}
	if !strings.Contains(ce.Error(), "moved to") {
		t.Fatalf("message does not say where it went: %v", err)
	}
}

func TestValidSession(t *testing.T) {
	for _, bad := range []string{"", "next", "../x", "a/b", strings.Repeat("a", 129), "-x"} {
		if ValidSession(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, good := range []string{"abc123", "00893aaf-1c2d-4e5f-8a9b-0123456789ab", "thread:1.2_x"} {
		if err := ValidSession(good); err != nil {
			t.Errorf("%q refused: %v", good, err)
		}
	}
}

// judgeFixture is an evaluator whose judge is a fake model serving replies.
type judgeFixture struct {
	t     *testing.T
	srv   *fakemodel.Server
	eval  *Evaluator
	now   time.Time
	done  []State
	store Store
}

func newJudgeFixture(t *testing.T, replies string, timeout time.Duration) *judgeFixture {
	t.Helper()
	script, err := fakemodel.ParseScript([]byte(replies))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakemodel.Start(script, nil)
	t.Cleanup(srv.Close)
	cfg := openai.DefaultConfig("k")
	cfg.BaseURL = srv.BaseURL()
	cfg.HTTPClient = ZeroTemperature(&http.Client{})
	f := &judgeFixture{t: t, srv: srv, now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), store: Store{Dir: t.TempDir()}}
	f.eval = &Evaluator{
		Store:  f.store,
		Judge:  &Judge{Client: openai.NewClientWithConfig(cfg), Model: "judge", Timeout: timeout},
		Now:    func() time.Time { return f.now },
		Alive:  func(pid int) bool { return pid == 4242 },
		OnDone: func(st State) { f.done = append(f.done, st) },
	}
	return f
}

func (f *judgeFixture) setGoal(maxTurns int) State {
	f.t.Helper()
	st, err := NewState("all tests in ./pkg pass and the PR description is written", maxTurns, f.now)
	if err != nil {
		f.t.Fatal(err)
	}
	st.Session = "sess"
	if err := f.store.Save(st); err != nil {
		f.t.Fatal(err)
	}
	return st
}

func (f *judgeFixture) turn() Outcome {
	return f.eval.AfterTurn(context.Background(), Turn{Session: "sess", LastMessage: "I ran the tests."})
}

func (f *judgeFixture) state() State {
	st, err := f.store.Load("sess")
	if err != nil {
		f.t.Fatal(err)
	}
	return st
}

func TestContinueThreeTimesThenDone(t *testing.T) {
	f := newJudgeFixture(t, `[
		{"content":"{\"verdict\":\"continue\",\"reason\":\"tests fail\"}","times":3},
		{"content":"{\"verdict\":\"done\",\"reason\":\"all green\"}"}]`, 0)
	f.setGoal(20)
	for i := 1; i <= 3; i++ {
		o := f.turn()
		if o.Action != Block || !strings.Contains(o.Prompt, "all tests in ./pkg pass") || !strings.Contains(o.Prompt, "tests fail") {
			t.Fatalf("turn %d: %+v", i, o)
		}
		if st := f.state(); st.TurnsUsed != i || !st.ContinuationPending {
			t.Fatalf("turn %d: state %+v", i, st)
		}
	}
	o := f.turn()
	if o.Action != Allow || !strings.Contains(o.Message, "all green") {
		t.Fatalf("done turn: %+v", o)
	}
	st := f.state()
	if st.Status != Done || st.TurnsUsed != 4 || len(st.Verdicts) != 4 || len(f.done) != 1 {
		t.Fatalf("final state %+v, done callbacks %d", st, len(f.done))
	}
	// The judge was given the goal and the agent's last message.
	reqs := f.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("judge asked %d times, want 4", len(reqs))
	}
	for _, want := range []string{"I ran the tests.", "all tests in ./pkg pass", `"model":"judge"`} {
		if !strings.Contains(string(reqs[0].Body), want) {
			t.Errorf("judge request lacks %q", want)
		}
	}
	// A done goal is never judged again.
	if o := f.turn(); o.Judged || o.Action != Allow {
		t.Fatalf("turn after done: %+v", o)
	}
}

func TestWaitParksUntilDeadline(t *testing.T) {
	f := newJudgeFixture(t, `[
		{"content":"{\"verdict\":\"wait\",\"wait_for_seconds\":120,\"reason\":\"CI running\"}"},
		{"content":"{\"verdict\":\"done\",\"reason\":\"CI green\"}"}]`, 0)
	f.setGoal(20)
	if o := f.turn(); o.Action != Allow || !strings.Contains(o.Message, "parked") {
		t.Fatalf("wait turn: %+v", o)
	}
	f.now = f.now.Add(time.Minute)
	if o := f.turn(); o.Judged || !strings.Contains(o.Message, "parked") {
		t.Fatalf("turn inside the barrier was judged: %+v", o)
	}
	if st := f.state(); st.TurnsUsed != 1 {
		t.Fatalf("a parked turn was counted: %d", st.TurnsUsed)
	}
	f.now = f.now.Add(2 * time.Minute)
	if o := f.turn(); !o.Judged || o.State.Status != Done {
		t.Fatalf("turn after the barrier: %+v", o)
	}
}

func TestWaitOnPID(t *testing.T) {
	f := newJudgeFixture(t, `[{"content":"{\"verdict\":\"wait\",\"wait_on_pid\":4242}"}]`, 0)
	f.setGoal(20)
	f.turn()
	if o := f.turn(); o.Judged {
		t.Fatal("judged while the process runs")
	}
	f.eval.Alive = func(int) bool { return false }
	active, err := f.eval.Wake("sess")
	if err != nil || !active || f.state().Waiting != nil {
		t.Fatalf("wake: %v %v %+v", active, err, f.state().Waiting)
	}
}

// An unreadable verdict means continue (in doubt, the agent goes on);
// three in a row pause the goal with advice.
func TestParseFailuresPauseAfterThree(t *testing.T) {
	f := newJudgeFixture(t, `[{"content":"I believe the goal is nearly met.","times":-1}]`, 0)
	f.setGoal(20)
	for i := 1; i <= 3; i++ {
		o := f.turn()
		if want := map[bool]Action{true: Allow, false: Block}[i == 3]; o.Action != want {
			t.Fatalf("turn %d: action %v, want %v (%s)", i, o.Action, want, o.Message)
		}
		if st := f.state(); st.ConsecutiveParseFailures != i {
			t.Fatalf("turn %d: failures %d", i, st.ConsecutiveParseFailures)
		}
	}
	st := f.state()
	if st.Status != Paused || !strings.Contains(st.PausedReason, "stricter judge model") {
		t.Fatalf("state %+v", st)
	}
}

// A judge that errors, stalls past its timeout or says nothing means
// continue, as the reference's (a broken judge must not stall the work;
// the turn budget bounds it), counted as a judge failure and never as a
// parse failure.
func TestJudgeFailureFailsOpen(t *testing.T) {
	cases := []struct {
		name    string
		replies string
		timeout time.Duration
	}{
		{"http 500", `[{"status":500,"error":"boom","times":-1}]`, 0},
		{"stall past the timeout", `[{"content":"{\"verdict\":\"continue\"}","delay_ms":2000}]`, 200 * time.Millisecond},
		{"empty reply", `[{"content":""}]`, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newJudgeFixture(t, c.replies, c.timeout)
			f.setGoal(20)
			start := time.Now()
			o := f.turn()
			if o.Action != Block || o.Err == nil || !strings.Contains(o.Message, "Goal judge unavailable") || !strings.Contains(o.Prompt, "Continuing toward your standing goal") {
				t.Fatalf("outcome %+v", o)
			}
			if c.timeout > 0 && time.Since(start) > 10*c.timeout {
				t.Fatalf("the hook waited %s for a judge with a %s timeout", time.Since(start), c.timeout)
			}
			st := f.state()
			if st.Status != Active || st.JudgeFailures != 1 || st.ConsecutiveParseFailures != 0 {
				t.Fatalf("state %+v", st)
			}
		})
	}
}

func TestBudgetPausesAtExactlyMaxTurns(t *testing.T) {
	f := newJudgeFixture(t, `[{"content":"{\"verdict\":\"continue\"}","times":-1}]`, 0)
	f.setGoal(3)
	blocks := 0
	for i := 0; i < 10; i++ {
		o := f.eval.AfterTurn(context.Background(), Turn{Session: "sess", LastMessage: "working", StopHookActive: i > 0})
		if o.Action == Block {
			blocks++
		}
	}
	st := f.state()
	if blocks != 2 || st.TurnsUsed != 3 || st.Status != Paused || !strings.Contains(st.PausedReason, "3/3 turns") {
		t.Fatalf("blocks %d, state %+v", blocks, st)
	}
	if n := len(f.srv.Requests()); n != 3 {
		t.Fatalf("judge asked %d times, want 3", n)
	}
}

func TestNoGoalIsANoOp(t *testing.T) {
	f := newJudgeFixture(t, `[]`, 0)
	if o := f.turn(); o.Judged || o.Action != Allow || o.Message != "" || o.State != nil {
		t.Fatalf("outcome %+v", o)
	}
	if o := f.eval.AfterTurn(context.Background(), Turn{Session: "", LastMessage: "x"}); o.Action != Allow {
		t.Fatal("blocked without a session id")
	}
	if n := len(f.srv.Requests()); n != 0 {
		t.Fatalf("judge asked %d times", n)
	}
}

func TestUserInterruptPauses(t *testing.T) {
	f := newJudgeFixture(t, `[{"content":"{\"verdict\":\"continue\"}"}]`, 0)
	f.setGoal(20)
	if o := f.turn(); o.Action != Block {
		t.Fatal("no continuation")
	}
	paused, err := f.eval.UserPrompt("sess")
	if err != nil || !paused {
		t.Fatalf("paused = %v, %v", paused, err)
	}
	if st := f.state(); st.Status != Paused || !strings.Contains(st.PausedReason, "interrupted") {
		t.Fatalf("state %+v", st)
	}
	// A prompt with no continuation pending changes nothing.
	g := newJudgeFixture(t, `[]`, 0)
	g.setGoal(20)
	if paused, _ := g.eval.UserPrompt("sess"); paused {
		t.Fatal("paused without a pending continuation")
	}
}

func TestConcurrentTurnsKeepEveryCount(t *testing.T) {
	f := newJudgeFixture(t, `[{"content":"{\"verdict\":\"continue\"}","times":-1}]`, 0)
	f.setGoal(1000)
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.turn()
		}()
	}
	wg.Wait()
	if st := f.state(); st.TurnsUsed != 12 {
		t.Fatalf("turns used %d, want 12", st.TurnsUsed)
	}
}

func TestContinuationPromptContract(t *testing.T) {
	st, _ := NewState("ship it", 5, time.Now())
	plain := ContinuationPrompt(st, "")
	st.Contract = &Contract{Verification: "make test prints PASS", Boundaries: "only ./pkg"}
	withContract := ContinuationPrompt(st, "tests red")
	for _, want := range []string{"ship it", "next concrete step", "stop"} {
		if !strings.Contains(plain, want) {
			t.Errorf("plain prompt lacks %q", want)
		}
	}
	for _, want := range []string{"make test prints PASS", "only ./pkg", "evidence", "tests red"} {
		if !strings.Contains(withContract, want) {
			t.Errorf("contract prompt lacks %q", want)
		}
	}
	if strings.Contains(plain, "evidence of it") {
		t.Error("the plain prompt demands contract evidence")
	}
}

// The judge's request says temperature 0, which go-openai drops from the
// body unless the client's doer puts it back; a request that names a
// temperature keeps it.
func TestJudgeSendsTemperatureZero(t *testing.T) {
	f := newJudgeFixture(t, `[{"content":"{\"verdict\":\"continue\"}"}]`, 0)
	f.setGoal(20)
	f.turn()
	reqs := f.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if string(body["temperature"]) != "0" {
		t.Errorf("temperature = %s in %s", body["temperature"], reqs[0].Body)
	}

	srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{{Content: "x"}}}, nil)
	defer srv.Close()
	cfg := openai.DefaultConfig("k")
	cfg.BaseURL, cfg.HTTPClient = srv.BaseURL(), ZeroTemperature(&http.Client{})
	if _, err := openai.NewClientWithConfig(cfg).CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{Model: "m", Temperature: 0.7,
		Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}); err != nil {
		t.Fatal(err)
	}
	if b := string(srv.Requests()[0].Body); !strings.Contains(b, `"temperature":0.7`) {
		t.Errorf("a set temperature was changed: %s", b)
	}
}

// The judge caps its reply in the field the server reads, as the
// reference does: max_completion_tokens for OpenAI's own endpoint and its
// newer model families anywhere, max_tokens for other servers.
func TestJudgeCapsTheReplyInTheServersField(t *testing.T) {
	tests := []struct {
		baseURL, model, want string
	}{
		{"", "judge", "max_completion_tokens"},
		{"https://api.openai.com/v1", "judge", "max_completion_tokens"},
		{"https://API.OpenAI.com./v1", "judge", "max_completion_tokens"},
		{"http://127.0.0.1:11434/v1", "qwen3:8b", "max_tokens"},
		{"https://openrouter.ai/api/v1", "openai/gpt-5-mini", "max_completion_tokens"},
		{"https://gateway.example/v1", "o3-mini", "max_completion_tokens"},
		{"https://gateway.example/v1", "gpt-4.1", "max_completion_tokens"},
		{"https://api.openai.com.example/v1", "judge", "max_tokens"},
		{"https://proxy.example/api.openai.com/v1", "llama-3.1-8b", "max_tokens"},
	}
	for _, tt := range tests {
		f := newJudgeFixture(t, `[{"content":"{\"verdict\":\"continue\"}"}]`, 0)
		f.eval.Judge.BaseURL, f.eval.Judge.Model = tt.baseURL, tt.model
		f.setGoal(20)
		f.turn()
		reqs := f.srv.Requests()
		if len(reqs) != 1 {
			t.Fatalf("%s %s: %d requests", tt.baseURL, tt.model, len(reqs))
		}
		var body map[string]json.RawMessage
		if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
			t.Fatal(err)
		}
		other := "max_tokens"
		if tt.want == other {
			other = "max_completion_tokens"
		}
		if string(body[tt.want]) != "4096" || body[other] != nil {
			t.Errorf("base URL %q, model %q: %s, want %s: 4096 and no %s", tt.baseURL, tt.model, reqs[0].Body, tt.want, other)
		}
	}
}

type askFunc func(ctx context.Context, system, user string) (string, error)

func (f askFunc) Ask(ctx context.Context, system, user string) (string, error) {
	return f(ctx, system, user)
}

// A judge with an Asker (the agent's own program) asks it instead of an
// endpoint: the same prompts, the same reading of the reply.
func TestJudgeThroughAnAsker(t *testing.T) {
	f := newJudgeFixture(t, `[]`, 0)
	var system, user string
	f.eval.Judge = &Judge{Asker: askFunc(func(ctx context.Context, s, u string) (string, error) {
		system, user = s, u
		return "```json\n{\"verdict\": \"done\", \"reason\": \"shown\"}\n```", nil
	})}
	f.setGoal(20)
	o := f.turn()
	if f.state().Status != Done || !strings.Contains(o.Message, "Goal achieved: shown") {
		t.Fatalf("outcome %+v", o)
	}
	if !strings.Contains(system, "You judge whether an AI agent has reached a standing goal") || !strings.Contains(user, "all tests in ./pkg pass") {
		t.Errorf("asked with system %.60q user %.80q", system, user)
	}
	if len(f.srv.Requests()) != 0 {
		t.Error("the endpoint was asked too")
	}
}
