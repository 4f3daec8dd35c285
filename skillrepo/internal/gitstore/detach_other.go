//go:build !unix

package gitstore

import "os/exec"

func detach(*exec.Cmd) {}
