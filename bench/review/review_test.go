// Package reviewbench measures the background review's own cost: the loop
// (replay, tool dispatch, guards, commits, the merge) around a model that
// answers instantly, and the size of what it sends.
//
//	go test -run '^$' -bench . -benchtime 20x ./bench/review
package reviewbench

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/skillrepo/skillrepo/internal/fakemodel"
	"github.com/skillrepo/skillrepo/internal/testlib"
	"github.com/skillrepo/skillrepo/review"
	"github.com/skillrepo/skillrepo/skillrepo"
)

func newLibrary(b *testing.B) *skillrepo.Library {
	lib, _ := testlib.ExampleLibrary(b)
	return lib
}

func transcript(b *testing.B, data string) *review.Transcript {
	b.Helper()
	tr, err := review.Read(strings.NewReader(data), "bench.json", review.FormatOpenAI)
	if err != nil {
		b.Fatal(err)
	}
	return tr
}

const chat = `[{"role":"system","content":"You are a coding agent."},{"role":"user","content":"fix the flaky CI job"},{"role":"assistant","content":"Re-ran the failed job; it passed."}]`

// readScript is nine tool calls that read (list, view, search, read) and
// a final answer: ten model calls.
func readScript() string {
	calls := []string{
		`{"name":"skills_list","arguments":{}}`,
		`{"name":"skill_view","arguments":{"name":"ci-debugging"}}`,
		`{"name":"search_files","arguments":{"pattern":"flaky"}}`,
		`{"name":"read_file","arguments":{"path":"ci-debugging/references/common-failures.md"}}`,
		`{"name":"skill_view","arguments":{"name":"ci-debugging","file_path":"scripts/rerun-failed.sh"}}`,
		`{"name":"skills_list","arguments":{"category":"writing"}}`,
		`{"name":"search_files","arguments":{"pattern":"*.md","target":"files"}}`,
		`{"name":"skill_view","arguments":{"name":"release-notes"}}`,
		`{"name":"read_file","arguments":{"path":"git-bisect-regressions/SKILL.md"}}`,
	}
	var replies []string
	for _, c := range calls {
		replies = append(replies, `{"tool_calls":[`+c+`]}`)
	}
	return "[" + strings.Join(replies, ",") + `,{"content":"Nothing to save."}]`
}

// writeScript is ten model calls of which three write: create, write_file
// and a patch after a view; the proposal is then merged.
func writeScript(name string) string {
	content, _ := json.Marshal("---\nname: " + name + "\ndescription: Use when benchmarking the review loop.\n---\n# Bench\n\n1. Step one.\n")
	return `[
	 {"tool_calls":[{"name":"skills_list","arguments":{}}]},
	 {"tool_calls":[{"name":"skill_view","arguments":{"name":"ci-debugging"}}]},
	 {"tool_calls":[{"name":"search_files","arguments":{"pattern":"flaky"}}]},
	 {"tool_calls":[{"name":"skill_manage","arguments":{"operations":[{"action":"create","name":"` + name + `","content":` + string(content) + `}]}}]},
	 {"tool_calls":[{"name":"skill_manage","arguments":{"operations":[{"action":"write_file","name":"` + name + `","file_path":"references/notes.md","file_content":"# Notes\n"}]}}]},
	 {"tool_calls":[{"name":"skill_view","arguments":{"name":"` + name + `"}}]},
	 {"tool_calls":[{"name":"skill_manage","arguments":{"operations":[{"action":"patch","name":"` + name + `","old_string":"Step one.","new_string":"Step one, then two."}]}}]},
	 {"tool_calls":[{"name":"skills_list","arguments":{}}]},
	 {"tool_calls":[{"name":"read_file","arguments":{"path":"` + name + `/references/notes.md"}}]},
	 {"content":"Created and patched."}
	]`
}

func run(b *testing.B, lib *skillrepo.Library, script string, tr *review.Transcript, id string, maxInput int) (*review.Summary, *fakemodel.Server) {
	s, err := fakemodel.ParseScript([]byte(script))
	if err != nil {
		b.Fatal(err)
	}
	srv := fakemodel.Start(s, nil)
	defer srv.Close()
	cfg := openai.DefaultConfig("k")
	cfg.BaseURL = srv.BaseURL()
	sum, err := review.Run(context.Background(), review.Open(lib), review.Options{
		Transcript: tr, Skills: true, Memory: true, Model: "bench", ReviewID: id,
		Client: openai.NewClientWithConfig(cfg), MaxInputTokens: maxInput,
	})
	if err != nil {
		b.Fatal(err)
	}
	if sum.Status != review.StatusCompleted || len(sum.Refused) != 0 {
		b.Fatalf("review %s: %s %s %+v", id, sum.Status, sum.Reason, sum.Refused)
	}
	return sum, srv
}

