//go:build !linux

package gitstore

import "time"

// refStamp is empty where the stat layout differs: [RefCache] keeps
// nothing there and every listing reads the files.
type refStamp struct{}

func statRef(p string) (refStamp, bool) { return refStamp{}, false }

func (s refStamp) settled(now time.Time, settle time.Duration) bool { return false }
