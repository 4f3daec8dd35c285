package worker

import (
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Settings are the worker's review: keys of .skillrepo/config.yaml.
type Settings struct {
	// DeferQuiet is how long the agent must be quiet before a review
	// calls the model (review.defer_quiet, 15 s).
	DeferQuiet time.Duration
	// DeferMax is the longest a review waits for quiet after it was
	// first enqueued (review.defer_max, 30 min).
	DeferMax time.Duration
	// MaxAttempts bounds the attempts at an entry with transient errors
	// (review.max_attempts, 5).
	MaxAttempts int
	// RetryBackoff is the first back-off, doubled per attempt
	// (review.retry_backoff, 30 s).
	RetryBackoff time.Duration
	// Idle is how long a worker without --once waits on an empty queue
	// before it exits (review.worker_idle, 60 s).
	Idle time.Duration
	// MaxInputTokens is review.max_input_tokens (0: the reference's).
	MaxInputTokens int
	// FinalReview: the end of a session queues a review of what the
	// nudge counters had not yet sent to one (review.final_review, true).
	FinalReview bool
}

// DefaultSettings are the defaults of every key.
func DefaultSettings() Settings {
	return Settings{DeferQuiet: 15 * time.Second, DeferMax: 30 * time.Minute, MaxAttempts: 5, RetryBackoff: 30 * time.Second, Idle: 60 * time.Second, FinalReview: true}
}

// Environment overrides, for operators and tests (a test cannot wait 30 s
// for a back-off): SKILLREPO_DEFER_QUIET, SKILLREPO_DEFER_MAX,
// SKILLREPO_RETRY_BACKOFF, SKILLREPO_WORKER_IDLE (durations such as
// "15s"), SKILLREPO_MAX_ATTEMPTS.
var envKeys = map[string]string{
	"defer_quiet":   "SKILLREPO_DEFER_QUIET",
	"defer_max":     "SKILLREPO_DEFER_MAX",
	"retry_backoff": "SKILLREPO_RETRY_BACKOFF",
	"worker_idle":   "SKILLREPO_WORKER_IDLE",
	"max_attempts":  "SKILLREPO_MAX_ATTEMPTS",
}

// SettingsFrom reads the settings from the raw config (invalid or
// missing values keep the default), then the environment.
func SettingsFrom(raw []byte, getenv func(string) string) Settings {
	s := DefaultSettings()
	var doc struct {
		Review map[string]any `yaml:"review"`
	}
	_ = yaml.Unmarshal(raw, &doc)
	val := func(key string) string {
		if getenv != nil {
			if v := getenv(envKeys[key]); v != "" {
				return v
			}
		}
		switch v := doc.Review[key].(type) {
		case string:
			return v
		case int:
			return strconv.Itoa(v)
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return ""
	}
	dur := func(key string, into *time.Duration) {
		v := strings.TrimSpace(val(key))
		if v == "" {
			return
		}
		if n, err := strconv.ParseFloat(v, 64); err == nil && n >= 0 {
			*into = time.Duration(n * float64(time.Second)) // plain numbers are seconds
			return
		}
		if d, err := time.ParseDuration(v); err == nil && d >= 0 {
			*into = d
		}
	}
	dur("defer_quiet", &s.DeferQuiet)
	dur("defer_max", &s.DeferMax)
	dur("retry_backoff", &s.RetryBackoff)
	dur("worker_idle", &s.Idle)
	if n, err := strconv.Atoi(strings.TrimSpace(val("max_attempts"))); err == nil && n > 0 {
		s.MaxAttempts = n
	}
	if b, ok := doc.Review["final_review"].(bool); ok {
		s.FinalReview = b
	}
	if n, ok := doc.Review["max_input_tokens"].(int); ok {
		s.MaxInputTokens = n
	}
	return s
}

// Backoff is the wait before attempt n+1 after n failed attempts.
func (s Settings) Backoff(attempts int) time.Duration {
	d := s.RetryBackoff
	for i := 1; i < attempts && d < 24*time.Hour; i++ {
		d *= 2
	}
	return d
}
