package gitstore

import (
	"bytes"
	"context"
	"fmt"
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

// waitForGitCommits waits, up to the lock timeout, while a git commit runs
// in this work tree (not one this process runs under, as a hook). A plain
// git commit holds no lock while its pre-commit hook runs, then moves
// HEAD only if it still holds the commit it read as it started: a write
// that moved the branch meanwhile would make that commit fail ("cannot
// lock ref 'HEAD'"). Error: *LockedError naming the commit's process.
func (r *Repo) waitForGitCommits(ctx context.Context) error {
	deadline := time.Now().Add(r.lockTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		pids := r.gitProcesses(func(args []string) bool { return gitSubcommand(args) == "commit" }, 0)
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return &LockedError{Path: r.indexPath(), PID: pids[0], Holder: fmt.Sprintf("a git commit (pid %d) running in %s", pids[0], r.Root),
				hint: "wait for the git commit to finish (its pre-commit hook may be running), then retry"}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// waitForGitSwitches waits, up to the lock timeout, for the git commands
// running in this work tree that write the index and then move HEAD
// (settledHead says why). The caller holds index.lock, so the processes
// listed once are all there are to wait for. Error: *LockedError naming
// one that outlived the wait.
func (r *Repo) waitForGitSwitches() error {
	pids := r.gitProcesses(func(args []string) bool { return movesHead[gitSubcommand(args)] }, 0)
	deadline := time.Now().Add(r.lockTimeout)
	for wait := time.Millisecond; len(pids) > 0; wait = min(2*wait, 20*time.Millisecond) {
		if time.Now().After(deadline) {
			return &LockedError{Path: r.indexPath(), PID: pids[0], Holder: fmt.Sprintf("a git command (pid %d) between writing the index and moving HEAD in %s", pids[0], r.Root),
				hint: "wait for the git command to finish, then retry"}
		}
		time.Sleep(wait)
		live := pids[:0]
		for _, pid := range pids {
			if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
				live = append(live, pid)
			}
		}
		pids = live
	}
	return nil
}

// movesHead names the git commands that write the index and then move
// HEAD or the branch it names (a commit is waited for apart:
// waitForGitCommits).
var movesHead = map[string]bool{
	"switch": true, "checkout": true, "reset": true, "merge": true, "rebase": true, "pull": true,
	"cherry-pick": true, "revert": true, "am": true, "stash": true, "bisect": true,
}

// gitSubcommand is the git command an argument list runs ("commit" for
// git -c a=b commit -m x), "" when none.
func gitSubcommand(args []string) string {
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-c" || a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// gitProcessesHere lists the git processes (other than this one) whose
// current folder is inside the work tree and that started less than
// gitReaderAge ago.
func (r *Repo) gitProcessesHere() []int {
	return r.gitProcesses(nil, gitReaderAge)
}

// gitProcesses lists the git processes, other than this one and those it
// runs under, whose current folder is inside the work tree, whose
// arguments match (nil: any) and, when maxAge is not zero, that started
// less than maxAge ago.
func (r *Repo) gitProcesses(match func(args []string) bool, maxAge time.Duration) []int {
	// The names only: os.ReadDir would also sort them and make an entry
	// for each, and a write scans up to three times (bench/README.md).
	f, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return nil
	}
	// Where the work tree really is and which processes this one runs
	// under do not change while it runs: worked out on the first scan.
	r.procOnce.Do(func() {
		r.procRoot = r.Root
		if real, err := filepath.EvalSymlinks(r.Root); err == nil {
			r.procRoot = real
		}
		r.procMine = ancestors()
	})
	root, mine := r.procRoot, r.procMine
	var uptime int64
	if maxAge > 0 {
		uptime = procUptimeTicks()
	}
	var out []int
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || mine[pid] {
			continue
		}
		dir := "/proc/" + name
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
		if maxAge > 0 {
			if start, ok := procStartTicks(dir); ok && uptime > 0 && uptime-start > int64(maxAge/(10*time.Millisecond)) {
				continue
			}
		}
		if match != nil {
			b, err := os.ReadFile(dir + "/cmdline")
			if err != nil || !match(strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")) {
				continue
			}
		}
		out = append(out, pid)
	}
	return out
}

// ancestors is this process and the processes it runs under.
func ancestors() map[int]bool {
	out := map[int]bool{}
	for pid := os.Getpid(); pid > 1 && !out[pid]; {
		out[pid] = true
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			break
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			break
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			break
		}
		if pid, err = strconv.Atoi(f[1]); err != nil {
			break
		}
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
