//go:build unix

package gitstore

import (
	"os"
	"syscall"
)

// mmapFile maps a pack read-only, so reading an object is a slice, not a
// system call. The mapping lives until unmapFile.
func mmapFile(f *os.File) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() == 0 || int64(int(fi.Size())) != fi.Size() {
		return nil, syscall.EINVAL
	}
	return syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapFile(b []byte) { _ = syscall.Munmap(b) }
