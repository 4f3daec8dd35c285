package gitstore

import (
	"testing"
)

// The barrier form is what Linux writes use, unless asked for per-file
// fsyncs; both forms pass TestCrashAtEveryStep.
func TestBarrierChoice(t *testing.T) {
	l, env := newTestRepo(t)
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

// In the barrier form a write fsyncs no file or folder itself (the two
// syncfs calls cover them); in the per-file form it fsyncs at least the new
// objects, the intent record, the ref, the work-tree file and the index.
func TestBarrierWriteSkipsPerFileSyncs(t *testing.T) {
	for _, mode := range []string{"", "file"} {
		t.Run("SKILLREPO_SYNC="+mode, func(t *testing.T) {
			l, env := newTestRepo(t)
			env["SKILLREPO_SYNC"] = mode
			l.fsyncs = 0
			_, err := writeFile(l, "main", "ci-debugging/references/new-"+mode+".md", "new content\n")
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case mode == "" && l.fsyncs != 0:
				t.Errorf("barrier form: %d per-file fsyncs", l.fsyncs)
			case mode == "file" && l.fsyncs < 8:
				t.Errorf("per-file form: only %d fsyncs", l.fsyncs)
			}
			assertConsistent(t, l, env)
		})
	}
}
