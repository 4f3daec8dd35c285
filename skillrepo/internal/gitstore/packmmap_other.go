//go:build !unix

package gitstore

import (
	"errors"
	"os"
)

// mmapFile is not used on this platform: packs are read with ReadAt.
func mmapFile(*os.File) ([]byte, error) { return nil, errors.New("no mmap") }

func unmapFile([]byte) {}
