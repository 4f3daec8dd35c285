package skillrepo

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/skillrepo/skillrepo/skillrepo/graph"
	"github.com/skillrepo/skillrepo/skillrepo/internal/gitstore"
	"github.com/skillrepo/skillrepo/skillrepo/merge"
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
	hist := graph.New(l.repo.NewStore(true))
	for range 60 {
		a, b := commits[r.IntN(len(commits))], commits[r.IntN(len(commits))]
		base, onlyB, err := hist.MergeBase(NewHash(a), NewHash(b))
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

// TestDifferingFiles checks the pruned n-way tree walk against full
// listings: random branches that add, change, delete and swap files and
// folders (a file "x" on one side, a folder "x/" on another).
func TestDifferingFiles(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { testDifferingFiles(t, seed) })
	}
}

func testDifferingFiles(t *testing.T, seed uint64) {
	l, _ := newTestLibrary(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, seed))
	paths := []string{"a/SKILL.md", "a/references/r.md", "b/SKILL.md", "c", "c/d.md", "d/e/f.md", "d/e", "x/y/z.md", "x/y"}
	var roots []Hash
	for i := range 4 {
		branch := fmt.Sprintf("t%d", i)
		res, err := l.update(ctx, updateOptions{Branch: branch, From: l.MainBranch()}, func(tx *writeTx) error {
			for range 4 {
				p := paths[r.IntN(len(paths))]
				switch {
				case r.IntN(3) == 0 && tx.gtx.Exists(p):
					if err := tx.gtx.Remove(p); err != nil {
						return err
					}
				default:
					// A file where a folder is (or the reverse) replaces it.
					if err := tx.gtx.RemoveAll(p); err != nil {
						return err
					}
					for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
						if tx.gtx.Exists(dir) {
							if err := tx.gtx.Remove(dir); err != nil {
								return err
							}
						}
					}
					if err := tx.gtx.WriteFile(p, []byte(fmt.Sprintf("%s %d\n", p, r.IntN(3))), r.IntN(4) == 0); err != nil {
						return err
					}
				}
			}
			_, err := tx.Commit(Message{Subject: branch})
			if errors.Is(err, ErrNoChanges) {
				return nil
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		roots = append(roots, res.New)
	}
	store := l.repo.NewStore(true)
	var trees []Hash
	full := make([]map[string]merge.Entry, len(roots))
	for i, c := range roots {
		if c.IsZero() {
			c, _ = l.repo.ResolveBranch(l.MainBranch())
		}
		tree, _, err := store.CommitInfo(c)
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, tree)
		full[i] = map[string]merge.Entry{}
		if err := store.WalkTree(tree, "", func(p string, h Hash, m gitstore.FileMode) error {
			full[i][p] = merge.Entry{ID: h.String(), Mode: merge.Mode(m)}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := graph.DifferingFiles(store, trees...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range full {
		want := map[string]merge.Entry{}
		for p, e := range full[i] {
			same := true
			for j := range full {
				if o, ok := full[j][p]; !ok || o != e {
					same = false
				}
			}
			if !same {
				want[p] = e
			}
		}
		if !maps.Equal(map[string]merge.Entry(got[i]), want) {
			t.Errorf("tree %d:\n got %v\nwant %v", i, got[i], want)
		}
	}
}
