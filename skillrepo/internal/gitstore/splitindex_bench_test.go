package gitstore

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// BenchmarkIndexWrite50k times what a write does with a project's index of
// 50,000 entries (git-made), read, one entry set, written (to io.Discard),
// whole and split: the in-process part of bench/prefix.sh's difference.
func BenchmarkIndexWrite50k(b *testing.B) {
	dir := b.TempDir()
	env := testEnv(b)
	run := func(stdin string, args ...string) {
		cmd := gitExec(b, dir, env, args...)
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("", "init", "-q")
	blob := strings.TrimSpace(func() string {
		cmd := gitExec(b, dir, env, "hash-object", "-w", "--stdin")
		cmd.Stdin = strings.NewReader("x\n")
		out, _ := cmd.Output()
		return string(out)
	}())
	var info strings.Builder
	for i := 0; i < 50000; i++ {
		fmt.Fprintf(&info, "100644 %s 0\tsrc/pkg%03d/mod%02d/file%05d.go\n", blob, i/500, i/50%10, i)
	}
	run(info.String(), "update-index", "--index-info")
	for _, mode := range []string{"whole", "split"} {
		if mode == "split" {
			run("", "config", "core.splitIndex", "true")
			run("", "update-index", "--split-index")
		}
		b.Run(mode, func(b *testing.B) {
			l, err := Open(dir, openOpts(env))
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			fi, _ := os.Stat(filepath.Join(dir, ".git", "index"))
			b.ReportMetric(float64(fi.Size()), "index-bytes")
			for i := 0; i < b.N; i++ {
				l.indexCache = nil
				idx, _, err := l.ReadIndex()
				if err != nil {
					b.Fatal(err)
				}
				idx.set(&indexEntry{Name: ".claude/skills/a/SKILL.md", Mode: uint32(filemode.Regular)})
				w, err := l.indexWriter(idx)
				if err != nil {
					b.Fatal(err)
				}
				if err := w(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
