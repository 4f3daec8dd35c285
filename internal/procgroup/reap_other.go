//go:build !linux

package procgroup

import "os/exec"

// reaped is set where the kernel has no parent-death signal: a
// cancel still ends the group, a kill of this process does not.
func reaped(cmd *exec.Cmd) { set(cmd) }
