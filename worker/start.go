package worker

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/skillrepo/skillrepo/internal/statefile"
	"github.com/skillrepo/skillrepo/queue"
)

// LockFile is the worker's lock inside the library state directory.
const LockFile = "worker.lock"

// Running reports whether a worker holds the library's worker lock.
func Running(stateDir string) bool {
	return statefile.Held(filepath.Join(stateDir, LockFile))
}

// Start starts `exe -C library worker` fully detached and returns at
// once (see [StartDetached]), its output appended to the worker log. env
// is the child's environment (nil: the caller's); EnvInReview is added.
func Start(exe, library, stateDir string, env []string) error {
	if env == nil {
		env = os.Environ()
	}
	env = append(env, queue.EnvInReview+"=1")
	logPath, err := prepareLog(stateDir)
	if err != nil {
		return err
	}
	return StartDetached(exe, []string{"-C", library, "worker"}, library, logPath, env)
}

// StartDetached starts exe with args fully detached and returns at once:
// a new session, standard input on /dev/null, standard output and error
// appended to logPath, the process released. Nothing of the caller's (an
// agent hook's pipes) is held, so the agent never waits for it.
func StartDetached(exe string, args []string, dir, logPath string, env []string) error {
	_, err := startDetached(exe, args, dir, logPath, env, "")
	return err
}

// StartDetachedOnce is [StartDetached] for work of which one run at a
// time is enough (a sync): the child holds an exclusive lock on lockPath
// for its life, and while one does, no other is started (started false).
func StartDetachedOnce(lockPath, exe string, args []string, dir, logPath string, env []string) (started bool, err error) {
	return startDetached(exe, args, dir, logPath, env, lockPath)
}

func startDetached(exe string, args []string, dir, logPath string, env []string, lockPath string) (bool, error) {
	fail := func(err error) (bool, error) { return false, fmt.Errorf("start %s: %w", filepath.Base(exe), err) }
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return fail(err)
	}
	cmd := exec.Command(exe, args...)
	if lockPath != "" {
		// The lock's folder may not exist yet: the first session start of
		// a new library.
		if err := os.MkdirAll(filepath.Dir(lockPath), 0o755); err != nil {
			return fail(err)
		}
		release, ok, err := holdOnce(cmd, lockPath)
		if err != nil {
			return fail(err)
		}
		if !ok {
			return false, nil
		}
		defer release()
	}
	out, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fail(err)
	}
	defer out.Close()
	in, err := os.Open(os.DevNull)
	if err != nil {
		return fail(err)
	}
	defer in.Close()
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, out
	cmd.Dir = dir
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return false, fmt.Errorf("start %s %s: %w", filepath.Base(exe), strings.Join(args, " "), err)
	}
	return true, cmd.Process.Release()
}

// LogPath is the worker log of a library state directory.
func LogPath(stateDir string) string { return filepath.Join(stateDir, "logs", "worker.log") }

// maxLog is the size at which the worker log is rotated.
const maxLog = 1 << 20

// prepareLog makes the log folder and rotates a log past maxLog to
// worker.log.1 (one old file kept).
func prepareLog(stateDir string) (string, error) {
	p := LogPath(stateDir)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("worker log: %w", err)
	}
	if fi, err := os.Stat(p); err == nil && fi.Size() > maxLog {
		_ = os.Rename(p, p+".1")
	}
	return p, nil
}
