//go:build unix

package agentcli

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the program in a process group of its own, and
// makes cancelling kill the whole group: the program's MCP server and
// anything else it started end with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
