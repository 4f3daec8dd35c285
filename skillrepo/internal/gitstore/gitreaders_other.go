//go:build !linux

package gitstore

import "time"

// waitForGitReaders holds index.lock a moment after the ref moved (see
// the Linux version): without /proc, the processes in their window
// cannot be listed.
func (r *Repo) waitForGitReaders() { time.Sleep(10 * time.Millisecond) }
