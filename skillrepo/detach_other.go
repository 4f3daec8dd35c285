//go:build !unix

package skillrepo

import "os/exec"

func detach(*exec.Cmd) {}
