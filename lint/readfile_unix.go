//go:build linux || darwin || freebsd || netbsd || openbsd

package lint

import "syscall"

// readDirFile reads the regular file at path: open, stat, read, close. ok
// is false on any error or when path is not a regular file; data is nil
// when the file is larger than limit (limit < 0: no limit).
func readDirFile(path string, limit int64) (data []byte, ok bool) {
	fd, err := openRetry(path)
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, false
	}
	if limit >= 0 && st.Size > limit {
		return nil, true
	}
	// One byte more than the size, so a file that did not grow ends in
	// the first read's short count and the second read's zero.
	buf := make([]byte, 0, int(st.Size)+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n < 0 {
			return nil, false
		}
		if n == 0 {
			return buf, true
		}
		buf = buf[:len(buf)+n]
		if limit >= 0 && int64(len(buf)) > limit {
			return nil, true
		}
	}
}

// openRetry opens path for reading, again when a signal interrupts it.
func openRetry(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
