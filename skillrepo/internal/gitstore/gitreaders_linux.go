package gitstore

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// stillRunning is pids without the processes that have ended.
func stillRunning(pids []int) []int {
	live := pids[:0]
	for _, pid := range pids {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
			live = append(live, pid)
		}
	}
	return live
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
