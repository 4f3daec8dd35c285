//go:build !linux

package skillrepo

// canBarrier is false where syncfs(2) does not exist: writes fsync each
// file and folder instead.
func (l *Library) canBarrier() bool { return false }

func (l *Library) barrier() error { return nil }
