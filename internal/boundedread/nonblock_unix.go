//go:build unix

package boundedread

import (
	"os"
	"syscall"
)

// nonBlock makes opening a FIFO return at once instead of waiting for a
// writer.
const nonBlock = syscall.O_NONBLOCK

// noFollow makes opening a symlink fail instead of opening its target.
const noFollow = syscall.O_NOFOLLOW

// clearNonBlock puts a regular file back in blocking mode (it never
// blocks anyway; this keeps reads plain).
func clearNonBlock(f *os.File) error {
	return syscall.SetNonblock(int(f.Fd()), false)
}
