// Package cmdutil is what every command of the skillrepo CLI shares: the
// Factory that hands a command its dependencies, the IO streams, the
// output helpers (tables, JSON), progress on a terminal, the typed usage
// error and the one mapping of errors to exit codes. Command groups live
// in packages of their own beside it (cmd/skillrepo/internal/…cmd), as gh
// keeps pkg/cmdutil beside pkg/cmd/<group>; docs/architecture.md §6.
package cmdutil

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/queue"
	"github.com/skillrepo/skillrepo/skillrepo"
	"github.com/skillrepo/skillrepo/skillrepo/remote"
	"github.com/skillrepo/skillrepo/worker"
)

// Factory hands commands their dependencies lazily, so nothing expensive
// runs at start-up and tests can replace any one of them.
type Factory struct {
	IO     *IOStreams
	Getenv func(string) string
	// Now is the clock; --now (hidden) fixes it for deterministic tests.
	Now func() time.Time
	// ToolVersion is this build's version as reports name it ("dev"
	// outside a release).
	ToolVersion string
	// Dir is the library directory from -C, $SKILLREPO_LIBRARY or ".".
	Dir  string
	JSON bool
	// DirDefault: Dir is the current folder because neither -C nor
	// $SKILLREPO_LIBRARY named one.
	DirDefault bool
	// NoShare: this command shares with the remote by itself, so the
	// background sync after a write (ShareAfterWrite) is not started.
	NoShare bool

	lib *skillrepo.Library
	// inferredSaid: the library used was named on stderr (sayInferred).
	inferredSaid bool
	// shareMark is what the shared remote would be sent when the library
	// was opened.
	shareMark remote.ShareMark
}

// Library opens the library once per process.
func (f *Factory) Library() (*skillrepo.Library, error) {
	if f.lib != nil {
		return f.lib, nil
	}
	lib, err := skillrepo.Open(f.Dir, skillrepo.OpenOptions{Getenv: f.Getenv, Now: f.Now, Progress: f.LibraryProgress(), Warn: f.Warn})
	if err != nil {
		return nil, err
	}
	f.lib = lib
	f.sayInferred(lib.Root)
	if lib.Config.Remote.Enabled() {
		f.shareMark = remote.New(lib).ShareMark()
	}
	return lib, nil
}

// ShareAfterWrite starts a background sync when the command left work
// for the shared remote — it moved main and remote.main sends main out,
// or it made or moved a proposal and remote.proposals publishes them
// (what the remote would be sent differs from when the library was
// opened) — so a write made here reaches the team as a worker's does.
// Not when the command shares by itself (NoShare); SKILLREPO_WORKER=off
// (no background processes) leaves it to the next session start or
// 'skillrepo remote sync'.
func (f *Factory) ShareAfterWrite() {
	lib := f.lib
	if lib == nil || f.NoShare || !lib.Config.Remote.Enabled() {
		return
	}
	if f.Getenv("SKILLREPO_WORKER") == "off" || f.Getenv(queue.EnvInReview) != "" {
		return
	}
	if !f.shareMark.Differs(remote.New(lib).ShareMark()) {
		return
	}
	if err := StartRemoteSync(lib); err != nil {
		f.Warn("could not start the background remote sync: " + err.Error() + "; run 'skillrepo remote sync'")
	}
}

// StartRemoteSync starts a background `remote sync` of the library,
// detached (the caller never waits for the network), its output appended
// to the remote log: after a write that left work for the remote, and at
// an agent's session start.
func StartRemoteSync(lib *skillrepo.Library) error {
	env := append(os.Environ(), queue.EnvInReview+"=1")
	return worker.StartDetached(SelfExecutable(), []string{"-C", lib.Root, "remote", "sync", "--background"}, lib.Root, lib.State().RemoteLog(), env)
}

// sayInferred tells, once, which library a command run outside any
// library uses (the only one of the project, found as git finds its
// repository from a sub-folder), on stderr so output stays the command's.
func (f *Factory) sayInferred(root string) {
	dir, err := filepath.Abs(f.Dir)
	if err != nil || f.inferredSaid {
		return
	}
	if rel, err := filepath.Rel(root, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return // dir is in the library
	}
	f.inferredSaid = true
	shown := root
	if rel, err := filepath.Rel(dir, root); err == nil {
		shown = rel
	}
	fmt.Fprintf(f.IO.ErrOut, "skillrepo: using the library in %s (the project's only one)\n", shown)
}

// Warn prints a warning on stderr: a write that landed but left work for
// the next command (exit code 0).
func (f *Factory) Warn(msg string) {
	fmt.Fprintf(f.IO.ErrOut, "warning: %s\n", msg)
}

// WarnHinted prints a read's caveat on stderr, with its hint when it
// has one (output stays the command's, exit 0).
func (f *Factory) WarnHinted(err error) {
	f.Warn(err.Error())
	var h Hinter
	if errors.As(err, &h) && h.Hint() != "" {
		fmt.Fprintf(f.IO.ErrOut, "hint: %s\n", h.Hint())
	}
}

// Close closes the library if one was opened.
func (f *Factory) Close() {
	if f.lib != nil {
		f.lib.Close()
		f.lib = nil
	}
}
