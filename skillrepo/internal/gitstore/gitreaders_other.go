//go:build !linux && !darwin

package gitstore

import (
	"context"
	"time"
)

// waitForGitReaders holds index.lock a moment after the ref moved (see
// the Linux version): without /proc, the processes in their window
// cannot be listed.
func (r *Repo) waitForGitReaders() { time.Sleep(10 * time.Millisecond) }

// waitForGitCommits does nothing without /proc (see the Linux version).
func (r *Repo) waitForGitCommits(context.Context) error { return nil }

// waitForGitSwitches does nothing without /proc (see the Linux version).
func (r *Repo) waitForGitSwitches() error { return nil }
