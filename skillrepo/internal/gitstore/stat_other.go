//go:build !linux

package gitstore

import "os"

// fillPlatformStat leaves ctime, device, inode and owner zero where the
// stat layout differs: git then re-reads the file once to confirm it is
// unchanged, and the index stays correct.
func fillPlatformStat(e *indexEntry, fi os.FileInfo) {}
