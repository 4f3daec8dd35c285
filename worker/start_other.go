//go:build !unix

package worker

import "os/exec"

func detach(cmd *exec.Cmd) {}
