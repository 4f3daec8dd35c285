//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package procinfo

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"time"
)

// psTimeout bounds each ps run: a hook must not wait on it.
const psTimeout = 2 * time.Second

// ancestors asks ps, there being no /proc, for each process in turn.
func ancestors(n int) []Process {
	var out []Process
	pid := os.Getppid()
	for i := 0; i < n && pid > 1; i++ {
		p, parent, ok := readPS(pid)
		if !ok {
			break
		}
		p.PID = pid
		out = append(out, p)
		pid = parent
	}
	return out
}

func readPS(pid int) (Process, int, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), psTimeout)
	defer cancel()
	var buf bounded
	cmd := exec.CommandContext(ctx, "ps", "-o", "ppid=", "-o", "tty=", "-o", "args=", "-p", strconv.Itoa(pid))
	cmd.Stdout = &buf
	if cmd.Run() != nil {
		return Process{}, 0, false
	}
	line, _, _ := bytes.Cut(buf.b, []byte("\n"))
	return parsePS(string(line))
}

// bounded keeps the first maxArgs bytes written to it.
type bounded struct{ b []byte }

func (w *bounded) Write(p []byte) (int, error) {
	if room := maxArgs - len(w.b); room > 0 {
		w.b = append(w.b, p[:min(len(p), room)]...)
	}
	return len(p), nil
}
