package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMCPStdio drives `skillrepo mcp` as a client does: newline-delimited
// JSON-RPC on its stdin and stdout. initialize, tools/list, then create →
// view → patch through tools/call; the commits are read back with git. A
// malformed request, an id the SDK cannot hold, a line of 50 MB and an
// unknown tool get errors and the server stays up; closing stdin ends it
// cleanly.
func TestMCPStdio(t *testing.T) {
	bin, err := exec.LookPath("skillrepo")
	if err != nil {
		t.Skip("skillrepo test binary not on PATH")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	home := t.TempDir()
	env := append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com", "NO_COLOR=1", "SKILLREPO_LIBRARY=")
	lib := filepath.Join(t.TempDir(), "lib")
	if out, err := exec.Command(bin, "init", "--example", lib).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", lib}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}

	cmd := exec.Command(bin, "mcp", "--library", lib)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := readLines(stdout)
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatalf("write %s: %v", s, err)
		}
	}
	// recv reads messages until the response with id (notifications are
	// skipped).
	recv := func(id int) map[string]any {
		t.Helper()
		timeout := time.After(20 * time.Second)
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("the server closed stdout waiting for %d; stderr:\n%s", id, stderr.String())
				}
				var m map[string]any
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					t.Fatalf("not JSON on stdout: %q", line)
				}
				if got, ok := m["id"].(float64); ok && int(got) == id {
					return m
				}
				if m["id"] == nil && m["error"] != nil && id == -1 {
					return m // an error without an id
				}
			case <-timeout:
				t.Fatalf("no response %d; stderr:\n%s", id, stderr.String())
			}
		}
	}
	call := func(id int, name string, args any) map[string]any {
		t.Helper()
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
		send(string(req))
		return recv(id)
	}
	resultText := func(m map[string]any) (string, bool) {
		t.Helper()
		res, ok := m["result"].(map[string]any)
		if !ok {
			t.Fatalf("no result: %v", m)
		}
		content := res["content"].([]any)
		isErr, _ := res["isError"].(bool)
		return content[0].(map[string]any)["text"].(string), isErr
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stdio-test","version":"0.9"}}}`)
	init := recv(1)
	if init["result"].(map[string]any)["serverInfo"].(map[string]any)["name"] != "skillrepo" {
		t.Fatalf("initialize: %v", init)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	tools := recv(2)["result"].(map[string]any)["tools"].([]any)
	if len(tools) != 6 {
		t.Errorf("%d tools, want 6", len(tools))
	}

	content := "---\nname: stdio-skill\ndescription: Use when testing the stdio server.\n---\n# Stdio\n\nFirst step.\n"
	text, isErr := resultText(call(3, "skill_manage", map[string]any{"operations": []any{map[string]any{"action": "create", "name": "stdio-skill", "content": content}}}))
	if isErr {
		t.Fatalf("create: %s", text)
	}
	text, isErr = resultText(call(4, "skill_view", map[string]any{"name": "stdio-skill"}))
	if isErr || !strings.Contains(text, "First step.") {
		t.Fatalf("view: %s", text)
	}
	text, isErr = resultText(call(5, "skill_manage", map[string]any{"operations": []any{map[string]any{"action": "patch", "name": "stdio-skill", "old_string": "First step.", "new_string": "First step, then the second."}}}))
	if isErr {
		t.Fatalf("patch: %s", text)
	}

	// Malformed requests: JSON-RPC errors, and the server stays up.
	send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":]}`)
	if m := recv(-1); m["error"].(map[string]any)["code"].(float64) != -32700 {
		t.Errorf("malformed JSON: %v", m)
	}
	send(`{"id":61,"method":"tools/list"}`)
	if m := recv(61); m["error"].(map[string]any)["code"].(float64) != -32600 {
		t.Errorf("no jsonrpc field: %v", m)
	}
	// An unknown tool: an error response.
	send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"terminal","arguments":{}}}`)
	if m := recv(7); m["error"] == nil {
		t.Errorf("unknown tool: %v", m)
	}
	// A refusal is a tool result with isError.
	text, isErr = resultText(call(8, "skill_manage", map[string]any{"operations": []any{map[string]any{"action": "create", "name": "stdio-skill", "content": content}}}))
	if !isErr || !strings.Contains(text, "already exists") {
		t.Errorf("duplicate create: %v %s", isErr, text)
	}
	send(`{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	recv(9)
	// Ids the SDK cannot hold (an object, an array, true, 1e400) are
	// answered as invalid requests, and the server reads on.
	for _, id := range []string{`{"a":1}`, `[1]`, `true`, `1e400`} {
		send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if m := recv(-1); m["error"].(map[string]any)["code"].(float64) != -32600 {
			t.Errorf("id %s: %v", id, m)
		}
	}
	send(`{"jsonrpc":"2.0","id":10,"method":"ping"}`)
	recv(10)
	// Lines of 20 and 50 MB: answered (with their id), not held, and the
	// server reads on.
	for i, size := range []int{20 << 20, 50 << 20} {
		id := 11 + i
		big := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"` + strings.Repeat("x", size) + `"}}}`
		send(big)
		if m := recv(id); m["error"].(map[string]any)["code"].(float64) != -32700 {
			t.Errorf("a %d MB line: %v", size>>20, m)
		}
	}
	send(`{"jsonrpc":"2.0","id":13,"method":"ping"}`)
	recv(13)

	// Closing stdin ends the server cleanly.
	stdin.Close()
	done := make(chan error, 1)
	go func() {
		for range lines {
		}
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the server exited with %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not end after stdin closed")
	}

	log := git("log", "-2", "--format=%(trailers:key=Skill-Action,valueonly,separator=%x2C)|%(trailers:key=Skill-Origin,valueonly,separator=%x2C)|%(trailers:key=Agent,valueonly,separator=%x2C)")
	if log != "patch|foreground|stdio-test/0.9\ncreate|foreground|stdio-test/0.9" {
		t.Errorf("git log:\n%s", log)
	}
	if !strings.Contains(git("show", "main:stdio-skill/SKILL.md"), "then the second") {
		t.Error("the patch is not in main")
	}
	if st := git("status", "--porcelain"); st != "" {
		t.Errorf("git status: %s", st)
	}
	git("fsck", "--strict", "--no-progress")
}

// readLines sends each line the MCP server writes (up to 16 MB a line)
// and closes the channel at its end.
func readLines(r io.Reader) <-chan string {
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return lines
}
