//go:build !unix

package gitstore

import "os"

// readRefFile reads a loose ref (refread_unix.go says why it is its own
// function there).
func readRefFile(p string) ([]byte, error) { return os.ReadFile(p) }
