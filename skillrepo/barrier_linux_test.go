package skillrepo

import "testing"

// The barrier form is what Linux writes use, unless asked for per-file
// fsyncs; both forms pass TestCrashAtEveryStep.
func TestBarrierChoice(t *testing.T) {
	l, env := newTestLibrary(t)
	if !l.canBarrier() {
		t.Fatal("work tree and .git on one file system, yet no barrier")
	}
	if err := l.barrier(); err != nil {
		t.Fatalf("syncfs: %v", err)
	}
	env["SKILLREPO_SYNC"] = "file"
	if l.canBarrier() {
		t.Error("SKILLREPO_SYNC=file still uses the barrier")
	}
}
