package agentcli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/skillrepo/skillrepo/internal/boundedread"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/internal/procgroup"
)

// Agents whose programs can hold a model conversation for us.
const (
	ClaudeCode = string(agent.ClaudeCode)
	Codex      = string(agent.Codex)
)

// ProgramName is the executable's name of an agent ("" for one we cannot
// drive).
func ProgramName(agent string) string {
	switch agent {
	case ClaudeCode:
		return "claude"
	case Codex:
		return "codex"
	case Gemini:
		return "gemini"
	case OpenCode:
		return OpenCode // its program is named as the agent is
	case Copilot:
		return Copilot // its program is named as the agent is
	}
	return ""
}

// EnvInReview is set in the program's environment (and so in its hooks'
// and its MCP servers'): our hooks do nothing under it, so a review never
// queues a review of itself. It is package queue's name; repeated here so
// this package needs no queue.
const EnvInReview = "SKILLREPO_IN_REVIEW"

// Program is an agent's own command-line program run headless as a model
// backend: it holds the conversation with the session's model, provider
// and credentials, and calls our tools through `skillrepo mcp`.
type Program struct {
	// Agent is ClaudeCode or Codex.
	Agent string
	// Path is the executable.
	Path string
	// Env is the environment it runs with: the session's. EnvInReview is
	// added.
	Env []string
	// Dir is where it runs: the session's folder (Claude Code finds a
	// session to resume by the folder it ran in).
	Dir string
	// ReadProject: Dir is the session's project, which the pass may read
	// with the program's own read-only file tools (Claude Code's Read,
	// Grep and Glob, secrets denied: claudeSettings). Codex's and Gemini
	// CLI's stay off — Codex reads files only through its shell, whose
	// read-only sandbox still reads the whole disk, and Gemini CLI's
	// tools would need the run in the project, under the project's own
	// settings — so they read the project through our read_file and
	// search_files (scope project), with our guards, over MCP.
	ReadProject bool
	// Model is passed on when set; else the program uses its own default.
	Model string
	// Provider is Codex's model_provider, passed on when set.
	Provider string
	// Self is the skillrepo executable the program starts as its MCP
	// server (`skillrepo mcp --relay`).
	Self string
	// TempDir holds a run's files (the MCP configuration, the socket its
	// server relays to); "" is the system's, whose short path a socket
	// needs.
	TempDir string
	// Timeout bounds one run (0: 20 minutes).
	Timeout time.Duration
}

// Check reports a program that cannot run.
func (p Program) Check() error {
	if ProgramName(p.Agent) == "" {
		return fmt.Errorf("agent %q has no program skillrepo can run as a model backend (Claude Code, Codex, Gemini CLI, OpenCode and Copilot CLI do)", p.Agent)
	}
	if p.Path == "" {
		return fmt.Errorf("no %s program found: install it on the PATH the agent's hooks see, or set review.backend: endpoint with an OpenAI-compatible endpoint", ProgramName(p.Agent))
	}
	return nil
}

// Find looks for an agent's program: in path (a PATH value) first, then
// the process's own PATH. "" when there is none.
func Find(agent, path string) string {
	name := ProgramName(agent)
	if name == "" {
		return ""
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	return ""
}

// maxOutput bounds what is kept of a run's standard output and error: the
// JSON result of Claude Code, the event lines of Codex.
const maxOutput = 16 << 20

// output is what a run printed.
type output struct {
	stdout, stderr []byte
	exit           int // -1: did not exit on its own
}

// run starts the program with args, feeding it stdin, and waits.
func (p Program) run(ctx context.Context, args []string, stdin string) (output, error) {
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.Path, args...)
	cmd.Dir = p.Dir
	cmd.Env = append(append([]string{}, p.Env...), EnvInReview+"=1")
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr capped
	stdout.limit, stderr.limit = maxOutput, 64<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// The program's own children (its MCP server, a shell) go with it.
	cmd.WaitDelay = 5 * time.Second
	procgroup.Set(cmd)
	err := cmd.Run()
	out := output{stdout: stdout.buf.Bytes(), stderr: stderr.buf.Bytes(), exit: -1}
	if cmd.ProcessState != nil {
		out.exit = cmd.ProcessState.ExitCode()
	}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return out, fmt.Errorf("%s did not finish within %s", filepath.Base(p.Path), timeout)
	case ctx.Err() != nil:
		return out, ctx.Err()
	case err != nil && !errors.As(err, &exitErr):
		return out, fmt.Errorf("run %s: %w", filepath.Base(p.Path), err)
	}
	return out, nil
}

// capped keeps the first limit bytes written, and counts the rest.
type capped struct {
	buf     bytes.Buffer
	limit   int
	dropped int
}

func (c *capped) Write(b []byte) (int, error) {
	if room := c.limit - c.buf.Len(); room > 0 {
		c.buf.Write(b[:min(room, len(b))])
	}
	if over := c.buf.Len() + len(b) - c.limit; over > 0 {
		c.dropped += min(over, len(b))
	}
	return len(b), nil
}

var _ io.Writer = (*capped)(nil)

// tail is the last line or so of a program's standard error, for a
// message.
func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	lines := strings.Split(s, "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	s = strings.Join(lines, " | ")
	if len(s) > 400 {
		s = "…" + s[len(s)-400:]
	}
	return s
}

// Running finds the program of agent among this process's ancestors (a
// hook runs as the agent's child, maybe through a shell): the very
// program, and version, the session runs in. "" when it is not found or
// the system cannot tell (only Linux's /proc is read).
func Running(agent string) string {
	name := ProgramName(agent)
	if name == "" {
		return ""
	}
	pid := os.Getppid()
	for depth := 0; depth < 6 && pid > 1; depth++ {
		exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		if err != nil {
			return ""
		}
		base := filepath.Base(exe)
		if base == name || strings.HasPrefix(base, name+".") || strings.HasPrefix(base, name+"-") {
			return exe
		}
		pid = parentOf(pid)
	}
	return ""
}

// parentOf reads a process's parent from /proc (0 when it cannot).
func parentOf(pid int) int {
	data, err := boundedread.ReadFile(fmt.Sprintf("/proc/%d/stat", pid), 64<<10) // a line of numbers and the command name
	if err != nil {
		return 0
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	var state string
	var ppid int
	if _, err := fmt.Sscan(s[i+1:], &state, &ppid); err != nil {
		return 0
	}
	return ppid
}

// envGet is k's value in env, the last one winning as in exec.
func envGet(env []string, k string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], k+"="); ok {
			return v
		}
	}
	return ""
}

// geminiDir is Gemini CLI's folder in an environment: GEMINI_CLI_HOME's
// .gemini, else HOME's.
func geminiDir(env []string) string {
	home := cmp.Or(envGet(env, "GEMINI_CLI_HOME"), envGet(env, "HOME"))
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".gemini")
}
