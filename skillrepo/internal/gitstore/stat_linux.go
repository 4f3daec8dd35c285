package gitstore

import (
	"os"
	"syscall"
)

// fillPlatformStat copies the stat fields git keeps in the index (ctime,
// device, inode, owner), so git's own stat check sees the file unchanged.
func fillPlatformStat(e *indexEntry, fi os.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.CtimeS, e.CtimeN = uint32(st.Ctim.Sec), uint32(st.Ctim.Nsec)
		e.Dev, e.Ino = uint32(st.Dev), uint32(st.Ino)
		e.UID, e.GID = st.Uid, st.Gid
	}
}
