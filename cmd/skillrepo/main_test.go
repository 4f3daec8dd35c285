package main

import (
	"runtime/debug"
	"testing"
	"time"
)

// The collector is off for the grace period and back to its setting
// after it; a GOGC or GOMEMLIMIT the user set is never touched.
func TestDeferGC(t *testing.T) {
	orig := debug.SetGCPercent(77)
	defer debug.SetGCPercent(orig)

	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		if timer := deferGC(func(k string) string {
			if k == env {
				return "set"
			}
			return ""
		}, time.Hour); timer != nil {
			t.Errorf("%s set by the user, yet the collector was deferred", env)
		}
		if got := debug.SetGCPercent(77); got != 77 {
			t.Fatalf("%s set by the user, yet the percent became %d", env, got)
		}
	}

	timer := deferGC(func(string) string { return "" }, time.Hour)
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("during the grace period the percent is %d, want off (-1)", got)
	}
	timer.Stop()
	debug.SetGCPercent(77)

	deferGC(func(string) string { return "" }, time.Millisecond)
	for deadline := time.Now().Add(5 * time.Second); ; {
		// Reading the percent means setting it: set it to what it is
		// during the grace period until the restored value shows.
		if got := debug.SetGCPercent(-1); got == 77 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the percent was not restored after the grace period")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
