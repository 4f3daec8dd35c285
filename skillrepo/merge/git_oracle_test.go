package merge

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// This file checks Merge3 against the real git, the oracle the package
// reproduces: `git merge-file -p --diff3` for merges and
// `git diff --no-index -U0` for the per-side diffs.

// gitCmd runs git hermetically in dir; it skips the test when git is absent.
func gitCmd(t testing.TB, dir string, args ...string) *exec.Cmd {
	t.Helper()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not on PATH: no oracle")
	}
	cmd := exec.Command(gitPath, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
	return cmd
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gitMergeFile returns git's merge of the three texts and its conflict
// count (git merge-file exits with the number of conflicts).
func gitMergeFile(t testing.TB, base, ours, theirs string) (merged []byte, conflicts int) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"base": base, "ours": ours, "theirs": theirs})
	cmd := gitCmd(t, dir, "merge-file", "-p", "--diff3", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out, 0
	case errors.As(err, &exit) && exit.ExitCode() > 0 && exit.ExitCode() < 128:
		return out, exit.ExitCode()
	default:
		t.Fatalf("git merge-file: %v: %s", err, stderr.String())
		return nil, 0
	}
}

// gitDiffHunks returns git's line diff of a to b as hunks. The indent
// heuristic is off because merge-file does not use it.
func gitDiffHunks(t testing.TB, a, b string) []hunk {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a": a, "b": b})
	cmd := gitCmd(t, dir, "-c", "diff.indentHeuristic=false", "diff", "--no-index", "--no-color", "-U0", "a", "b")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("git diff: %v", err)
	}
	var hunks []hunk
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] != "@@" {
			continue
		}
		bs, be := parseHunkRange(t, f[1])
		ss, se := parseHunkRange(t, f[2])
		hunks = append(hunks, hunk{baseStart: bs, baseEnd: be, sideStart: ss, sideEnd: se})
	}
	return hunks
}

// parseHunkRange reads "-12,3" or "+7" of a hunk header as a zero-based
// half-open range. A count of 0 names the line after which text goes.
func parseHunkRange(t testing.TB, s string) (start, end int) {
	t.Helper()
	first, count, hasCount := strings.Cut(s[1:], ",")
	n := 1
	var err error
	if hasCount {
		if n, err = strconv.Atoi(count); err != nil {
			t.Fatalf("hunk header %q: %v", s, err)
		}
	}
	line, err := strconv.Atoi(first)
	if err != nil {
		t.Fatalf("hunk header %q: %v", s, err)
	}
	if n == 0 {
		return line, line
	}
	return line - 1, line - 1 + n
}

func checkAgainstGit(t testing.TB, base, ours, theirs string, got Result) {
	t.Helper()
	want, n := gitMergeFile(t, base, ours, theirs)
	if !bytes.Equal(got.Merged, want) {
		t.Errorf("merged differs from git merge-file\nbase   %q\nours   %q\ntheirs %q\ngot  %q\ngit  %q", base, ours, theirs, got.Merged, want)
	}
	if len(got.Conflicts) != n {
		t.Errorf("conflicts = %d, git merge-file reports %d\nbase   %q\nours   %q\ntheirs %q", len(got.Conflicts), n, base, ours, theirs)
	}
}

// sameDiffsAsGit reports whether our diffs of base to each side are the
// ones git computes. Myers diffs are ambiguous when lines repeat, and
// diff-match-patch breaks ties differently from xdiff, so on such inputs
// both tools produce valid but different merges; only inputs where the
// diffs agree must merge identically.
func sameDiffsAsGit(t testing.TB, base, ours, theirs string) bool {
	t.Helper()
	return sameDiffAsGit(t, base, ours) && sameDiffAsGit(t, base, theirs)
}

// sameDiffAsGit reports whether our line diff of a to b is git's.
func sameDiffAsGit(t testing.TB, a, b string) bool {
	t.Helper()
	tok := tokenizer{ids: make(map[string]rune)}
	at, err := tok.tokens(splitLines([]byte(a)))
	if err != nil {
		t.Fatal(err)
	}
	bt, err := tok.tokens(splitLines([]byte(b)))
	if err != nil {
		t.Fatal(err)
	}
	return slices.Equal(diffHunks(at, bt), gitDiffHunks(t, a, b))
}

