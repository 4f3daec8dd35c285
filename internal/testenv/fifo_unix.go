//go:build unix

package testenv

import "syscall"

// Mkfifo makes a named pipe at path: the non-regular file the bounded
// reads must refuse without blocking. Tests skip where it errors.
func Mkfifo(path string) error {
	return syscall.Mkfifo(path, 0o644)
}
