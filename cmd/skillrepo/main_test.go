package main

import (
	"runtime/debug"
	"testing"
	"time"
)

// The collector is off for the grace period (but for the heap limit) and
// back to its settings after it; a GOGC or GOMEMLIMIT the user set is
// never touched.
func TestDeferGC(t *testing.T) {
	orig := debug.SetGCPercent(77)
	defer debug.SetGCPercent(orig)
	origLimit := debug.SetMemoryLimit(-1) // -1 reads it
	defer debug.SetMemoryLimit(origLimit)

	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		if timer := deferGC(func(k string) string {
			if k == env {
				return "set"
			}
			return ""
		}, time.Hour, 1<<20); timer != nil {
			t.Errorf("%s set by the user, yet the collector was deferred", env)
		}
		if got := debug.SetGCPercent(77); got != 77 {
			t.Fatalf("%s set by the user, yet the percent became %d", env, got)
		}
	}

	timer := deferGC(func(string) string { return "" }, time.Hour, 1<<20)
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("during the grace period the percent is %d, want off (-1)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<20 {
		t.Errorf("during the grace period the memory limit is %d, want %d", got, 1<<20)
	}
	timer.Stop()
	debug.SetGCPercent(77)
	debug.SetMemoryLimit(origLimit)

	deferGC(func(string) string { return "" }, time.Millisecond, 1<<20)
	for deadline := time.Now().Add(5 * time.Second); ; {
		// The limit is restored after the percent: once it shows, the
		// percent must be back too (reading the percent sets it).
		if debug.SetMemoryLimit(-1) == origLimit {
			if got := debug.SetGCPercent(-1); got != 77 {
				t.Fatalf("after the grace period the percent is %d, want 77", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the memory limit was not restored after the grace period")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
