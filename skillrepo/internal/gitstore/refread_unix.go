//go:build unix

package gitstore

import (
	"io/fs"
	"os"
	"syscall"
)

// readRefFile reads a loose ref (41 bytes, or "ref: " and a name) with
// three system calls. os.ReadFile makes ten for a small file (it tries to
// register it with the poller: fcntl four times, epoll_ctl; then fstat and
// a read to see the end), and listing the proposals of a library reads a
// thousand refs (bench/README.md, "skillrepo ui"). Errors are os.ReadFile's:
// a *fs.PathError around the errno, so fs.ErrNotExist and "is a directory"
// read the same. A file longer than the buffer is left to os.ReadFile.
func readRefFile(p string) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer syscall.Close(fd)
	var buf [256]byte
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: p, Err: err}
		}
		if m == 0 {
			return append([]byte(nil), buf[:n]...), nil
		}
		n += m
	}
	return os.ReadFile(p)
}
