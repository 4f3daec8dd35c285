//go:build unix

package worker

import (
	"os"
	"os/exec"
	"syscall"
)

// detach starts the worker in a session of its own: no controlling
// terminal, and a signal to the agent's process group (Ctrl-C, the
// agent's exit) does not reach it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// holdOnce takes an exclusive, non-blocking flock on lockPath for a child
// about to start: the child inherits the descriptor (and with it the
// lock) and holds it until it exits. ok is false when another child
// holds it.
func holdOnce(cmd *exec.Cmd, lockPath string) (release func(), ok bool, err error) {
	f, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if err == syscall.EWOULDBLOCK {
			return nil, false, nil
		}
		return nil, false, err
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles, f)
	// The parent's copy closes after the start; the lock lives on in the
	// child's copy of the same open file.
	return func() { f.Close() }, true, nil
}
