package worker

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// detach starts the worker with no console and in a process group of its
// own: closing the agent's console window or its Ctrl-C does not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS,
		HideWindow:    true,
	}
}

// holdOnce cannot hand a lock to a child on Windows (no inherited extra
// descriptors): the worker's own lock keeps a second one from working.
func holdOnce(cmd *exec.Cmd, lockPath string) (func(), bool, error) { return func() {}, true, nil }
