//go:build unix

package boundedread

import (
	"errors"
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
