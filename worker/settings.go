package worker

import (
	"strconv"
	"strings"
	"time"

	"github.com/skillrepo/skillrepo/skillrepo/config"
)

// Settings are the worker's review: keys of .skillrepo/config.yaml
// (config.Review holds them, their checks and their defaults),
// after the environment's overrides.
type Settings struct {
	// DeferQuiet is how long the agent must be quiet before a review
	// calls the model (review.defer_quiet).
	DeferQuiet time.Duration
	// DeferMax is the longest a review waits for quiet after it was
	// first enqueued (review.defer_max).
	DeferMax time.Duration
	// MaxAttempts bounds the attempts at an entry with transient errors
	// (review.max_attempts).
	MaxAttempts int
	// RetryBackoff is the first back-off, doubled per attempt
	// (review.retry_backoff).
	RetryBackoff time.Duration
	// Idle is how long a worker without --once waits on an empty queue
	// before it exits (review.worker_idle).
	Idle time.Duration
	// MaxInputTokens is review.max_input_tokens (0: the reference's).
	MaxInputTokens int
	// FinalReview: the end of a session queues a review of what the
	// nudge counters had not yet sent to one (review.final_review).
	FinalReview bool
	// Review is the whole review: section (the backend, review.defer,
	// review.enabled …).
	Review config.Review
}

// Environment overrides, for operators and tests (a test cannot wait 30 s
// for a back-off): SKILLREPO_DEFER_QUIET, SKILLREPO_DEFER_MAX,
// SKILLREPO_RETRY_BACKOFF, SKILLREPO_WORKER_IDLE (durations such as
// "15s", or seconds), SKILLREPO_MAX_ATTEMPTS. A value that does not parse
// leaves the config's.

// SettingsFrom are the settings of a library's review: section, then the
// environment's overrides (getenv may be nil).
func SettingsFrom(c config.Review, getenv func(string) string) Settings {
	s := Settings{
		DeferQuiet: time.Duration(c.DeferQuiet), DeferMax: time.Duration(c.DeferMax),
		MaxAttempts: c.MaxAttempts, RetryBackoff: time.Duration(c.RetryBackoff), Idle: time.Duration(c.WorkerIdle),
		MaxInputTokens: c.MaxInputTokens, FinalReview: c.FinalReview, Review: c,
	}
	if getenv == nil {
		return s
	}
	envDuration(getenv("SKILLREPO_DEFER_QUIET"), &s.DeferQuiet)
	envDuration(getenv("SKILLREPO_DEFER_MAX"), &s.DeferMax)
	envDuration(getenv("SKILLREPO_RETRY_BACKOFF"), &s.RetryBackoff)
	envDuration(getenv("SKILLREPO_WORKER_IDLE"), &s.Idle)
	if n, err := strconv.Atoi(strings.TrimSpace(getenv("SKILLREPO_MAX_ATTEMPTS"))); err == nil && n > 0 {
		s.MaxAttempts = n
	}
	return s
}

// envDuration sets *into from a Go duration or a number of seconds.
func envDuration(v string, into *time.Duration) {
	v = strings.TrimSpace(v)
	if v == "" {
		return
	}
	if n, err := strconv.ParseFloat(v, 64); err == nil && n >= 0 {
		*into = time.Duration(n * float64(time.Second))
		return
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		*into = d
	}
}

// Backoff is the wait before attempt n+1 after n failed attempts.
func (s Settings) Backoff(attempts int) time.Duration {
	d := s.RetryBackoff
	for i := 1; i < attempts && d < 24*time.Hour; i++ {
		d *= 2
	}
	return d
}
