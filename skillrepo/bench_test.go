package skillrepo

import (
	"context"
	"testing"
)

// BenchmarkApplyPatch measures one patch commit through the engine (open,
// lock, lookup, objects, ref, work tree, index) on the example library.
// The whole-process comparison with git on 10,000 skills is
// bench/patch.sh.
func BenchmarkApplyPatch(b *testing.B) {
	env := testEnv(b)
	dir := b.TempDir() + "/lib"
	if _, err := Init(context.Background(), dir, InitOptions{OpenOptions: openOpts(env), Example: true}); err != nil {
		b.Fatal(err)
	}
	texts := []string{"Pitfalls", "Traps"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		l, err := Open(dir, openOpts(env))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := l.apply(context.Background(), applyOptions{Ops: []Op{{Action: ActionPatch, Name: "ci-debugging", OldString: &texts[i%2], NewString: &texts[(i+1)%2]}}}); err != nil {
			b.Fatal(err)
		}
		l.repo.Close()
	}
}
