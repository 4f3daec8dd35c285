package hooks

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// git runs the git binary in a folder with a fixed environment (nil means
// the process's own, which inside a hook carries GIT_INDEX_FILE and
// GIT_DIR from the git that called it).
type git struct {
	dir string
	env []string
}

func (g git) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = g.dir
	if g.env != nil {
		cmd.Env = g.env
	}
	return cmd
}

// output runs git and returns its stdout; the error carries stderr.
func (g git) output(ctx context.Context, args ...string) ([]byte, error) {
	cmd := g.command(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return out, nil
}

// line runs git and returns its output's first line.
func (g git) line(ctx context.Context, args ...string) (string, error) {
	out, err := g.output(ctx, args...)
	if err != nil {
		return "", err
	}
	s, _, _ := strings.Cut(string(out), "\n")
	return s, nil
}
