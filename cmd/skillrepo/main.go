// Command skillrepo turns an agent's skills folder into a git repository
// and runs the agent's self-improvement loop on it.
package main

import (
	"os"
	"runtime/debug"
	"time"
)

func main() {
	deferGC(os.Getenv, gcGrace)
	os.Exit(run(os.Args[1:], systemIO(), os.Getenv))
}

// gcGrace is how long a command runs before the garbage collector starts.
const gcGrace = 25 * time.Millisecond

// deferGC turns the garbage collector off for the first grace of the
// process. Most commands (a skill write, a view, a usage bump) end well
// within it, having allocated a few megabytes, and with the default
// settings would spend 1.5 ms (a tenth of a write) in three collections
// of a heap the exit frees anyway. A longer command collects as usual
// from then on, so its peak memory is what it would be. GOGC or
// GOMEMLIMIT set by the user is left alone.
func deferGC(getenv func(string) string, grace time.Duration) *time.Timer {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return nil
	}
	prev := debug.SetGCPercent(-1)
	return time.AfterFunc(grace, func() { debug.SetGCPercent(prev) })
}
