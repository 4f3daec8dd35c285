//go:build unix

package overlap

import (
	"syscall"
	"time"
)

// cpuTime is the process's user + system time: the machine the numbers
// are taken on is shared, and wall time there measures the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
