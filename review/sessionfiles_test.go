package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/internal/testenv"
)

// SessionHead reads only the first line of a regular file: never a FIFO
// (which would hang the command), a link or more than its bound; and
// SessionFiles lists the regular files newest first.
func TestSessionHeadAndFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mod time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
		return p
	}
	now := time.Now()
	old := write("old.jsonl", "{\"session\":\"a\"}\n{\"more\":1}\n", now.Add(-time.Hour))
	newer := write("new.jsonl", "{\"session\":\"b\"}", now)
	long := write("long.jsonl", strings.Repeat("x", maxSessionHead+10), now.Add(-2*time.Hour))
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(old, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.jsonl")
	fifoMade := testenv.Mkfifo(fifo) == nil

	for _, tc := range []struct {
		name, path, want string
		none             bool
	}{
		{name: "first line only", path: old, want: "{\"session\":\"a\"}\n"},
		{name: "no newline", path: newer, want: "{\"session\":\"b\"}"},
		{name: "a symlink is not followed", path: link, none: true},
		{name: "missing", path: filepath.Join(dir, "gone"), none: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := SessionHead(tc.path)
			if tc.none && got != nil || !tc.none && string(got) != tc.want {
				t.Errorf("SessionHead = %q, want %q (none %v)", got, tc.want, tc.none)
			}
		})
	}
	if got := SessionHead(long); int64(len(got)) > maxSessionHead {
		t.Errorf("read %d bytes of a line, over the bound %d", len(got), maxSessionHead)
	}
	if fifoMade {
		done := make(chan []byte)
		go func() { done <- SessionHead(fifo) }()
		select {
		case got := <-done:
			if got != nil {
				t.Errorf("a FIFO gave %q", got)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("SessionHead blocked on a FIFO")
		}
	}
	files := SessionFiles(filepath.Join(dir, "*.jsonl"))
	if want := []string{newer, old, long}; strings.Join(files, ",") != strings.Join(want, ",") {
		t.Errorf("SessionFiles = %v, want %v (regular files, newest first)", files, want)
	}
}
