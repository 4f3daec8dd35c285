// Command skillrepo turns an agent's skills folder into a git repository
// and runs the agent's self-improvement loop on it.
package main

import (
	"os"
	"runtime/debug"
	"time"

	"github.com/skillrepo/skillrepo/cmd/skillrepo/internal/cmdutil"
)

func main() {
	deferGC(os.Getenv, gcGrace, gcGraceLimit)
	os.Exit(run(os.Args[1:], cmdutil.System(), os.Getenv))
}

// gcGrace is how long a command runs before the garbage collector starts,
// and gcGraceLimit the heap at which it starts earlier.
const (
	gcGrace      = 100 * time.Millisecond
	gcGraceLimit = 64 << 20
)

// deferGC turns the garbage collector off for the first grace of the
// process, or until the Go heap nears limit, whichever comes first. Most
// commands (a skill write, a view, a usage bump) end well within it,
// having allocated a few megabytes, and with the default settings would
// spend 1.5 ms (a tenth of a write) in three collections of a heap the
// exit frees anyway; a write in a project whose index is 5 MB runs for
// about 40 ms and paid one collection, 3 ms of it (bench/prefix.sh). A
// longer command collects as usual from then on, so its peak memory is
// what it would be; one that allocates fast collects at the limit. GOGC
// or GOMEMLIMIT set by the user is left alone.
func deferGC(getenv func(string) string, grace time.Duration, limit int64) *time.Timer {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return nil
	}
	prev := debug.SetGCPercent(-1)
	prevLimit := debug.SetMemoryLimit(limit)
	return time.AfterFunc(grace, func() {
		debug.SetGCPercent(prev)
		debug.SetMemoryLimit(prevLimit)
	})
}