// BenchmarkRawCalls10 is the floor: ten chat completions through go-openai
// to the same instant server, no loop around them.
func BenchmarkRawCalls10(b *testing.B) {
	script := readScript()
	for i := 0; i < b.N; i++ {
		s, _ := fakemodel.ParseScript([]byte(script))
		srv := fakemodel.Start(s, nil)
		cfg := openai.DefaultConfig("k")
		cfg.BaseURL = srv.BaseURL()
		c := openai.NewClientWithConfig(cfg)
		for j := 0; j < 10; j++ {
			if _, err := c.CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
				Model: "bench", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "x"}},
			}); err != nil {
				b.Fatal(err)
			}
		}
		srv.Close()
	}
}

// BenchmarkReviewRead10Calls is a ten-call review whose tools only read.
func BenchmarkReviewRead10Calls(b *testing.B) {
	lib := newLibrary(b)
	tr := transcript(b, chat)
	script := readScript()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sum, _ := run(b, lib, script, tr, fmt.Sprintf("r-read-%d", i), 0)
		if sum.ModelCalls != 10 {
			b.Fatalf("%d calls", sum.ModelCalls)
		}
	}
}

// BenchmarkReviewWrite10Calls is a ten-call review with three commits on
// its proposal and the merge into main.
func BenchmarkReviewWrite10Calls(b *testing.B) {
	lib := newLibrary(b)
	tr := transcript(b, chat)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		name := fmt.Sprintf("bench-skill-%d", i)
		sum, _ := run(b, lib, writeScript(name), tr, fmt.Sprintf("r-write-%d", i), 0)
		if !sum.Merged || len(sum.Commits) != 3 {
			b.Fatalf("merged %v commits %d", sum.Merged, len(sum.Commits))
		}
	}
}

// long200 is a 200-message conversation: 49 rounds of question, tool call,
// a 2 KB tool result and answer, plus the system prompt and the final
// answer.
func long200() string {
	msgs := []map[string]any{{"role": "system", "content": "You are a coding agent. Follow the repository's conventions."}}
	for i := 1; len(msgs) < 198; i++ {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs,
			map[string]any{"role": "user", "content": fmt.Sprintf("Step %d: run the tests for package %d and tell me what failed.", i, i)},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "terminal", "arguments": `{"command":"go test ./..."}`}}}},
			map[string]any{"role": "tool", "tool_call_id": id, "content": strings.Repeat("--- FAIL: TestSomething (0.01s) expected 3, got 4\n", 40)},
			map[string]any{"role": "assistant", "content": fmt.Sprintf("Package %d: one failure, an off-by-one in the counter.", i)})
	}
	msgs = append(msgs[:199], map[string]any{"role": "assistant", "content": "All packages pass now."})
	data, _ := json.Marshal(msgs)
	return string(data)
}

// BenchmarkRequestBytes200 reports the first request's size for a
// 200-message transcript replayed whole and as a digest (docs/reference-behaviour.md §2.6).
func BenchmarkRequestBytes200(b *testing.B) {
	lib := newLibrary(b)
	tr := transcript(b, long200())
	if len(tr.Messages) != 200 {
		b.Fatalf("%d messages", len(tr.Messages))
	}
	for _, mode := range []struct {
		name     string
		maxInput int
	}{{"full", -1}, {"digest", 30_000}} {
		b.Run(mode.name, func(b *testing.B) {
			var bytes int
			for i := 0; i < b.N; i++ {
				sum, srv := run(b, lib, `[{"content":"Nothing to save."}]`, tr, fmt.Sprintf("r-%s-%d", mode.name, i), mode.maxInput)
				if sum.Digest != (mode.name == "digest") {
					b.Fatalf("digest = %v", sum.Digest)
				}
				bytes = len(srv.Requests()[0].Body)
			}
			b.ReportMetric(float64(bytes), "request-bytes")
		})
	}
}
