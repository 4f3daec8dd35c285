package genlib

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// FastImport streams a history into `git fast-import` in a new repository,
// so generators can build thousands of commits in seconds. Commits get
// marks 1, 2, ... and committer times one minute apart.
type FastImport struct {
	dir   string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	w     *bufio.Writer
	mark  int
	when  int64
}

// NewFastImport runs `git init -b main` in dir (which must not exist) and
// starts fast-import there.
func NewFastImport(dir string) (*FastImport, error) {
	if _, err := os.Stat(dir); err == nil {
		return nil, fmt.Errorf("%s exists", dir)
	}
	if err := Git("", "init", "-q", "-b", "main", dir); err != nil {
		return nil, err
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &FastImport{dir: dir, cmd: cmd, stdin: stdin, w: bufio.NewWriterSize(stdin, 1<<20), when: 1764000000}, nil
}

func (f *FastImport) data(s string) { fmt.Fprintf(f.w, "data %d\n%s\n", len(s), s) }

// Commit starts a commit on ref whose first parent is parents[0] (none: a
// root or the ref's current tip) and further parents make a merge. File
// commands (File, Rename) follow. It returns the commit's mark.
func (f *FastImport) Commit(ref, msg string, parents ...int) int {
	f.mark++
	fmt.Fprintf(f.w, "commit %s\nmark :%d\n", ref, f.mark)
	fmt.Fprintf(f.w, "author Bench <bench@example.com> %d +0000\ncommitter Bench <bench@example.com> %d +0000\n", f.when, f.when)
	f.data(msg)
	for i, p := range parents {
		if i == 0 {
			fmt.Fprintf(f.w, "from :%d\n", p)
		} else {
			fmt.Fprintf(f.w, "merge :%d\n", p)
		}
	}
	f.when += 60
	return f.mark
}

// File writes path with content (mode 100644) in the current commit.
func (f *FastImport) File(path, content string) {
	fmt.Fprintf(f.w, "M 100644 inline %s\n", path)
	f.data(content)
}

// Rename moves a file or folder in the current commit.
func (f *FastImport) Rename(from, to string) { fmt.Fprintf(f.w, "R %s %s\n", from, to) }

// Finish ends the stream, checks out main and packs the repository.
func (f *FastImport) Finish() error {
	if err := f.w.Flush(); err != nil {
		return err
	}
	f.stdin.Close()
	if err := f.cmd.Wait(); err != nil {
		return fmt.Errorf("fast-import: %w", err)
	}
	if err := Git(f.dir, "checkout", "-q", "-f", "main"); err != nil {
		return err
	}
	return Git(f.dir, "repack", "-adq")
}

// Git runs the git binary in dir, its errors on stderr.
func Git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return nil
}
