package queue

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// EnvInReview is set in the environment of the worker and everything it
// starts. Hooks that see it do nothing, so a review (or a model run
// through an agent's own CLI) never fires hooks of its own.
const EnvInReview = "SKILLREPO_IN_REVIEW"

// activityFile is touched by every agent hook; the worker waits until it
// (and the transcript) has been quiet for review.defer_quiet before it
// calls a model, as the reference waits for the agent to be idle
// (docs/reference-behaviour.md §1.8).
const activityFile = "activity"

// TouchActivity records that an agent did something now.
func TouchActivity(stateDir string, now time.Time) error {
	p := filepath.Join(stateDir, activityFile)
	err := os.Chtimes(p, now, now)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(stateDir, 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		f.Close()
		return os.Chtimes(p, now, now)
	}
	return err
}

// LastActivity is when an agent hook last ran (zero: never).
func LastActivity(stateDir string) time.Time {
	fi, err := os.Stat(filepath.Join(stateDir, activityFile))
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
