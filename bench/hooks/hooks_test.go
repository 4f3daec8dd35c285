// Package hooksbench measures the agent hooks' wall time on a 1,000-skill
// library, in process and as the process an agent starts, and the
// worker's overhead per queued review against a model that answers at
// once.
//
//	go test -run '^$' -bench . -benchtime 20x ./bench/hooks
package hooksbench

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/agents/claudecode"
	"github.com/skillrepo/skillrepo/agentsession"
	"github.com/skillrepo/skillrepo/bench/genlib"
	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/internal/testenv"
	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
	"github.com/skillrepo/skillrepo/worker"
)

var (
	setupOnce sync.Once
	setupErr  error
	root      string // a temp folder holding the library, the binary, transcripts
	library   string
	binary    string
	env       map[string]string
)

func getenv(k string) string { return env[k] }

// setup builds a 1,000-skill library (10 categories, 2 support files
// each) with one import commit, the skillrepo binary, and the real Claude
// Code transcripts of review/testdata.
func setup(b *testing.B) {
	b.Helper()
	setupOnce.Do(func() {
		root, setupErr = os.MkdirTemp("", "hooksbench")
		if setupErr != nil {
			return
		}
		env = testenv.Env(filepath.Join(root, "home"))
		env["PATH"] = os.Getenv("PATH")
		// The transcripts are in the temp folder and review/testdata, not
		// the agent's own: hooks read transcripts only from the folders
		// named (a transcript elsewhere is ignored, and a Stop that ignores
		// it times nothing).
		var testdata string
		if testdata, setupErr = filepath.Abs("../../review/testdata/claude-code"); setupErr != nil {
			return
		}
		env[agentsession.EnvTranscriptDirs] = root + string(filepath.ListSeparator) + testdata
		library = filepath.Join(root, "lib")
		o := genlib.Defaults()
		o.Skills, o.Categories, o.Support = 1000, 10, 2
		if _, setupErr = genlib.Write(library, o); setupErr != nil {
			return
		}
		if _, setupErr = skillrepo.Init(context.Background(), library, skillrepo.InitOptions{OpenOptions: skillrepo.OpenOptions{Getenv: getenv}}); setupErr != nil {
			return
		}
		// Every skill has a usage record, as in a library in use: a
		// counted use rewrites the whole sidecar.
		if setupErr = seedUsage(); setupErr != nil {
			return
		}
		binary = filepath.Join(root, "skillrepo")
		cmd := exec.Command("go", "build", "-o", binary, "github.com/skillrepo/skillrepo/cmd/skillrepo")
		if out, err := cmd.CombinedOutput(); err != nil {
			setupErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		// The long transcript is kept compressed in the repository.
		gz, err := os.Open("../../review/testdata/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl.gz")
		if err != nil {
			setupErr = err
			return
		}
		defer gz.Close()
		zr, err := gzip.NewReader(gz)
		if err != nil {
			setupErr = err
			return
		}
		out, err := os.Create(filepath.Join(root, "long.jsonl"))
		if err != nil {
			setupErr = err
			return
		}
		_, setupErr = io.Copy(out, zr)
		out.Close()
	})
	if setupErr != nil {
		b.Fatal(setupErr)
	}
}

func seedUsage() error {
	lib, err := skillrepo.Open(library, skillrepo.OpenOptions{Getenv: getenv})
	if err != nil {
		return err
	}
	defer lib.Close()
	at := usage.FormatTime(time.Unix(testenv.Epoch, 0))
	return lib.Usage().Update(func(recs map[string]*usage.Record) error {
		for i := 0; i < 1000; i++ {
			recs[genlib.SkillName(i)] = &usage.Record{CreatedAt: at, LastUsedAt: at, State: usage.StateActive, UseCount: 3}
		}
		return nil
	})
}

func transcriptPath(b *testing.B, name string) string {
	switch name {
	case "long":
		return filepath.Join(root, "long.jsonl")
	}
	p, err := filepath.Abs("../../review/testdata/claude-code/" + name + ".jsonl")
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// cases are the hooks measured, with the transcript their event names.
// Stop/cold reads the whole transcript (a session's first Stop, or one
// after a rewrite); Stop/warm reads what the file gained since the last
// Stop (here nothing), the steady state. SessionStart comes last: the
// syncs it starts detached would otherwise compete with the others.
var cases = []struct{ event, transcript string }{
	{"PostToolUse", "subagent"}, {"Stop/cold", "subagent"}, {"Stop/cold", "long"}, {"Stop/warm", "long"},
	{"SessionEnd", "subagent"}, {"SessionStart", "subagent"},
}

// eventOf strips the variant: "Stop/cold" is the Stop event.
func eventOf(name string) string { e, _, _ := strings.Cut(name, "/"); return e }

// coldStop removes the session's transcript mark, so the next Stop reads
// the whole file.
func coldStop(name string) {
	if strings.HasSuffix(name, "/cold") {
		os.RemoveAll(filepath.Join(library, ".git", "skillrepo", "hooks", "marks"))
	}
}

// inputs are the events each hook is measured with; %d is the iteration.
func input(event string, i int, transcript string) map[string]any {
	in := map[string]any{"session_id": "bench-session", "hook_event_name": event, "transcript_path": transcript, "cwd": root}
	switch event {
	case "SessionStart":
		in["source"] = "startup"
	case "PostToolUse":
		in["tool_name"], in["tool_use_id"] = "Skill", fmt.Sprintf("toolu_%d_%d", time.Now().UnixNano(), i)
		in["tool_input"] = map[string]any{"skill": "plugin:" + genlib.SkillName(i%1000)}
	case "Stop":
		in["last_assistant_message"] = "Done."
	case "SessionEnd":
		in["reason"] = "other"
	}
	return in
}

// BenchmarkHookInProcess is the hooks' own work: agentsession.Run as
// the command calls it, without process start-up.
func BenchmarkHookInProcess(b *testing.B) {
	setup(b)
	for _, tc := range cases {
		b.Run(tc.event+"/"+tc.transcript, func(b *testing.B) {
			tr := transcriptPath(b, tc.transcript)
			event := eventOf(tc.event)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				coldStop(tc.event)
				b.StartTimer()
				data, _ := json.Marshal(input(event, i, tr))
				var out bytes.Buffer
				if _, err := agentsession.Run(context.Background(), agentsession.Options{Agent: claudecode.Agent{}, Event: event, Library: library,
					In: bytes.NewReader(data), Out: &out, Getenv: getenv, StartSync: startSync}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	drainQueue(b)
}

// startSync starts the session-start sync detached, as the command does.
func startSync(lib *skillrepo.Library) error {
	return worker.StartDetached(binary, []string{"-C", lib.Root, "sync"}, lib.Root, filepath.Join(root, "sync.log"), procEnv())
}

func procEnv() []string {
	var out []string
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	// A worker a hook starts finds no model, parks what it finds and
	// exits at once.
	return append(out, "SKILLREPO_WORKER_IDLE=0s", "SKILLREPO_DEFER_QUIET=0s")
}

// BenchmarkSync is the detached session-start sync on its own: the work
// tree scan of 1,000 skills (3,000 files) that finds nothing to record.
func BenchmarkSync(b *testing.B) {
	setup(b)
	for i := 0; i < b.N; i++ {
		// Syncs a SessionStart benchmark started may still hold the lock.
		lib, err := skillrepo.Open(library, skillrepo.OpenOptions{Getenv: getenv, LockTimeout: 5 * time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := lib.Sync(context.Background(), skillrepo.SyncOptions{}); err != nil {
			b.Fatal(err)
		}
		lib.Close()
	}
}

// BenchmarkHookProcess is the wall time an agent waits: the skillrepo
// binary started with the event on stdin, as the installed command runs
// it.
func BenchmarkHookProcess(b *testing.B) {
	setup(b)
	procEnv := procEnv()
	for _, tc := range cases {
		b.Run(tc.event+"/"+tc.transcript, func(b *testing.B) {
			tr := transcriptPath(b, tc.transcript)
			event := eventOf(tc.event)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				coldStop(tc.event)
				b.StartTimer()
				data, _ := json.Marshal(input(event, i, tr))
				cmd := exec.Command(binary, "hooks", "run", "claude-code", event, "--library", library)
				cmd.Env, cmd.Stdin = procEnv, bytes.NewReader(data)
				if out, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(out), "error") {
					b.Fatalf("%v\n%s", err, out)
				}
			}
		})
	}
	drainQueue(b)
}

// BenchmarkWorkerStart is what SessionEnd adds when it must start a
// worker: a detached process started and released (it finds nothing to
// do and exits).
func BenchmarkWorkerStart(b *testing.B) {
	setup(b)
	procEnv := procEnv()
	state := filepath.Join(library, ".git", "skillrepo")
	for i := 0; i < b.N; i++ {
		if err := worker.Start(binary, library, state, procEnv); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	for deadline := time.Now().Add(30 * time.Second); worker.Running(state) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
}

// drainQueue empties the queue, then waits for the workers hooks started
// to find nothing and exit. A detached worker takes its lock only once
// it runs, so "no worker" must hold for a while (quietFor), not for one
// look, or a worker still starting takes the queue from the benchmark.
func drainQueue(b *testing.B) {
	const quietFor = 500 * time.Millisecond
	state := filepath.Join(library, ".git", "skillrepo")
	store := queue.New(state)
	var idleSince time.Time
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		all, _ := store.List()
		for _, e := range all {
			store.Drop(e.ID, true)
		}
		switch {
		case worker.Running(state):
			idleSince = time.Time{}
		case idleSince.IsZero():
			idleSince = time.Now()
		case time.Since(idleSince) >= quietFor:
			return
		}
	}
	b.Fatal("a worker started by a hook is still running after 60 s")
}

const chat = `[{"role":"system","content":"You are a coding agent."},{"role":"user","content":"fix the flaky CI job"},{"role":"assistant","content":"Re-ran the failed job; it passed."}]`

// BenchmarkWorkerPerReview drains b.N queued one-call reviews (the model
// answers "Nothing to save." at once) through the worker; ReviewDirect is
// the same review called directly. The difference is the queue's and the
// worker's overhead per review.
func BenchmarkWorkerPerReview(b *testing.B) {
	setup(b)
	srv := fakemodel.Start(&fakemodel.Script{Replies: []fakemodel.Reply{{Content: "Nothing to save.", Times: -1}}}, nil)
	defer srv.Close()
	tr := filepath.Join(root, "chat.json")
	if err := os.WriteFile(tr, []byte(chat), 0o644); err != nil {
		b.Fatal(err)
	}
	wenv := map[string]string{"OPENAI_BASE_URL": srv.BaseURL(), "OPENAI_API_KEY": "k", "SKILLREPO_MODEL": "m", "SKILLREPO_DEFER_QUIET": "0s"}
	for k, v := range env {
		wenv[k] = v
	}
	drainQueue(b)
	b.Run("Worker", func(b *testing.B) {
		store := queue.New(filepath.Join(library, ".git", "skillrepo"))
		b.StopTimer()
		drainQueue(b)
		for i := 0; i < b.N; i++ {
			if _, _, err := store.Enqueue(queue.Entry{Kind: queue.KindReview, SessionID: fmt.Sprintf("w-%d-%d", time.Now().UnixNano(), i), Transcript: tr, Format: "openai", Due: queue.Due{Skills: true}}); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		res, err := worker.Run(context.Background(), worker.Options{Dir: library, Getenv: func(k string) string { return wenv[k] }, Once: true, Log: io.Discard})
		if err != nil || res.Done != b.N {
			b.Fatalf("%+v %v", res, err)
		}
	})
	b.Run("ReviewDirect", func(b *testing.B) {
		t, err := review.Read(strings.NewReader(chat), "chat.json", review.FormatOpenAI)
		if err != nil {
			b.Fatal(err)
		}
		cfg := openai.DefaultConfig("k")
		cfg.BaseURL = srv.BaseURL()
		client := openai.NewClientWithConfig(cfg)
		for i := 0; i < b.N; i++ {
			lib, err := skillrepo.Open(library, skillrepo.OpenOptions{Getenv: getenv})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := review.Run(context.Background(), review.Open(lib), review.Options{Transcript: t, Skills: true, Model: "m", Client: client}); err != nil {
				b.Fatal(err)
			}
			lib.Close()
		}
	})
	drainQueue(b)
}
