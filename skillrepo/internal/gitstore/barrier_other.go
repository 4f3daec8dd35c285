//go:build !linux

package gitstore

// canBarrier is false where syncfs(2) does not exist: writes fsync each
// file and folder instead.
func (l *Repo) canBarrier() bool { return false }

func (l *Repo) barrier() error { return nil }
