package gitstore

// One repository-wide lock serialises skillrepo's read-modify-write cycles
// (docs/git-format.md §5). It is an flock(2) on .git/skillrepo/lock, so the kernel
// releases it when the holder dies: a crashed writer never leaves a lock
// that blocks the next command. Who holds it is written beside it in
// lock.info, for the "locked by pid N on host H" message.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/skillrepo/skillrepo/internal/boundedread"
)

// DefaultLockTimeout is how long a writer waits for another one.
const DefaultLockTimeout = 10 * time.Second

type lockInfo struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
}

// Lock takes the library lock, waiting up to the configured timeout
// (OpenOptions.LockTimeout, $SKILLREPO_LOCK_TIMEOUT). It returns the
// function that releases it. Error: *LockedError (ErrLocked) on timeout.
// Locks are not reentrant: a caller already holding the lock must not call
// Lock again.
func (l *Repo) Lock(ctx context.Context) (unlock func(), err error) {
	dir := l.repoStateDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock library: %w", err)
	}
	path := filepath.Join(dir, "lock")
	fl := flock.New(path)
	// One attempt first, whatever the timeout: a zero (or tiny) timeout
	// means "try once", never "fail without trying".
	ok, err := fl.TryLock()
	ctx, cancel := context.WithTimeout(ctx, l.lockTimeout)
	defer cancel()
	if err == nil && !ok {
		ok, err = fl.TryLockContext(ctx, 25*time.Millisecond)
	}
	if !ok {
		if ctx.Err() != nil && ctx.Err() != context.DeadlineExceeded {
			return nil, ctx.Err()
		}
		le := &LockedError{Path: path}
		if b, rerr := boundedread.ReadFile(path+".info", 64<<10); rerr == nil {
			var li lockInfo
			if json.Unmarshal(b, &li) == nil && li.PID != 0 {
				le.Holder = fmt.Sprintf("pid %d on host %s (%s, since %s)", li.PID, li.Host, li.Command, li.Since.Format(time.RFC3339))
				le.PID = li.PID
			}
		}
		if le.PID == 0 {
			// No record (a holder between its flock and its record): ask
			// the kernel which process holds the flock.
			if pid := flockHolder(path); pid != 0 {
				le.PID = pid
				le.Holder = fmt.Sprintf("pid %d", pid)
			}
		}
		if err != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("lock library: %w", err)
		}
		return nil, le
	}
	host, _ := os.Hostname()
	info, _ := json.Marshal(lockInfo{PID: os.Getpid(), Host: host, Command: l.command, Since: time.Now().UTC()})
	_ = os.WriteFile(path+".info", info, 0o644)
	return func() {
		os.Remove(path + ".info")
		fl.Unlock()
	}, nil
}

func commandLine() string {
	args := os.Args
	if len(args) > 0 {
		args = append([]string{filepath.Base(args[0])}, args[1:]...)
	}
	s := strings.Join(args, " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}
