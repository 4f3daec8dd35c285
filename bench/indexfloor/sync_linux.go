package main

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// durable flushes the file system, as the write's second barrier does.
func durable(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return unix.Syncfs(int(d.Fd()))
}
