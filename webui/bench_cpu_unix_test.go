//go:build unix

package webui

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system time so far: the page
// benchmarks report it per request beside the wall time, which on a
// shared machine mostly measures the wait for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
