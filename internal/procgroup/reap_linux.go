package procgroup

import (
	"os/exec"
	"syscall"
)

// reapScript runs the program ($0, its arguments after) in the
// background of a shell that waits for it, with its standard input (fd
// 3, as an asynchronous command's would be /dev/null), and kills the
// whole group when told to (SIGTERM, the kernel's signal when this
// process dies).
const reapScript = `exec 3<&0; trap 'kill -9 0' TERM; "$0" "$@" <&3 3<&- & wait $!`

// reaped makes cmd run under a shell that the kernel signals when this
// process dies (PR_SET_PDEATHSIG), which then kills cmd's group: a
// SIGKILL of this process ends git's fetch and its git-remote-http too.
func reaped(cmd *exec.Cmd) {
	cmd.Args = append([]string{"sh", "-c", reapScript, cmd.Path}, cmd.Args[1:]...)
	cmd.Path = "/bin/sh"
	set(cmd)
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
}
