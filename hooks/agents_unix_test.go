//go:build unix

package hooks_test

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillrepo/skillrepo/agent"
	"github.com/skillrepo/skillrepo/hooks"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// A settings file that is not a settings file (too big, a FIFO) is
// refused before it is loaded, and left as it was.
func TestInstallRefusesUnboundedSettings(t *testing.T) {
	opts := installOpts(t, agent.ClaudeCode)
	p := writeSettings(t, opts, "{}")
	if err := os.Truncate(p, hooks.SettingsLimit+1); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	_, err := hooks.InstallAgent(opts)
	var tooBig *boundedread.TooLargeError
	if !errors.As(err, &tooBig) || !strings.Contains(err.Error(), p) {
		t.Errorf("err = %v, want the size refused, naming the file", err)
	}
	if fi, _ := os.Stat(p); fi.Size() != hooks.SettingsLimit+1 {
		t.Errorf("the file was changed: %d bytes", fi.Size())
	}

	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := hooks.InstallAgent(opts); done <- err }()
	select {
	case err := <-done:
		var notRegular *boundedread.NotRegularError
		if !errors.As(err, &notRegular) {
			t.Errorf("FIFO: err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("install blocked on a FIFO")
	}
}
