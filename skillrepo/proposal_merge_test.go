package skillrepo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestMergeBaseMatchesGit builds random histories with merges, criss-cross
// merges and many equal commit times, and checks mergeBase against
// git merge-base --all and, when commit times never go backwards, the
// proposal's own commits against git rev-list.
func TestMergeBaseMatchesGit(t *testing.T) {
	for _, skew := range []bool{false, true} {
		t.Run(fmt.Sprintf("skew=%v", skew), func(t *testing.T) { testMergeBase(t, skew) })
	}
}

func testMergeBase(t *testing.T, skew bool) {
	l, env := newTestLibrary(t)
	tree := strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "main^{tree}"))
	r := rand.New(rand.NewPCG(5, 6))
	commits := []string{strings.TrimSpace(gitCmd(t, l, env, "rev-parse", "main"))}
	n := 40
	if testing.Short() {
		n = 15
	}
	for i := range n {
		args := []string{"commit-tree", tree, "-m", fmt.Sprint(i)}
		p1 := commits[len(commits)-1-r.IntN(min(len(commits), 6))]
		args = append(args, "-p", p1)
		if r.IntN(3) == 0 {
			if p2 := commits[r.IntN(len(commits))]; p2 != p1 {
				args = append(args, "-p", p2)
			}
		}
		// Times tie often; with skew they also go backwards.
		stamp := fmt.Sprintf("@%d +0000", 1764500000+(i/4)*60)
		if skew {
			stamp = fmt.Sprintf("@%d +0000", 1764500000+r.IntN(5)*60)
		}
		cmd := gitExec(t, l.Root, env, args...)
		cmd.Env = append(cmd.Env, "GIT_COMMITTER_DATE="+stamp)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		commits = append(commits, strings.TrimSpace(string(out)))
	}
	hist := newHistory(newObjectStore(l, true))
	for range 60 {
		a, b := commits[r.IntN(len(commits))], commits[r.IntN(len(commits))]
		base, onlyB, err := hist.mergeBase(plumbing.NewHash(a), plumbing.NewHash(b))
		if err != nil {
			t.Fatal(err)
		}
		all := strings.Fields(gitIn(t, l.Root, env, true, "merge-base", "--all", a, b))
		if !slices.Contains(all, base.String()) {
			t.Errorf("mergeBase(%.7s, %.7s) = %.7s, git merge-base --all = %v", a, b, base, all)
		}
		if skew {
			continue
		}
		want := strings.Fields(gitCmd(t, l, env, "rev-list", b, "^"+a))
		var got []string
		for _, h := range onlyB {
			got = append(got, h.String())
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("commits of %.7s not in %.7s: got %d, git rev-list %d", b, a, len(got), len(want))
		}
	}
}
