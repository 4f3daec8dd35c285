package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// The process list on macOS: sysctl's kern.proc.all (pid, parent, start
// time) and each candidate's kern.procargs2 (exec path, arguments,
// environment), decoded by procargs.go. Which folder a git process runs
// in is read from its PWD and -C options, as there is no /proc/<pid>/cwd
// (docs/git-format.md says what that leaves out).

// stillRunning is pids without the processes that have ended (signal 0
// checks a process exists; EPERM is one of another user's, alive).
func stillRunning(pids []int) []int {
	live := pids[:0]
	for _, pid := range pids {
		if err := unix.Kill(pid, 0); err == nil || errors.Is(err, unix.EPERM) {
			live = append(live, pid)
		}
	}
	return live
}

// gitProcesses lists the git processes, other than this one and those it
// runs under, that run in the work tree, whose arguments match (nil: any)
// and, when maxAge is not zero, that started less than maxAge ago.
func (r *Repo) gitProcesses(match func(args []string) bool, maxAge time.Duration) []int {
	procs, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil
	}
	r.procOnce.Do(func() {
		r.procRoot = r.Root
		if real, err := filepath.EvalSymlinks(r.Root); err == nil {
			r.procRoot = real
		}
		parent := make(map[int]int, len(procs))
		for i := range procs {
			parent[int(procs[i].Proc.P_pid)] = int(procs[i].Eproc.Ppid)
		}
		r.procMine = ancestorsOf(os.Getpid(), parent)
	})
	root, mine := r.procRoot, r.procMine
	now := time.Now()
	var out []int
	for i := range procs {
		kp := &procs[i]
		pid := int(kp.Proc.P_pid)
		if pid <= 0 || mine[pid] || !gitComm(kp.Proc.P_comm[:]) {
			continue
		}
		if maxAge > 0 {
			start := time.Unix(int64(kp.Proc.P_starttime.Sec), int64(kp.Proc.P_starttime.Usec)*1000)
			if now.Sub(start) > maxAge {
				continue
			}
		}
		b, err := unix.SysctlRaw("kern.procargs2", pid)
		if err != nil {
			continue
		}
		p, ok := parseProcArgs2(b)
		if !ok || !p.isGit() || !inTree(p.dir(), root) {
			continue
		}
		if match != nil && !match(p.args) {
			continue
		}
		out = append(out, pid)
	}
	return out
}
