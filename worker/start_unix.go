//go:build unix

package worker

import (
	"os/exec"
	"syscall"
)

// detach starts the worker in a session of its own: no controlling
// terminal, and a signal to the agent's process group (Ctrl-C, the
// agent's exit) does not reach it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
