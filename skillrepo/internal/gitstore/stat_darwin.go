package gitstore

import (
	"os"
	"syscall"
)

// fillPlatformStat copies the stat fields git keeps in the index (ctime,
// device, inode, owner) from darwin's stat layout, as git does on macOS,
// so git's own stat check sees the file unchanged (docs/git-format.md §13).
func fillPlatformStat(e *indexEntry, fi os.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.CtimeS, e.CtimeN = uint32(st.Ctimespec.Sec), uint32(st.Ctimespec.Nsec)
		e.Dev, e.Ino = uint32(st.Dev), uint32(st.Ino)
		e.UID, e.GID = st.Uid, st.Gid
	}
}

// fileID is a file's device and inode.
func fileID(fi os.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(uint32(st.Dev)), st.Ino
	}
	return 0, 0
}

// flockHolder is unknown on darwin: it has no /proc/locks, and fcntl's
// F_GETLK sees POSIX record locks, not flock(2)'s.
func flockHolder(path string) int { return 0 }
