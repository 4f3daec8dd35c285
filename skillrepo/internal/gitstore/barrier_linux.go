package gitstore

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// canBarrier reports whether a write may replace its per-file fsyncs with
// two syncfs(2) barriers: on Linux, when the work tree and .git are on one
// file system (syncfs flushes one file system), unless
// SKILLREPO_SYNC=file asks for per-file fsyncs.
func (l *Repo) canBarrier() bool {
	if l.Getenv("SKILLREPO_SYNC") == "file" {
		return false
	}
	a, err1 := os.Stat(l.Root)
	b, err2 := os.Stat(l.GitDir)
	if err1 != nil || err2 != nil {
		return false
	}
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && sa.Dev == sb.Dev
}

// barrier makes everything written so far durable: syncfs flushes the
// data and metadata of every file of the file system .git lives on.
func (l *Repo) barrier() error {
	f, err := os.Open(l.GitDir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
