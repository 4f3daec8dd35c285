//go:build !unix && !windows

package gitstore

import "os/exec"

func detach(*exec.Cmd) {}
