package gitstore

import (
	"syscall"
	"time"
)

// refStamp is what a stat says of a loose ref file: [RefCache] reuses a
// value read from the file while it is unchanged.
type refStamp struct {
	dev, ino, size uint64
	mtime, ctime   int64 // nanoseconds
}

// statRef stats p with one system call (not following a symlink, as the
// listing's walk does not); ok false when it cannot.
func statRef(p string) (refStamp, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(p, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return refStamp{}, false
		}
		break
	}
	return refStamp{dev: uint64(st.Dev), ino: st.Ino, size: uint64(st.Size), mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}

// settled reports whether the file's last change is at least settle
// before now.
func (s refStamp) settled(now time.Time, settle time.Duration) bool {
	limit := now.Add(-settle).UnixNano()
	return s.mtime < limit && s.ctime < limit
}