// randomLines returns up to n lines drawn from a small alphabet, so that
// lines repeat and hunks collide often.
func randomLines(r *rand.Rand, alphabet string, n int) []string {
	lines := make([]string, r.IntN(n+1))
	for i := range lines {
		lines[i] = string(alphabet[r.IntN(len(alphabet))]) + "\n"
	}
	return lines
}

// edit applies one to three random insertions, deletions or replacements.
func edit(r *rand.Rand, lines []string, alphabet string) []string {
	lines = slices.Clone(lines)
	for k := 1 + r.IntN(3); k > 0; k-- {
		newLine := string(alphabet[r.IntN(len(alphabet))]) + "\n"
		switch op := r.IntN(3); {
		case op == 0 || len(lines) == 0:
			lines = slices.Insert(lines, r.IntN(len(lines)+1), newLine)
		case op == 1:
			i := r.IntN(len(lines))
			lines = slices.Delete(lines, i, i+1)
		default:
			lines[r.IntN(len(lines))] = newLine
		}
	}
	return lines
}

// TestMerge3MatchesGitRandom merges random small texts with many repeated
// lines (the hard cases for hunk placement) and requires git's exact output
// whenever the per-side diffs agree with git's, which must be the vast
// majority of cases.
func TestMerge3MatchesGitRandom(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	r := rand.New(rand.NewPCG(1, 2))
	compared := 0
	for range n {
		baseLines := randomLines(r, "abcd", 8)
		base := strings.Join(baseLines, "")
		ours := strings.Join(edit(r, baseLines, "abcde"), "")
		theirs := strings.Join(edit(r, baseLines, "abcdf"), "")
		got, err := Merge3([]byte(base), []byte(ours), []byte(theirs))
		if err != nil {
			t.Fatal(err)
		}
		if !sameDiffsAsGit(t, base, ours, theirs) {
			continue
		}
		compared++
		checkAgainstGit(t, base, ours, theirs, got)
	}
	if compared < n*85/100 {
		t.Errorf("diffs agreed with git in only %d of %d cases", compared, n)
	}
}

// FuzzMerge3 checks the merge invariants on any input and, when the
// per-side diffs agree with git's, git's exact output.
func FuzzMerge3(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", "a\nb\nC\n")
	f.Add("a\nb\nc\n", "a\nB\nc\n", "a\nb2\nc\n")
	f.Add("", "x\n", "y\n")
	f.Add("a\r\nb", "a\r\nB", "A\r\nb")
	f.Add("x\ny\nx\ny\n", "x\ny\nx\ny\nx\ny\n", "x\nz\nx\ny\n")
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		got, err := Merge3([]byte(base), []byte(ours), []byte(theirs))
		if err != nil {
			t.Fatal(err)
		}
		if got.Clean != (len(got.Conflicts) == 0) {
			t.Fatalf("clean = %v with %d conflicts", got.Clean, len(got.Conflicts))
		}
		swapped, err := Merge3([]byte(base), []byte(theirs), []byte(ours))
		if err != nil {
			t.Fatal(err)
		}
		if len(swapped.Conflicts) != len(got.Conflicts) {
			t.Fatalf("swapping sides changes the conflict count: %d vs %d", len(got.Conflicts), len(swapped.Conflicts))
		}
		if got.Clean && swapped.Clean && !bytes.Equal(got.Merged, swapped.Merged) {
			t.Fatalf("swapping sides changes a clean merge: %q vs %q", got.Merged, swapped.Merged)
		}
		if same, err := Merge3([]byte(base), []byte(ours), []byte(ours)); err != nil || !same.Clean || string(same.Merged) != ours {
			t.Fatalf("merging a side with itself: %q, clean %v, err %v", same.Merged, same.Clean, err)
		}
		if sameDiffsAsGit(t, base, ours, theirs) {
			checkAgainstGit(t, base, ours, theirs, got)
		}
	})
}
