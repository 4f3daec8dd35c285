package queue

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// SessionEnvKeys are the environment variables a queue entry keeps from
// the session that queued it: the ones that choose and reach a model
// backend (an OpenAI-compatible endpoint, or the agent's own program and
// its configuration), and PATH, where the agent's program is found.
var SessionEnvKeys = []string{
	"SKILLREPO_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY",
	"ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_MODEL",
	"CLAUDE_CONFIG_DIR", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX",
	"CODEX_HOME", "HOME", "PATH",
}

// SessionEnv picks SessionEnvKeys out of an environment (nil when none is
// set).
func SessionEnv(getenv func(string) string) map[string]string {
	var env map[string]string
	for _, k := range SessionEnvKeys {
		if v := getenv(k); v != "" {
			if env == nil {
				env = map[string]string{}
			}
			env[k] = v
		}
	}
	return env
}

// SecretKey reports whether an environment variable's value is a
// credential, shown as "(set)" by queue show.
func SecretKey(k string) bool {
	return strings.HasSuffix(k, "_KEY") || strings.HasSuffix(k, "_TOKEN")
}
