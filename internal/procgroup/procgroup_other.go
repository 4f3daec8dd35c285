//go:build !unix

package procgroup

import "os/exec"

func set(cmd *exec.Cmd) {}
