//go:build !unix && !windows

package worker

import "os/exec"

func detach(cmd *exec.Cmd) {}

func holdOnce(cmd *exec.Cmd, lockPath string) (func(), bool, error) { return func() {}, true, nil }
