// Package procgroup runs a program in a process group of its own, so
// that cancelling it ends everything it started: an agent's program with
// its MCP server and shell, git with its git-remote-http helper (which
// otherwise keeps the pipes open and the caller waiting past its time
// limit).
package procgroup

import (
	"os/exec"
	"time"
)

// Set puts cmd in a process group of its own and makes cancelling its
// context kill the whole group; Wait then gives the group's pipes at most
// a second to close.
func Set(cmd *exec.Cmd) {
	set(cmd)
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = time.Second
	}
}

// SetReaped is Set, and on Linux the group also ends when this process
// dies, even by SIGKILL (a killed remote sync left its git fetch and
// git-remote-http running: issue 40 item 12). Call it before Start, with
// cmd.Path resolved.
func SetReaped(cmd *exec.Cmd) {
	reaped(cmd)
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = time.Second
	}
}
