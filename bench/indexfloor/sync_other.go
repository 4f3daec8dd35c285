//go:build !linux

package main

import "os"

// durable fsyncs the file (no syncfs here), as SKILLREPO_SYNC=file does.
func durable(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
