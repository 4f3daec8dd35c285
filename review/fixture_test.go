package review

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/usage"
)

// fixture is a real library (the example one) with two curator-managed
// skills added by an earlier review — deploy-checklist, and pinned-guide
// which is pinned — and a real git to check what a review wrote:
//
//	import (example: ci-debugging, release-notes, … all user-owned)
//	  └─ skill: batch (background-review, r-seed): deploy-checklist, pinned-guide
type fixture struct {
	t    *testing.T
	dir  string
	env  map[string]string
	lib  *skillrepo.Library
	base string // main after the seed
}

const deployChecklist = "---\nname: deploy-checklist\ndescription: Use when deploying an app to staging or production.\n---\n# Deploy checklist\n\n1. Run the tests.\n2. Deploy with the project's package manager.\n"

const pinnedGuide = "---\nname: pinned-guide\ndescription: Use when writing guides the user has pinned.\n---\n# Pinned guide\n\nKeep this text as it is.\n"

func newFixture(t *testing.T) *fixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the git binary is needed to check what a review writes")
	}
	lib, env := testlib.ExampleLibrary(t)
	dir := lib.Root
	ctx := context.Background()
	a, b := deployChecklist, pinnedGuide
	_, err := testlib.Policy(t, lib, skillrepo.Writer{Provenance: skillrepo.Provenance{Origin: skillrepo.OriginBackgroundReview, ReviewID: "r-seed"}}).Apply(ctx,
		[]skillrepo.Op{{Action: "create", Name: "deploy-checklist", Content: &a}, {Action: "create", Name: "pinned-guide", Content: &b}}, false)
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	err = lib.Usage().Update(func(recs map[string]*usage.Record) error {
		if recs["pinned-guide"] == nil {
			recs["pinned-guide"] = &usage.Record{State: usage.StateActive}
		}
		recs["pinned-guide"].Pinned = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, dir: dir, env: env, lib: lib}
	f.base = f.git("rev-parse", "main")
	return f
}

// git runs the real git binary in the library.
func (f *fixture) git(args ...string) string {
	f.t.Helper()
	out, err := f.gitErr(args...)
	if err != nil {
		f.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

func (f *fixture) gitErr(args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = f.dir
	for k, v := range f.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, "PATH="+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// show is a file on a revision, or "" when it is not there.
func (f *fixture) show(rev, path string) string {
	out, err := f.gitErr("show", rev+":"+path)
	if err != nil {
		return ""
	}
	return out
}

func (f *fixture) branchExists(name string) bool {
	_, err := f.gitErr("rev-parse", "--verify", "--quiet", "refs/heads/"+name)
	return err == nil
}

// clean checks git fsck --strict and a clean git status: whatever the
// review did, the library is consistent.
func (f *fixture) clean() {
	f.t.Helper()
	if st := f.git("status", "--porcelain"); st != "" {
		f.t.Errorf("git status not clean:\n%s", st)
	}
	if out, err := f.gitErr("fsck", "--strict", "--no-progress"); err != nil {
		f.t.Errorf("git fsck: %v\n%s", err, out)
	}
}

// unchanged checks main did not move and no proposal branch was made.
func (f *fixture) unchanged(sum *Summary) {
	f.t.Helper()
	if got := f.git("rev-parse", "main"); got != f.base {
		f.t.Errorf("main moved to %s", got)
	}
	if f.branchExists("proposals/r-test") {
		f.t.Errorf("a proposal branch was made")
	}
	if len(sum.Applied)+len(sum.Staged) != 0 || len(sum.Commits) != 0 {
		f.t.Errorf("summary shows changes: %+v %+v", sum.Applied, sum.Staged)
	}
	f.clean()
}

func (f *fixture) trailer(rev, key string) string {
	return f.git("log", "-1", "--format=%(trailers:key="+key+",valueonly,separator=%x2C)", rev)
}

type reviewRun struct {
	sum      *Summary
	srv      *fakemodel.Server
	requests []chatRequest
}

type chatRequest struct {
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// text is a message's content as a string (parts joined).
func (r chatRequest) text(i int) string {
	var s string
	if json.Unmarshal(r.Messages[i].Content, &s) == nil {
		return s
	}
	var parts []struct{ Text string }
	json.Unmarshal(r.Messages[i].Content, &parts)
	var b []string
	for _, p := range parts {
		b = append(b, p.Text)
	}
	return strings.Join(b, "\n")
}

// toolResult is the result the loop sent back for the n-th tool message
// of request r.
func (r chatRequest) lastTool() map[string]any {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "tool" {
			var m map[string]any
			json.Unmarshal([]byte(r.text(i)), &m)
			return m
		}
	}
	return nil
}

// review runs a review of tr against a fake model serving script.
func (f *fixture) review(script string, tr *Transcript, mod func(*Options)) reviewRun {
	f.t.Helper()
	s, err := fakemodel.ParseScript([]byte(script))
	if err != nil {
		f.t.Fatal(err)
	}
	srv := fakemodel.Start(s, nil)
	f.t.Cleanup(srv.Close)
	cfg := openai.DefaultConfig("test-key")
	cfg.BaseURL = srv.BaseURL()
	opts := Options{
		Transcript:     tr,
		Skills:         true,
		SessionID:      "sess-1",
		ReviewID:       "r-test",
		Model:          "test-model",
		Client:         openai.NewClientWithConfig(cfg),
		RetryBackoff:   time.Millisecond,
		RequestTimeout: 5 * time.Second,
	}
	if mod != nil {
		mod(&opts)
	}
	sum, err := Run(context.Background(), Open(f.lib), opts)
	if err != nil {
		f.t.Fatalf("Run: %v", err)
	}
	run := reviewRun{sum: sum, srv: srv}
	for _, r := range srv.Requests() {
		var cr chatRequest
		if err := json.Unmarshal(r.Body, &cr); err != nil {
			f.t.Fatalf("request body: %v", err)
		}
		run.requests = append(run.requests, cr)
	}
	return run
}

func (f *fixture) transcript(name string) *Transcript {
	f.t.Helper()
	tr, err := readFile(f.t, filepath.Join("testdata/openai", name), FormatAuto)
	if err != nil {
		f.t.Fatal(err)
	}
	return tr
}

func (run reviewRun) refusedWith(t *testing.T, kind, words string) {
	t.Helper()
	for _, r := range run.sum.Refused {
		if r.Kind == kind && strings.Contains(r.Reason, words) {
			return
		}
	}
	t.Errorf("no %s refusal containing %q in %+v", kind, words, run.sum.Refused)
}

// js quotes s as a JSON string, for scripts.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
