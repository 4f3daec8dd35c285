//go:build linux || darwin

package gitstore

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// waitForGitReaders returns once no git process that may have read HEAD
// or the branch before the write moved it is still running in this work
// tree, or after gitReaderWait. The write holds index.lock meanwhile, so
// such a process fails when it tries to take it (git says index.lock
// exists) rather than acting on what it read: git switch reads HEAD and
// the branch it goes to before it locks the index, and would check out
// the branch's old tip or keep our new files as its own additions. A git
// process started after the move reads the new value. Which processes
// are git's in this work tree is read from the system's process list
// (gitreaders_linux.go, gitreaders_darwin.go); one that started more than
// gitReaderAge before is in no such window (git reads HEAD as it starts).
func (r *Repo) waitForGitReaders() {
	pids := r.gitProcessesHere()
	deadline := time.Now().Add(gitReaderWait)
	for len(pids) > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		pids = stillRunning(pids)
	}
}

const (
	// gitReaderWait bounds how long a write waits for git readers.
	gitReaderWait = 200 * time.Millisecond
	// gitReaderAge: older git processes are not waited for.
	gitReaderAge = 2 * time.Second
)

// waitForGitCommits waits, up to the lock timeout, while a git commit runs
// in this work tree (not one this process runs under, as a hook). A plain
// git commit holds no lock while its pre-commit hook runs, then moves
// HEAD only if it still holds the commit it read as it started: a write
// that moved the branch meanwhile would make that commit fail ("cannot
// lock ref 'HEAD'"). Error: *LockedError naming the commit's process.
func (r *Repo) waitForGitCommits(ctx context.Context) error {
	deadline := time.Now().Add(r.lockTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		pids := r.gitProcesses(func(args []string) bool { return gitSubcommand(args) == "commit" }, 0)
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return &LockedError{Path: r.indexPath(), PID: pids[0], Holder: fmt.Sprintf("a git commit (pid %d) running in %s", pids[0], r.Root),
				hint: "wait for the git commit to finish (its pre-commit hook may be running), then retry"}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// waitForGitSwitches waits, up to the lock timeout, for the git commands
// running in this work tree that write the index and then move HEAD
// (settledHead says why). The caller holds index.lock, so the processes
// listed once are all there are to wait for. Error: *LockedError naming
// one that outlived the wait.
func (r *Repo) waitForGitSwitches() error {
	pids := r.gitProcesses(func(args []string) bool { return movesHead[gitSubcommand(args)] }, 0)
	deadline := time.Now().Add(r.lockTimeout)
	for wait := time.Millisecond; len(pids) > 0; wait = min(2*wait, 20*time.Millisecond) {
		if time.Now().After(deadline) {
			return &LockedError{Path: r.indexPath(), PID: pids[0], Holder: fmt.Sprintf("a git command (pid %d) between writing the index and moving HEAD in %s", pids[0], r.Root),
				hint: "wait for the git command to finish, then retry"}
		}
		time.Sleep(wait)
		pids = stillRunning(pids)
	}
	return nil
}

// movesHead names the git commands that write the index and then move
// HEAD or the branch it names (a commit is waited for apart:
// waitForGitCommits).
var movesHead = map[string]bool{
	"switch": true, "checkout": true, "reset": true, "merge": true, "rebase": true, "pull": true,
	"cherry-pick": true, "revert": true, "am": true, "stash": true, "bisect": true,
}

// gitSubcommand is the git command an argument list runs ("commit" for
// git -c a=b commit -m x), "" when none.
func gitSubcommand(args []string) string {
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-c" || a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// gitProcessesHere lists the git processes (other than this one) that run
// in the work tree and started less than gitReaderAge ago.
func (r *Repo) gitProcessesHere() []int {
	return r.gitProcesses(nil, gitReaderAge)
}
