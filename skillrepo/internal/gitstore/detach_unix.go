//go:build unix

package gitstore

import (
	"os/exec"
	"syscall"
)

// detach puts cmd in a session of its own, so a Ctrl-C meant for the
// command that started it does not stop it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
