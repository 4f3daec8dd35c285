package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/curator"
	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/config"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

const chat = `[
  {"role": "system", "content": "You are a careful coding agent."},
  {"role": "user", "content": "Install deps and run the tests. We always use pnpm here, never npm."},
  {"role": "assistant", "content": "Done with pnpm: 42 tests pass."}
]`

// createReply is a model turn that creates skill name.
func createReply(name string) fakemodel.Reply {
	args, _ := json.Marshal(map[string]any{"operations": []map[string]any{{
		"action": "create", "name": name,
		"content": "---\nname: " + name + "\ndescription: Use when running JS package scripts in pnpm repos.\n---\n# " + name + "\n\n1. Use pnpm, never npm.\n",
	}}})
	return fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{Name: "skill_manage", Arguments: args}}}
}

type fixture struct {
	t       *testing.T
	lib     *skillrepo.Library
	env     map[string]string
	store   *queue.Store
	srv     *fakemodel.Server
	log     bytes.Buffer
	transcr string
}

func newFixture(t *testing.T, replies ...fakemodel.Reply) *fixture {
	t.Helper()
	lib, env := testlib.ExampleLibrary(t)
	srv := fakemodel.Start(&fakemodel.Script{Replies: replies}, nil)
	t.Cleanup(srv.Close)
	env["OPENAI_BASE_URL"] = srv.BaseURL()
	env["OPENAI_API_KEY"] = "k"
	env["SKILLREPO_MODEL"] = "test-model"
	env["SKILLREPO_DEFER_QUIET"] = "0s"
	env["SKILLREPO_RETRY_BACKOFF"] = "10ms"
	f := &fixture{t: t, lib: lib, env: env, store: queue.New(lib.State().Queue()), srv: srv}
	f.transcr = filepath.Join(t.TempDir(), "chat.json")
	if err := os.WriteFile(f.transcr, []byte(chat), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) enqueue(session string) queue.Entry {
	f.t.Helper()
	e, _, err := f.store.Enqueue(queue.Entry{Kind: queue.KindReview, Agent: "test", SessionID: session, Transcript: f.transcr, Format: "openai", Due: queue.Due{Skills: true}})
	if err != nil {
		f.t.Fatal(err)
	}
	return e
}

func (f *fixture) run() *Result {
	f.t.Helper()
	res, err := Run(context.Background(), Options{Dir: f.lib.Root, Getenv: func(k string) string { return f.env[k] }, Once: true, Log: &f.log, Poll: 20 * time.Millisecond})
	if err != nil {
		f.t.Fatalf("worker: %v\nlog:\n%s", err, f.log.String())
	}
	return res
}

func (f *fixture) git(args ...string) string {
	f.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = f.lib.Root
	for k, v := range f.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, "PATH="+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		f.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (f *fixture) clean() {
	f.t.Helper()
	f.git("fsck", "--strict", "--no-progress")
	if st := f.git("status", "--porcelain"); st != "" {
		f.t.Errorf("git status not clean:\n%s", st)
	}
}

// A model that fails three times, then answers: the review is retried
// after a back-off and lands.
func TestRetryThenMerge(t *testing.T) {
	f := newFixture(t,
		fakemodel.Reply{Status: 503, Error: "overloaded", Times: 3},
		createReply("pnpm-workflows"),
		fakemodel.Reply{Content: "Created pnpm-workflows."},
	)
	e := f.enqueue("s-1")
	res := f.run()
	got, err := f.store.Get(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != queue.Done || got.Outcome == nil || !got.Outcome.Merged || got.Attempts != 2 || res.Retried != 1 {
		t.Fatalf("entry = %+v, outcome %+v, result %+v\nlog:\n%s", got, got.Outcome, res, f.log.String())
	}
	if !strings.Contains(got.LastError, "503") {
		t.Errorf("last error %q does not keep the first attempt's reason", got.LastError)
	}
	if n := strings.Count(f.git("log", "--format=%s", "main"), "Merge proposal "+got.ReviewID); n != 1 {
		t.Errorf("%d merges of %s", n, got.ReviewID)
	}
	if _, err := os.Stat(filepath.Join(f.lib.Root, "pnpm-workflows", "SKILL.md")); err != nil {
		t.Error(err)
	}
	f.clean()
	if !strings.Contains(f.log.String(), "next attempt in") {
		t.Errorf("log does not tell of the back-off:\n%s", f.log.String())
	}
}

// A model that always fails: the entry is parked as failed with its
// reason after max_attempts, and nothing lands.
func TestAlwaysFailingParks(t *testing.T) {
	f := newFixture(t, fakemodel.Reply{Status: 503, Error: "overloaded", Times: -1})
	f.env["SKILLREPO_MAX_ATTEMPTS"] = "3"
	e := f.enqueue("s-1")
	before := f.git("rev-parse", "main")
	res := f.run()
	got, _ := f.store.Get(e.ID)
	if got.State != queue.Failed || got.Attempts != 3 || res.Failed != 1 || res.Retried != 2 {
		t.Fatalf("entry = %+v, result %+v", got, res)
	}
	if !strings.Contains(got.LastError, "gave up after 3 attempts") || !strings.Contains(got.LastError, "overloaded") {
		t.Errorf("reason = %q", got.LastError)
	}
	if after := f.git("rev-parse", "main"); after != before {
		t.Error("main moved")
	}
	f.clean()
}

// A request the model server rejects (HTTP 400) is not worth retrying:
// parked after one attempt.
func TestPermanentErrorParksAtOnce(t *testing.T) {
	f := newFixture(t, fakemodel.Reply{Status: 400, Error: "bad request", Times: -1})
	e := f.enqueue("s-1")
	f.run()
	got, _ := f.store.Get(e.ID)
	if got.State != queue.Failed || got.Attempts != 1 || !strings.Contains(got.LastError, "bad request") || strings.Contains(got.LastError, "gave up") {
		t.Fatalf("entry = %+v", got)
	}
}

// A config with a problem stops the worker before it takes an entry: a
// review would call the model and then be refused its write. The entry
// waits, untouched, and runs once the file is fixed.
func TestBrokenConfigStopsTheWorker(t *testing.T) {
	f := newFixture(t, createReply("fixed-later"), fakemodel.Reply{Content: "Saved."})
	e := f.enqueue("s-1")
	cfgPath := filepath.Join(f.lib.Root, ".skillrepo", "config.yaml")
	good, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, []byte(strings.Replace(string(good), "review:\n", "review:\n  max_attempts: none\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Options{Dir: f.lib.Root, Getenv: func(k string) string { return f.env[k] }, Once: true, Log: &f.log, Poll: 20 * time.Millisecond})
	var ce *config.Error
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "review.max_attempts") {
		t.Fatalf("worker with a broken config: %v", err)
	}
	if !strings.Contains(f.log.String(), "queued work waits until the config is fixed") {
		t.Errorf("log:\n%s", f.log.String())
	}
	if got, _ := f.store.Get(e.ID); got.State != queue.Queued || got.Attempts != 0 || len(f.srv.Requests()) != 0 {
		t.Fatalf("entry = %+v, %d model requests", got, len(f.srv.Requests()))
	}
	if err := os.WriteFile(cfgPath, good, 0o644); err != nil {
		t.Fatal(err)
	}
	f.run()
	if got, _ := f.store.Get(e.ID); got.State != queue.Done {
		t.Fatalf("after the fix: %+v\n%s", got, f.log.String())
	}
}

// A missing transcript parks the entry with the reason; the queue goes
// on with the next entry.
func TestMissingTranscriptParksAndGoesOn(t *testing.T) {
	f := newFixture(t, fakemodel.Reply{Content: "Nothing to save."})
	bad, _, err := f.store.Enqueue(queue.Entry{Kind: queue.KindReview, SessionID: "gone", Transcript: "/nonexistent/x.jsonl", Due: queue.Due{Skills: true}})
	if err != nil {
		t.Fatal(err)
	}
	good := f.enqueue("s-2")
	f.run()
	if got, _ := f.store.Get(bad.ID); got.State != queue.Failed || !strings.Contains(got.LastError, "read transcript") {
		t.Errorf("bad entry = %+v", got)
	}
	if got, _ := f.store.Get(good.ID); got.State != queue.Done || got.Outcome.Status != "completed" {
		t.Errorf("good entry = %+v", got)
	}
	// Both outcomes are in the usage history, with their sessions.
	evs, err := f.lib.UsageHistory().Read(usage.HistoryFilter{Match: func(e usage.HistoryEvent) bool { return e.Kind == usage.HistoryReview }})
	if err != nil || len(evs) != 2 {
		t.Fatalf("review events %+v, %v", evs, err)
	}
	if evs[0].Session != "gone" || evs[0].Outcome != "failed" || !strings.Contains(evs[0].Detail, "read transcript") ||
		evs[1].Session != "s-2" || evs[1].Outcome != "completed" || evs[1].Review == "" {
		t.Errorf("review events %+v", evs)
	}
}

// A second worker on the same library exits at once.
func TestSecondWorkerExits(t *testing.T) {
	f := newFixture(t)
	unlock, ok, err := statefile.TryLock(filepath.Join(f.lib.State().Worker(), LockFile))
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer unlock()
	f.enqueue("s-1")
	if !Running(f.lib.State().Worker()) {
		t.Error("Running = false while the lock is held")
	}
	if res := f.run(); !res.AlreadyRunning {
		t.Errorf("result = %+v", res)
	}
	if len(f.srv.Requests()) != 0 {
		t.Error("the second worker called the model")
	}
}

// A worker killed after its review landed, before it recorded so: the
// next worker finds the merge in git and marks the entry done without
// calling the model again.
func TestRecoverLandedReview(t *testing.T) {
	f := newFixture(t, createReply("pnpm-workflows"), fakemodel.Reply{Content: "done"})
	e := f.enqueue("s-1")
	// Run the attempt fully, then put the entry back to running as a
	// kill between the merge and the record would leave it.
	f.run()
	got, _ := f.store.Get(e.ID)
	if got.State != queue.Done {
		t.Fatalf("entry = %+v", got)
	}
	if _, err := f.store.Update(e.ID, func(x *queue.Entry) error { x.State, x.Outcome = queue.Running, nil; return nil }); err != nil {
		t.Fatal(err)
	}
	calls := len(f.srv.Requests())
	res := f.run()
	got, _ = f.store.Get(e.ID)
	if got.State != queue.Done || got.Outcome == nil || !got.Outcome.Recovered || res.Recovered != 1 {
		t.Fatalf("entry = %+v, result %+v", got, res)
	}
	if len(f.srv.Requests()) != calls {
		t.Error("the model was called again")
	}
}

// A worker killed in the middle of a review: the open proposal is set
// aside (rejected, kept) and the review runs again under a new id.
func TestRecoverInterruptedReview(t *testing.T) {
	f := newFixture(t, createReply("pnpm-workflows"), fakemodel.Reply{Content: "done"})
	e := f.enqueue("s-1")
	claimed, err := f.store.Claim(e.ID, "r-20261201-dead00")
	if err != nil {
		t.Fatal(err)
	}
	// The partial write of the killed attempt.
	content := "---\nname: half-done\ndescription: Use when a worker was killed.\n---\n# half\n"
	testlib.Write(t, f.lib, skillrepo.Writer{Branch: "proposals/" + claimed.ReviewID, From: "main",
		Provenance: skillrepo.Provenance{Origin: skillrepo.OriginBackgroundReview, ReviewID: claimed.ReviewID}},
		skillrepo.Op{Action: "create", Name: "half-done", Content: &content})
	f.run()
	got, _ := f.store.Get(e.ID)
	if got.State != queue.Done || !got.Outcome.Merged || got.ReviewID == claimed.ReviewID || len(got.ReviewIDs) != 2 {
		t.Fatalf("entry = %+v\nlog:\n%s", got, f.log.String())
	}
	f.git("rev-parse", "--verify", "refs/skillrepo/rejected/"+claimed.ReviewID)
	if _, err := os.Stat(filepath.Join(f.lib.Root, "half-done")); err == nil {
		t.Error("the interrupted attempt's write reached main")
	}
	f.clean()
}

func TestSettingsFrom(t *testing.T) {
	cfg, err := config.Parse([]byte("review:\n  defer_quiet: 2s\n  defer_max: 90\n  max_attempts: 7\n  final_review: false\n"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := SettingsFrom(cfg.Review, func(k string) string {
		switch k {
		case "SKILLREPO_WORKER_IDLE":
			return "5s"
		case "SKILLREPO_MAX_ATTEMPTS":
			return "many" // not a number: the config's stays
		}
		return ""
	})
	want := DefaultSettings()
	want.DeferQuiet, want.DeferMax, want.MaxAttempts, want.Idle, want.FinalReview = 2*time.Second, 90*time.Second, 7, 5*time.Second, false
	want.Review = cfg.Review
	if s != want {
		t.Errorf("settings = %+v, want %+v", s, want)
	}
	if d := DefaultSettings(); d.DeferQuiet != 15*time.Second || d.DeferMax != 30*time.Minute || d.MaxAttempts != 5 || d.RetryBackoff != 30*time.Second || d.Idle != time.Minute || !d.FinalReview {
		t.Errorf("defaults = %+v", d)
	}
	if got := fmt.Sprint(want.Backoff(1), want.Backoff(3)); got != "30s 2m0s" {
		t.Errorf("backoff = %s", got)
	}
}

// A detached child started "once" holds its lock for its life: a second
// start while it runs starts nothing; after it exits, one starts again.
func TestStartDetachedOnce(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	// The lock's folder does not exist yet, as at a new library's first
	// session start.
	lock, logPath := filepath.Join(dir, "hooks", "once.lock"), filepath.Join(dir, "log")
	marker := filepath.Join(dir, "done")
	args := []string{"-c", "sleep 1; echo ran >> " + marker}
	started, err := StartDetachedOnce(lock, "/bin/sh", args, dir, logPath, nil)
	if err != nil || !started {
		t.Fatalf("first start: %v %v", started, err)
	}
	if started, err := StartDetachedOnce(lock, "/bin/sh", args, dir, logPath, nil); err != nil || started {
		t.Fatalf("second start while the first runs: %v %v", started, err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child never ran")
		}
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		started, err := StartDetachedOnce(lock, "/bin/sh", []string{"-c", "true"}, dir, logPath, nil)
		if err != nil {
			t.Fatal(err)
		}
		if started {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the lock outlived the child")
		}
	}
}

// A library in a folder of a project's repository keeps its state under
// .git/skillrepo/<prefix hash>/; the worker still reads the library's own
// config (here max_attempts 2, where the default is 5).
func TestFolderLibraryConfig(t *testing.T) {
	env := testlib.Env(t.TempDir())
	getenv := func(k string) string { return env[k] }
	project := filepath.Join(t.TempDir(), "project")
	testlib.Git(t, "", env, "init", "-q", "-b", "main", project)
	if err := os.WriteFile(filepath.Join(project, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	testlib.Git(t, project, env, "add", "main.go")
	testlib.Git(t, project, env, "commit", "-q", "-m", "project")
	dir := filepath.Join(project, ".claude", "skills")
	if _, err := skillrepo.Init(context.Background(), dir, skillrepo.InitOptions{OpenOptions: skillrepo.OpenOptions{Getenv: getenv}, Example: true}); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, filepath.FromSlash(config.Path))
	old, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	two := strings.Replace(string(old), "review:\n", "review:\n  max_attempts: 2\n", 1)
	if two == string(old) {
		t.Fatalf("no review: section in\n%s", old)
	}
	if err := os.WriteFile(cfg, []byte(two), 0o644); err != nil {
		t.Fatal(err)
	}
	testlib.Git(t, project, env, "commit", "-q", "-am", "two attempts")
	lib, err := skillrepo.Open(dir, skillrepo.OpenOptions{Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	state := lib.State().Queue()
	lib.Close()
	if filepath.Dir(filepath.Dir(state)) == dir {
		t.Fatalf("state %s is not kept apart from a root library's", state)
	}

	srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{{Status: 503, Error: "overloaded", Times: -1}}}, nil)
	defer srv.Close()
	env["OPENAI_BASE_URL"], env["OPENAI_API_KEY"], env["SKILLREPO_MODEL"] = srv.BaseURL(), "k", "m"
	env["SKILLREPO_DEFER_QUIET"], env["SKILLREPO_RETRY_BACKOFF"] = "0s", "10ms"
	tr := filepath.Join(t.TempDir(), "chat.json")
	if err := os.WriteFile(tr, []byte(chat), 0o644); err != nil {
		t.Fatal(err)
	}
	store := queue.New(state)
	e, _, err := store.Enqueue(queue.Entry{Kind: queue.KindReview, Agent: "test", SessionID: "s-1", Transcript: tr, Format: "openai", Due: queue.Due{Skills: true}})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if _, err := Run(context.Background(), Options{Dir: dir, Getenv: getenv, Once: true, Log: &log, Poll: 20 * time.Millisecond}); err != nil {
		t.Fatalf("worker: %v\n%s", err, log.String())
	}
	got, err := store.Get(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != queue.Failed || got.Attempts != 2 {
		t.Fatalf("entry = %+v (the library's max_attempts is 2)\nlog:\n%s", got, log.String())
	}
	if st := testlib.Git(t, project, env, "status", "--porcelain"); st != "" {
		t.Errorf("project not clean:\n%s", st)
	}
}

// A review queued by a session runs with that session's model and
// endpoint, whichever session's environment the worker itself has: its
// commits name the session's model.
func TestReviewRunsAsItsSession(t *testing.T) {
	f := newFixture(t)
	other := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{createReply("pnpm-workflows"), {Content: "Created."}}}, nil)
	defer other.Close()
	e, _, err := f.store.Enqueue(queue.Entry{Kind: queue.KindReview, Agent: "test", SessionID: "s-b", Transcript: f.transcr, Format: "openai",
		Due: queue.Due{Skills: true}, Env: map[string]string{"SKILLREPO_MODEL": "model-of-session-b", "OPENAI_BASE_URL": other.BaseURL()}})
	if err != nil {
		t.Fatal(err)
	}
	f.run() // the worker's own environment names test-model and f.srv
	got, _ := f.store.Get(e.ID)
	if got.State != queue.Done || got.Outcome == nil || !got.Outcome.Merged || got.Outcome.Model != "model-of-session-b" || got.Backend != "endpoint" {
		t.Fatalf("entry %+v outcome %+v\n%s", got, got.Outcome, f.log.String())
	}
	if m := f.git("log", "-1", "--format=%(trailers:key=Model,valueonly)", "main^2"); strings.TrimSpace(m) != "model-of-session-b" {
		t.Errorf("the commit names model %q, want the session's", m)
	}
	if len(f.srv.Requests()) != 0 || len(other.Requests()) != 2 {
		t.Errorf("requests: worker's endpoint %d, session's %d; want 0 and 2", len(f.srv.Requests()), len(other.Requests()))
	}
}

// review.enabled is read again when a worker takes an entry: one queued
// before reviews were switched off is skipped, calling no model.
func TestReviewsSwitchedOffAfterQueueing(t *testing.T) {
	f := newFixture(t, createReply("x"))
	e := f.enqueue("s-1")
	cfgPath := filepath.Join(f.lib.Root, config.Path)
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, []byte(strings.Replace(string(data), "review:\n", "review:\n  enabled: false\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	f.git("commit", "-qam", "reviews off")
	f.run()
	got, _ := f.store.Get(e.ID)
	if got.State != queue.Done || got.Outcome == nil || got.Outcome.Status != "skipped" || !strings.Contains(got.Outcome.Summary, "review.enabled is false") {
		t.Fatalf("entry %+v outcome %+v\n%s", got, got.Outcome, f.log.String())
	}
	if len(f.srv.Requests()) != 0 {
		t.Errorf("%d model requests for a review switched off", len(f.srv.Requests()))
	}
}

// review.defer: a review waits for the agent to be quiet only when it
// would compete with it for a model on this machine (auto), always, or
// never.
func TestDefer(t *testing.T) {
	w := &worker{opts: Options{Getenv: func(string) string { return "" }}, root: t.TempDir()}
	for _, tt := range []struct {
		name    string
		cfg     config.Review
		e       queue.Entry
		deferIt bool
	}{
		{"auto, loopback endpoint", config.Review{Model: "m", BaseURL: "http://127.0.0.1:8080/v1"}, queue.Entry{Agent: "claude-code"}, true},
		{"auto, localhost endpoint", config.Review{Model: "m", BaseURL: "http://localhost:11434/v1"}, queue.Entry{Agent: "codex"}, true},
		{"auto, remote endpoint", config.Review{Model: "m", BaseURL: "https://models.example.com/v1"}, queue.Entry{Agent: "codex"}, false},
		{"always, remote endpoint", config.Review{Model: "m", BaseURL: "https://models.example.com/v1", Defer: "always"}, queue.Entry{}, true},
		{"never, loopback endpoint", config.Review{Model: "m", BaseURL: "http://127.0.0.1:8080/v1", Defer: "never"}, queue.Entry{}, false},
		{"auto, the agent's program on its provider", config.Review{}, queue.Entry{Agent: "claude-code", Program: "/bin/sh"}, false},
		{"auto, the agent's program on a loopback gateway", config.Review{}, queue.Entry{Agent: "claude-code", Program: "/bin/sh", Env: map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:4000"}}, true},
	} {
		if tt.cfg.Defer == "" {
			tt.cfg.Defer = "auto"
		}
		p, err := w.plan(tt.cfg, tt.e, "", "", "")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := p.deferred(tt.cfg.Defer); got != tt.deferIt {
			t.Errorf("%s: deferred %v, want %v", tt.name, got, tt.deferIt)
		}
	}
}

// A scheduled curator run with curator.consolidate: true runs the model
// pass too, through the backend a review of its session would use.
func TestScheduledCuratorConsolidates(t *testing.T) {
	f := newFixture(t, fakemodel.Reply{Content: "Nothing to merge.\n\n```yaml\nconsolidated: []\npruned: []\n```"})
	for _, name := range []string{"go-test-flags", "go-test-races"} {
		content := "---\nname: " + name + "\ndescription: Use when running go test with " + name + ".\n---\n# " + name + "\n\n1. Run go test.\n"
		// Two overlapping skills, written by a review: what the curator
		// consolidates (the seed allows the overlap the guard refuses).
		testlib.Write(t, f.lib, skillrepo.Writer{Provenance: skillrepo.Provenance{Origin: skillrepo.OriginBackgroundReview, ReviewID: "r-seed"}, AllowOverlap: true},
			skillrepo.Op{Action: "create", Name: name, Content: &content})
	}
	// Used today: the ageing phase keeps them for the model pass.
	used := time.Now().UTC().Format(time.RFC3339)
	if err := f.lib.Usage().Update(func(recs map[string]*usage.Record) error {
		for _, name := range []string{"go-test-flags", "go-test-races"} {
			if recs[name] == nil {
				recs[name] = &usage.Record{State: usage.StateActive}
			}
			recs[name].LastUsedAt, recs[name].UseCount = &used, 3
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(f.lib.Root, config.Path)
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, []byte(strings.Replace(string(data), "curator:\n", "curator:\n  consolidate: true\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	f.git("commit", "-qam", "consolidate on schedule")
	if _, err := curator.NewStore(f.lib.State().Curator()).Seed(time.Now().Add(-30 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	e, _, err := f.store.Enqueue(queue.Entry{Kind: queue.KindCurator, Agent: "codex", Due: queue.Due{Reason: "curator due at session start"}})
	if err != nil {
		t.Fatal(err)
	}
	f.run()
	got, _ := f.store.Get(e.ID)
	if got.State != queue.Done || got.Outcome == nil || got.Outcome.Status != "ran" {
		t.Fatalf("entry %+v outcome %+v\n%s", got, got.Outcome, f.log.String())
	}
	reqs := f.srv.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "You are tidying an agent's skills library") || !strings.Contains(string(reqs[0].Body), "skill_move_file") {
		t.Errorf("the model pass was not asked (%d requests)\n%s", len(reqs), f.log.String())
	}
	if !strings.Contains(f.log.String(), "consolidation through the endpoint backend, model test-model") {
		t.Errorf("log:\n%s", f.log.String())
	}
}

// A running worker checks the curator's schedule itself (at its start,
// then hourly, as the reference's gateway does), so a curator run comes
// due without a session starting; a library whose schedule is not due,
// or was never seeded, queues none.
func TestWorkerChecksCuratorSchedule(t *testing.T) {
	for _, c := range []struct {
		name    string
		lastRun time.Duration // ago; 0: never seeded
		queued  int
	}{{"due", 30 * 24 * time.Hour, 1}, {"not due", time.Hour, 0}, {"never seeded", 0, 0}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			if c.lastRun > 0 {
				if _, err := curator.NewStore(f.lib.State().Curator()).Seed(time.Now().Add(-c.lastRun)); err != nil {
					t.Fatal(err)
				}
			}
			f.run()
			entries, err := f.store.List()
			if err != nil {
				t.Fatal(err)
			}
			var ran int
			for _, e := range entries {
				if e.Kind == queue.KindCurator && e.State == queue.Done && e.Outcome != nil && e.Outcome.Status == "ran" {
					ran++
				}
			}
			if ran != c.queued || (c.queued > 0) != strings.Contains(f.log.String(), "queued curator run: due (checked while the worker runs)") {
				t.Errorf("%d curator runs, want %d\n%s", ran, c.queued, f.log.String())
			}
		})
	}
}
