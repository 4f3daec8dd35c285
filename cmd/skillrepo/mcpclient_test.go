package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// mcpClient talks to `skillrepo mcp` as a client does, for testscripts:
// it starts the server with the arguments given, sends each line of FILE
// (newline-delimited JSON-RPC), and after each request (a line with an
// id) waits for its response. The responses, one compact JSON object a
// line, are the command's stdout; the server's stderr its stderr.
//
//	mcpclient FILE [mcp arguments...]
func mcpClient(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: mcpclient FILE [mcp arguments...]")
	}
	bin, err := exec.LookPath("skillrepo")
	ts.Check(err)
	cmd := exec.Command(bin, append([]string{"mcp", "--poll", "0"}, args[1:]...)...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = append(gitEnv(ts), "NO_COLOR=1", "SKILLREPO_LIBRARY=")
	stdin, err := cmd.StdinPipe()
	ts.Check(err)
	stdout, err := cmd.StdoutPipe()
	ts.Check(err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ts.Check(cmd.Start())
	lines := readLines(stdout)
	var out strings.Builder
	for _, req := range strings.Split(strings.TrimSpace(ts.ReadFile(args[0])), "\n") {
		if strings.TrimSpace(req) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(req), &m); err != nil {
			ts.Fatalf("mcpclient: not JSON: %s", req)
		}
		_, err := io.WriteString(stdin, req+"\n")
		ts.Check(err)
		id, ok := m["id"]
		if !ok {
			continue // a notification
		}
		timeout := time.After(30 * time.Second)
	wait:
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					ts.Fatalf("mcpclient: the server closed stdout waiting for %v; stderr:\n%s", id, stderr.String())
				}
				var r map[string]any
				if json.Unmarshal([]byte(line), &r) == nil && fmt.Sprint(r["id"]) == fmt.Sprint(id) {
					out.WriteString(line + "\n")
					break wait
				}
			case <-timeout:
				ts.Fatalf("mcpclient: no response to %v; stderr:\n%s", id, stderr.String())
			}
		}
	}
	stdin.Close()
	err = cmd.Wait()
	ts.Check(ts.Exec("sh", "-c", `printf '%s' "$1"; printf '%s' "$2" >&2`, "sh", out.String(), stderr.String()))
	if err != nil {
		ts.Fatalf("mcpclient: the server ended with %v", err)
	}
}

// mcpAnnotations checks a tool's annotations in the tools/list response
// of mcpclient's output: destructive (not read-only, destructiveHint true)
// or readonly (readOnlyHint true).
//
//	mcpannotations FILE TOOL {destructive|readonly}
func mcpAnnotations(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: mcpannotations FILE TOOL {destructive|readonly}")
	}
	for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		var r struct {
			Result struct {
				Tools []struct {
					Name        string `json:"name"`
					Annotations struct {
						ReadOnly    bool  `json:"readOnlyHint"`
						Destructive *bool `json:"destructiveHint"`
					} `json:"annotations"`
				} `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(line), &r) != nil {
			continue
		}
		for _, t := range r.Result.Tools {
			if t.Name != args[1] {
				continue
			}
			a := t.Annotations
			// The MCP spec's default for destructiveHint is true.
			destructive := !a.ReadOnly && (a.Destructive == nil || *a.Destructive)
			if (args[2] == "destructive") != destructive || (args[2] == "readonly") != a.ReadOnly {
				ts.Fatalf("%s: readOnlyHint %v, destructiveHint %v; want %s", t.Name, a.ReadOnly, a.Destructive, args[2])
			}
			return
		}
	}
	ts.Fatalf("no tool %s in a tools/list response", args[1])
}
