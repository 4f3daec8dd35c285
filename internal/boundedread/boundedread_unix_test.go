//go:build unix

package boundedread

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNotRegular: /dev/zero, a directory and a FIFO without a writer are
// refused at once (the FIFO must not block).
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for path, want := range map[string]string{"/dev/zero": "a character device", dir: "a directory", fifo: "a FIFO"} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(path, 1<<20); done <- err }()
		select {
		case err := <-done:
			var odd *NotRegularError
			if !errors.As(err, &odd) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v", path, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: blocked", path)
		}
	}
}

// TestReadFileIn: inside a root, a FIFO is refused without blocking, a
// symlink that leads out of the root is refused, one inside is read, and
// the size bound holds.
func TestReadFileIn(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for name, data := range map[string]string{"a.txt": "hello\n", "big": strings.Repeat("x", 11)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"in": "a.txt", "out": filepath.Join(outside, "secret"), "up": "../" + filepath.Base(outside) + "/secret"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for name, want := range map[string]string{"a.txt": "hello\n", "in": "hello\n", "fifo": "a FIFO", "out": "escapes", "up": "escapes", "../x": "escapes", "big": "the limit is 10 bytes"} {
		done := make(chan string, 1)
		go func() {
			data, err := ReadFileIn(root, name, 10)
			if err != nil {
				done <- err.Error()
				return
			}
			done <- string(data)
		}()
		select {
		case got := <-done:
			if !strings.Contains(got, want) {
				t.Errorf("%s: %q, want %q", name, got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: blocked", name)
		}
	}
}
