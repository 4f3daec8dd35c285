//go:build !unix

package agentcli

import "os/exec"

func setProcessGroup(cmd *exec.Cmd) {}
