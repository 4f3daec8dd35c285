package gitstore

import (
	"os"
	"strconv"
	"strings"
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

// fileID is a file's device and inode.
func fileID(fi os.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), st.Ino
	}
	return 0, 0
}

// flockHolder is the process holding an flock on path, from /proc/locks
// (0 when unknown).
func flockHolder(path string) int {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	_, ino := fileID(fi)
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		return 0
	}
	// "1: FLOCK  ADVISORY  WRITE 12345 08:01:1234 0 EOF"
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || f[1] != "FLOCK" {
			continue
		}
		id := strings.Split(f[5], ":")
		if len(id) != 3 || id[2] != strconv.FormatUint(ino, 10) {
			continue
		}
		if pid, err := strconv.Atoi(f[4]); err == nil {
			return pid
		}
	}
	return 0
}
