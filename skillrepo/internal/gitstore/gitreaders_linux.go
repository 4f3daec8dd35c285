package gitstore

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// waitForGitReaders returns once no git process that may have read HEAD
// or the branch before the write moved it is still running in this work
// tree, or after gitReaderWait. The write holds index.lock meanwhile, so
// such a process fails when it tries to take it (git says index.lock
// exists) rather than acting on what it read: git switch reads HEAD and
// the branch it goes to before it locks the index, and would check out
// the branch's old tip or keep our new files as its own additions. A git
// process started after the move reads the new value. Which processes
// are git's in this work tree is read from /proc (their executable and
// current folder); one that started more than gitReaderAge before is in
// no such window (git reads HEAD as it starts).
func (r *Repo) waitForGitReaders() {
	pids := r.gitProcessesHere()
	deadline := time.Now().Add(gitReaderWait)
	for len(pids) > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		live := pids[:0]
		for _, pid := range pids {
			if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
				live = append(live, pid)
			}
		}
		pids = live
	}
}

const (
	// gitReaderWait bounds how long a write waits for git readers.
	gitReaderWait = 200 * time.Millisecond
	// gitReaderAge: older git processes are not waited for.
	gitReaderAge = 2 * time.Second
)

// gitProcessesHere lists the git processes (other than this one) whose
// current folder is inside the work tree and that started less than
// gitReaderAge ago.
func (r *Repo) gitProcessesHere() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	root := r.Root
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	uptime := procUptimeTicks()
	self := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		dir := "/proc/" + e.Name()
		exe, err := os.Readlink(dir + "/exe")
		if err != nil {
			continue
		}
		if base := filepath.Base(exe); base != "git" && !strings.HasPrefix(base, "git-") {
			continue
		}
		cwd, err := os.Readlink(dir + "/cwd")
		if err != nil || (cwd != root && !strings.HasPrefix(cwd, root+"/")) {
			continue
		}
		if start, ok := procStartTicks(dir); ok && uptime > 0 && uptime-start > int64(gitReaderAge/(10*time.Millisecond)) {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// procUptimeTicks is the time since boot in clock ticks (1/100 s, as
// /proc/<pid>/stat counts a process's start), 0 when unknown.
func procUptimeTicks() int64 {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	f, _, _ := strings.Cut(string(b), " ")
	s, err := strconv.ParseFloat(f, 64)
	if err != nil {
		return 0
	}
	return int64(s * 100)
}

// procStartTicks reads when a process started (field 22 of
// /proc/<pid>/stat), in clock ticks since boot.
func procStartTicks(dir string) (int64, bool) {
	b, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(string(b[i+1:]))
	if len(fields) < 20 {
		return 0, false
	}
	v, err := strconv.ParseInt(fields[19], 10, 64)
	return v, err == nil
}
